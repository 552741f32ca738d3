"""The reader: decoding, record splitting, sections, inheritance, located errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from priffe_records import BadRecord, PPNSyntaxError, dumps, loads, read
from priffe_records.format.reader import ChunkReader, read_headers
from priffe_records.format.record import CommentKind, RawSection, Record, TokenKind, partie_head
from priffe_records.format.splitter import split_text

DEAL = '[Deal "N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742"]'


def one(text: str):  # type: ignore[no-untyped-def]
    [rec] = list(loads(text))
    return rec


@pytest.mark.parametrize("encoding,prefix", [
    ("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"),
    ("utf-16-be", b"\xfe\xff"), ("latin-1", b""),
    ("utf-16-le", b""), ("utf-16-be", b""),  # "Unicode" as Windows tools save it: no BOM
])
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_encodings_and_line_ends(tmp_path: Path, encoding: str, prefix: bytes,
                                 newline: str) -> None:
    text = newline.join(['[Event "Klubbkväll"]', '[South "Åsa Öberg"]', "",
                         '[Event "Två"]']) + newline
    f = tmp_path / "x.ppn"
    f.write_bytes(prefix + text.encode(encoding))
    recs = list(read(f))
    assert [r.get("Event") for r in recs] == ["Klubbkväll", "Två"]
    assert recs[0].get("South") == "Åsa Öberg"
    assert recs[1].location is not None and recs[1].location.line == 4


def test_latin1_line_in_a_utf8_file(tmp_path: Path) -> None:
    f = tmp_path / "mixed.ppn"
    f.write_bytes('[Event "Kväll"]\n'.encode() + '[Site "Gävle"]\n'.encode("latin-1"))
    assert one_from(f).get("Site") == "Gävle"


def one_from(path: Path):  # type: ignore[no-untyped-def]
    [rec] = list(read(path))
    return rec


def test_several_tags_on_a_line_and_a_tag_over_lines() -> None:
    rec = one('[Event "a"] [Site "b"]\n[Date\n  "2026.11.29"\n]\n')
    assert [(t.name, t.value) for t in rec.tags] == [
        ("Event", "a"), ("Site", "b"), ("Date", "2026.11.29")]


def test_escapes_in_values() -> None:
    rec = one(r'[Event "say \"hej\" \\ ok"]' + "\n")
    assert rec.get("Event") == 'say "hej" \\ ok'


def test_comments_attach_to_what_they_follow() -> None:
    rec = one('% top\n{lead}\n[Event "a"] ; rest of line\n{after event}\n'
              '[Auction "E"]\nHjärter {strong} Pass Pass Pass\n')
    assert [(c.kind, c.text) for c in rec.leading] == [(CommentKind.ESCAPE, " top"),
                                                      (CommentKind.BRACE, "lead")]
    assert [c.text for c in rec.tag("Event").comments] == [" rest of line", "after event"]
    assert rec.auction is not None
    assert [c.text for c in rec.auction.tokens[0].comments] == ["strong"]


def test_brace_comment_may_hold_blank_lines() -> None:
    recs = list(loads('[Event "a"] {one\n\ntwo}\n[Site "b"]\n\n[Event "c"]\n'))
    assert len(recs) == 2
    assert recs[0].tag("Event").comments[0].text == "one\n\ntwo"


@pytest.mark.parametrize("opener", ['[Event"b"]', '[ Event "b" ]'])
def test_a_stray_brace_ends_before_a_tag_pair_written_without_blanks(opener: str) -> None:
    """An unclosed '{' (a '{A' typed twice) runs over a blank line into a tag pair the
    grammar takes without its blanks ('[Event"b"]'): that record starts there, as after
    '[Event "b"]', and the brace is a located error of the record it is in. Before, the comment
    swallowed it and every record up to the next '[Name "' line (fuzz_bytes seed 28)."""
    text = ('[Event "a"]\n[Auction "N"]\n1C {A Pass\n\n% next\n' + opener
            + '\n[Board "2"]\n\n[Event "c"]\n[Board "3"]\n')
    first, second, third = read(io.BytesIO(text.encode()), errors="collect", name="f.ppn")
    [error] = first.errors
    assert error.location is not None and (error.location.line, error.location.column) == (3, 4)
    assert "'{'" in error.message
    assert isinstance(second, Record) and second.location is not None
    assert (second.location.line, second.get("Event"), second.get("Board")) == (5, "b", "2")
    assert isinstance(third, Record) and third.get("Event") == "c"


def test_a_broken_tag_after_a_comment_the_grammar_closes_costs_only_itself() -> None:
    """'{ {}' is a closed comment to the grammar (' {': ppn.lark's BRACE_COMMENT, one
    inner pair or else up to the first '}'); the broken tag pair after it is its own part,
    so the record keeps it as its text. Before, it was taken as still inside the comment
    and cost the record; and the writer, which puts such a tag after the others, wrote
    records that read back unread
    (fuzz_bytes seed 28, test_record_with_lots_of_curlies.pbn)."""
    [rec] = read(io.BytesIO(b'[Event "a"]\n[Xy=1=z ""]\n[Site "b"]\n{ {}\n'),
                 errors="collect", name="f.ppn")
    assert isinstance(rec, Record) and rec.get("Site") == "b" and len(rec.errors) == 1
    [back] = loads(dumps([rec]), errors="collect")
    assert isinstance(back, Record)
    assert sorted((t.name, t.value) for t in back.tags) == sorted(
        (t.name, t.value) for t in rec.tags)  # the writer puts the broken tag last


def test_a_broken_section_whose_comment_the_grammar_closes_is_written_in_its_place() -> None:
    """A section kept as its text goes last only when a '{' of it stays open (it would take
    in what follows); 'Hj{x =1= {y}' is closed to the grammar, so the Auction stays before
    the Note and Play, and the written record reads back as it was (fuzz_bytes seed 28
    case 12845, sections.in.ppn)."""
    text = (b'[Event "a"]\n[Dealer "W"]\n[Auction "W"]\n- ^I Hj{x =1= {y} Pass\n'
            b'[Note "1:z"]\n[Play "N"]\nSK\n')
    [rec] = read(io.BytesIO(text), errors="collect", name="f.ppn")
    assert isinstance(rec, Record) and rec.errors
    assert [t.name for t in rec.tags] == ["Event", "Dealer", "Auction", "Note", "Play"]
    [back] = loads(dumps([rec]), errors="collect")
    assert back == rec


def test_calls_in_every_spelling_are_canonical() -> None:
    rec = one('[Auction "E"]\nhjarter KLOVER ♠ play\n')
    assert rec.auction is not None
    assert [t.text for t in rec.auction.tokens] == ["Hjärter", "Klöver", "Spader", "Spela"]


def test_cards_with_ten_and_symbols() -> None:
    rec = one('[Play "E"]\nh10 ♥T ♠A dq\n')
    assert rec.play is not None
    assert [t.text for t in rec.play.tokens] == ["HT", "HT", "SA", "DQ"]


def test_annotations_suffix_becomes_nag_and_irregularities() -> None:
    rec = one('[Auction "N"]\n- ^I Hjärter !! =1= $20 ^S Pass ? *\n[Note "1:stark"]\n'
              '[Play "E"]\nSA ! ^R SK -- +\n*\n')
    assert rec.auction is not None and rec.play is not None
    calls = rec.auction.tokens
    assert calls[0].kind is TokenKind.UNKNOWN
    assert (calls[1].text, calls[1].irregularity, calls[1].note, calls[1].nags) == (
        "Hjärter", "I", 1, (3, 20))
    assert calls[2].kind is TokenKind.SKIP and calls[3].nags == (2,)
    assert calls[4].kind is TokenKind.END
    cards = rec.play.tokens
    assert cards[0].nags == (7,) and cards[1].irregularity == "R"
    assert [t.kind for t in cards[2:]] == [TokenKind.UNKNOWN, TokenKind.CONTINUE, TokenKind.END]
    assert rec.notes == {1: "stark"}


@pytest.mark.parametrize("text", [
    '[Play "N"]\nSA =1= ^R $3 HK {c} ! H2\nH3\n[Note "1:x"]\n',
    '[Auction "N"]\nPass =1= ^I $3 Hjärter\n[Note "1:x"]\n',
])
def test_an_annotation_after_an_irregularity_keeps_the_note_before_it(text: str) -> None:
    """PBN §3.5.4/§3.6.4: notes, suffixes and NAGs follow their call or card, and
    §3.9's irregularity only precedes the next one; so '$3' in 'SA =1= ^R $3 HK'
    annotates SA with its note =1= (once lost when the NAG was applied)."""
    rec = one(text)
    section = rec.auction if rec.auction is not None else rec.play
    assert section is not None
    first, second = section.tokens[:2]
    assert (first.note, first.nags, first.irregularity) == (1, (3,), None)
    assert second.irregularity in ("R", "I") and second.note is None
    again = one(dumps([rec]))
    assert again.to_dict()["tags"] == rec.to_dict()["tags"]
    back = again.auction if again.auction is not None else again.play
    assert back is not None and back.tokens[0].note == 1 and back.tokens[0].nags == (3,)


def test_a_second_note_after_an_irregularity_is_a_located_error() -> None:
    (bad,) = list(read(io.StringIO('[Play "N"]\nSA =1= ^R $3 =2= HK\n'), errors="collect"))
    # The model cannot hold the second note: the play is kept as its text, with the error.
    assert isinstance(bad, Record) and [t.name for t in bad.unread] == ["Play"]
    assert [(e.location.line, e.location.column) for e in bad.errors
            if "note reference" in e.message] == [(2, 14)]


def test_bridge_calls_are_kept_for_the_validator() -> None:
    rec = one('[Auction "N"]\n1nt x XX AP\n')
    assert rec.auction is not None
    assert [(t.kind, t.text) for t in rec.auction.tokens] == [
        (TokenKind.FOREIGN, "1NT"), (TokenKind.FOREIGN, "X"), (TokenKind.FOREIGN, "XX"),
        (TokenKind.FOREIGN, "AP")]


def test_supplemental_section_rows_kept() -> None:
    rec = one('[OptimumResultTable "Declarer;Denomination\\\\2R"]\nN  C  9\nN NT "a b"\n')
    t = rec.tag("OptimumResultTable")
    assert isinstance(t.section, RawSection)
    assert t.section.rows == (("N", "C", "9"), ("N", "NT", '"a b"'))


def test_values_are_normalised() -> None:
    rec = one('[Dealer "e"]\n' + DEAL + '\n[Declarer "e"]\n[Contract "tvangsnoll"]\n'
              '[Result "9"]\n')
    assert rec.get("Dealer") == "E" and rec.get("Contract") == "Tvångsnoll"
    assert rec.get("Deal", "").startswith("E:A64.T9863.T8742.")
    assert rec.get("Result") == "NS 4 EW 9"
    assert one('[Result "EW 5"]\n').get("Result") == "NS 8 EW 5"
    assert one('[Result "EW 5 NS 8"]\n').get("Result") == "NS 8 EW 5"


def test_inheritance_hash_and_double_hash() -> None:
    recs = list(loads('[Event "##Klubbkväll"]\n[Site "Uppsala"]\n\n[Site "#"]\n\n'
                      '[Event "Annan"]\n\n[Board "4"]\n'))
    assert [r.get("Event") for r in recs] == ["Klubbkväll", "Klubbkväll", "Annan", "Annan"]
    assert recs[1].get("Site") == "Uppsala"
    assert recs[1].tag("Site").inherit == "#"
    assert recs[0].tag("Event").inherit == "##Klubbkväll"


def test_hash_is_forbidden_for_deal_tags() -> None:
    with pytest.raises(PPNSyntaxError, match=r"Dealer may not inherit"):
        list(loads('[Dealer "#"]\n'))


def test_header_lines_are_not_part_of_a_record() -> None:
    recs = list(loads("% PPN 1.0\n% EXPORT\n% mine\n[Event \"a\"]\n"))
    assert [c.text for c in recs[0].leading] == [" mine"]


@pytest.mark.parametrize("text,line,column,fragment", [
    ('[Event "x"]\n[Auction "N"]\nHjärterr\n', 3, 1, "did you mean 'Hjärter'"),
    ('[Event "x\n', 1, 8, "unterminated string"),
    ('[event "x"]\n', 1, 2, "must start with a capital letter"),
    ('[Event "x" \n[Site "y"]', 1, 11, "expected ']'"),
    ('[Event]\n', 1, 7, "no value"),
    ('[Play "N"]\nSX\n', 2, 1, "card 'SX' is not a card"),
    ('[Play "N"]\nSA SK SQ SJ ST\n', 2, 13, "Play row has 5 cards"),
    ('[Event "x"] {open\n[Site "y"]\n', 1, 13, "unterminated comment"),
    (' %x\n', 1, 2, "first column"),
    ('[Dealer "Q"]\n', 1, 10, "not a seat"),
    ('[Auction "N"]\n$3 Pass\n', 2, 1, "must follow a call"),
    ('[Play "N"]\n^I SA\n', 2, 1, "belongs in the auction"),
    ('[Event "x"]\n]\n', 2, 1, "stray ']'"),
    ('[Auction "Q"]\n', 1, 11, "must name the seat"),
    ('[Auction "N"]\nPass =1= =2=\n', 2, 10, "at most one note"),
])
def test_syntax_errors_are_located_and_plain(text: str, line: int, column: int,
                                             fragment: str) -> None:
    with pytest.raises(PPNSyntaxError) as info:
        list(loads(text, name="bad.ppn"))
    err = info.value
    assert (err.location.file, err.location.line, err.location.column) == ("bad.ppn", line,
                                                                           column)
    assert fragment in err.message
    assert str(err).startswith(f"bad.ppn:{line}:{column}: ")
    assert "^" in str(err)


def test_collecting_mode_keeps_reading_after_a_bad_record() -> None:
    # A Board tag pair broken past reading (a word after its value): the record's place in
    # its partie is unknown, it stays unread.
    text = '[Event "a"]\n\n[Board "2" x\n[Play "N"]\nSX\n\n[Event "c"]\n'
    out = list(loads(text, errors="collect"))
    assert isinstance(out[1], BadRecord)
    assert [e.location.line for e in out[1].errors] == [3, 5]
    assert out[1].text == '[Board "2" x\n[Play "N"]\nSX\n'
    assert [r.get("Event") for r in (out[0], out[2])] == ["a", "c"]  # type: ignore[union-attr]


def test_strict_mode_raises_the_first_error() -> None:
    it = loads('[Event "a"]\n\n[Event "b\n', errors="raise")
    assert next(it).get("Event") == "a"
    with pytest.raises(PPNSyntaxError):
        next(it)


class CountingReader(io.RawIOBase):
    """A byte stream that counts how much has been read from it."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[no-untyped-def,override]
        chunk = self.data[self.pos:self.pos + len(b)]
        b[:len(chunk)] = chunk
        self.pos += len(chunk)
        return len(chunk)


def test_reading_streams_record_by_record() -> None:
    data = b"".join(b'[Event "e%d"]\n[Board "%d"]\n\n' % (i, i) for i in range(50_000))
    src = CountingReader(data)
    it = read(io.BufferedReader(src, buffer_size=1 << 16))
    first = next(it)
    assert first.get("Event") == "e0"
    assert src.pos < len(data) // 4, "the first record came before the file was read"


@pytest.mark.parametrize("newline", [b"\r\n", b"\r", b"\n"])
def test_line_ends_across_read_blocks_and_a_latin1_line(tmp_path: Path, newline: bytes) -> None:
    """Blocks are decoded 64 KiB at a time: line ends and encodings must not care."""
    parts = []
    for i in range(6000):
        name = "Gävle".encode("latin-1" if i == 3001 else "utf-8")
        parts.append(b'[Event "e%d"]' % i + newline + b'[Site "' + name + b'"]' + newline
                     + newline)
    f = tmp_path / "big.ppn"
    f.write_bytes(b"".join(parts))
    recs = list(read(f))
    assert len(recs) == 6000
    assert {r.get("Site") for r in recs} == {"Gävle"}
    assert recs[5999].location is not None and recs[5999].location.line == 5999 * 3 + 1


def test_binary_input_is_called_what_it_is(tmp_path: Path) -> None:
    f = tmp_path / "a.out"
    f.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    bad = next(read(f, errors="collect"))
    assert isinstance(bad, BadRecord)
    err = bad.errors[0]
    assert (err.location.line, err.location.column) == (1, 1)
    assert "control character '\\x7f'" in err.message and "text file" in err.message
    assert all(c.isprintable() for line in str(err).splitlines() for c in line)


def test_values_inside_a_run_of_tags_are_located_exactly() -> None:
    text = ('[Event "a [Site \\"b\\"] c"]\n[Site "Gävle"]  [Board "2"]\n'
            '   [Dealer "X"]\n[Deal "N:- - - -"]\n')
    with pytest.raises(PPNSyntaxError) as info:
        list(loads(text, name="run.ppn"))
    assert (info.value.location.line, info.value.location.column) == (3, 13)
    rec = one(text.replace('"X"', '"S"'))
    assert rec.get("Event") == 'a [Site "b"] c'
    assert [(t.name, t.location.line, t.location.column) for t in rec.tags] == [
        ("Event", 1, 1), ("Site", 2, 1), ("Board", 2, 17), ("Dealer", 3, 4), ("Deal", 4, 1)]
    assert rec.tag("Board").value_location.column == 25


def test_a_deal_with_fewer_hands_pads_with_unknown_hands() -> None:
    rec = one('[Deal "N:AKQ2.JT9.876.543"]\n')
    assert rec.get("Deal") == "N:AKQ2.JT9.876.543 - - -"


def test_every_place_in_a_run_of_tags_follows_from_what_is_written() -> None:
    """Blanks inside and between tag pairs, an escape, an empty value, section data after."""
    rec = one('[ Event\t"a"\t]\t[Site  "b \\" c"]\n[A "" ] \v[B "x"]\n1 2\n')
    assert [(t.name, t.value, t.location.line, t.location.column, t.value_location.line,
             t.value_location.column) for t in rec.tags] == [
        ("Event", "a", 1, 1, 1, 10), ("Site", 'b " c', 1, 15, 1, 23),
        ("A", "", 2, 1, 2, 5), ("B", "x", 2, 10, 2, 14)]
    assert rec.tag("B").section == RawSection((("1", "2"),))


def test_a_chunk_reader_may_skip_a_chunk_it_recognises() -> None:
    """The archive's raw-text identity skips stored records unparsed (in a file that
    inherits nothing): the others read as in the whole file, errors and places included."""
    text = ('[Event "a"]\n[Board "1"]\n\n[Event "b"]\n[Site "s"]\n\n'
            '[Event "b"]\n[Dealer "Q"]\n')
    whole = list(loads(text, errors="collect"))
    chunks = list(split_text(text))
    reader = ChunkReader("<string>")
    first = reader.read(chunks[0])
    reader.skip(chunks[1])
    third = reader.read(chunks[2])
    assert [first, third] == whole[::2]
    assert [e.location for e in third.errors] == [e.location for e in whole[2].errors] != []
    assert [partie_head(r) for r in whole] == [("a", None, None), ("b", "s", None),
                                               ("b", None, None)]


def test_the_reader_and_the_header_index_resolve_inheritance_alike() -> None:
    """One rule (record.resolve_inheritance): '#' the last value, '##x' a default for the
    records that do not name the tag, a named value replacing that default, and '#' on
    a tag that may not inherit kept as written (the reader's error says so)."""
    text = ('[Event "a"]\n[Site "##s"]\n[Dealer "N"]\n\n[Event "#"]\n[Dealer "#"]\n\n'
            '[Event "b"]\n[Site "t"]\n\n[Event "#"]\n')
    headers = list(read_headers(io.StringIO(text)))
    records = list(loads(text, errors="collect"))
    assert headers == [{"Event": "a", "Site": "s", "Dealer": "N"},
                       {"Event": "a", "Dealer": "#", "Site": "s"},
                       {"Event": "b", "Site": "t"}, {"Event": "b", "Site": "t"}]
    assert all(isinstance(r, Record) for r in records)
    assert [{t.name: t.value for t in r.tags} | dict(r.defaults) for r in records] == headers
    assert [[(e.location.line, e.message) for e in r.errors] for r in records] == [
        [], [(6, "tag Dealer may not inherit its value with '#' (PBN §4.8)")], [], []]
