"""The library's habits (python-chess is the model) and the formats it prints that it also reads."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import EXAMPLE_FILES

import priffe_records as pr
from priffe_records.archive.query import QueryError, pbn_date
from priffe_records.cli import cli
from priffe_records.format.reader import loads, read
from priffe_records.format.record import Location
from priffe_records.game.language import msg
from priffe_records.rules.findings import Finding
from priffe_records.rules.repeats import More, counted

ROOT = Path(__file__).resolve().parent.parent
UPPSALA = ROOT / "examples" / "partie-uppsala.ppn"


# ---------------------------------------------------------------- the record as a table of tags


def test_record_item_and_in() -> None:
    [a, b] = loads('[Event "##Klubb"]\n[Board "1"]\n\n[Board "2"]\n')
    assert a["Event"] == "Klubb" and "Event" in a and "Board" in a
    assert b.tag("Event") is None
    assert b["Event"] == "Klubb" and "Event" in b  # inherited with ##, as get() gives it
    assert "Deal" not in a and 3 not in a
    with pytest.raises(KeyError, match="Deal"):
        a["Deal"]


def test_record_is_not_a_loop_over_tags() -> None:
    [r] = loads('[Event "Klubb"]\n')
    with pytest.raises(TypeError):
        iter(r)  # type: ignore[call-overload]


def test_str_is_the_writers_ppn() -> None:
    r = next(read(UPPSALA))
    assert str(r) == pr.format_record(r)
    assert str(r).splitlines()[1] == '[Event "Upsala Priffeklubb, höstpartiet"]'
    assert list(loads(str(r))) == [r]
    assert repr(r).startswith("Record(")


def test_public_names_at_the_top() -> None:
    for name in ("Finding", "Severity", "read", "read_headers", "validate", "parties",
                 "Record", "build_replays"):
        assert name in pr.__all__ and getattr(pr, name) is not None


def test_a_games_own_names_come_from_its_package() -> None:
    """Priffe's rule variants and score sheet are Priffe's: the top names no game, and
    says where a name it once had lives now."""
    from priffe_records.rules.priffe.options import PRESETS
    from priffe_records.rules.priffe.sheet import score_partie
    assert PRESETS["sv"].preset == "sv" and callable(score_partie)
    for name in ("Options", "PRESETS", "OptionsError", "score_partie", "score_parties"):
        assert name not in pr.__all__
        with pytest.raises(AttributeError, match=f"from priffe_records.rules.priffe.\\w+ "
                                                 f"import {name}"):
            getattr(pr, name)


# ---------------------------------------------------------------- read_headers


def test_read_headers_matches_read_on_the_examples() -> None:
    for path in EXAMPLE_FILES:
        full = [{t.name: t.value for t in r.tags} | dict(r.defaults) for r in read(path)]
        assert list(pr.read_headers(path)) == full, path.name


def test_read_headers_skips_sections_and_comments() -> None:
    text = ('{a comment with [Fake "tag"] in it}\n[Event "Klubb"]\n[Auction "N"]\n'
            'Spela Pass\n{\n[Nope "x"]\n}\n[Note "1:a \\"b\\""]\n\n[Event "#"]\n[Board "2"]\n')
    got = list(pr.read_headers(io.StringIO(text)))
    assert got == [{"Event": "Klubb", "Auction": "N", "Note": '1:a "b"'},
                   {"Event": "Klubb", "Board": "2"}]


def test_read_headers_inherits_as_read_does() -> None:
    text = ('[Event "##Klubb"]\n[Site "Lund"]\n[Board "1"]\n\n[Site "#"]\n[Board "2"]\n\n'
            '[Event "Cup"]\n[Board "3"]\n\n[Board "4"]\n[Dealer "#"]\n')
    got = list(pr.read_headers(io.BytesIO(text.encode())))
    full = [{t.name: t.value for t in r.tags} | dict(r.defaults)
            for r in read(io.BytesIO(text.encode()), errors="collect")
            if isinstance(r, pr.Record)]
    assert got == full
    assert [h.get("Event") for h in got] == ["Klubb", "Klubb", "Cup", "Cup"]
    assert got[1]["Site"] == "Lund" and got[3]["Dealer"] == "#"


# ---------------------------------------------------------------- dates are days of the calendar


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("value", ["2026.02.30", "2026.13.01", "2025.02.29", "????.04.31"])
def test_a_date_that_is_no_day_costs_a_located_warning(value: str) -> None:
    [r] = loads(f'[Event "Klubb"]\n[Date "{value}"]\n')
    assert r["Date"] == value  # kept as written
    [w] = r.errors
    assert w.is_warning and (w.location.line, w.location.column) == (2, 8)
    assert "no day of the calendar" in str(w)


@pytest.mark.parametrize("value", ["2024.02.29", "2026.??.??", "????.02.29", "2026.12.??", "?"])
def test_a_real_or_partly_unknown_date_reads_quietly(value: str) -> None:
    [r] = loads(f'[Date "{value}"]\n')
    assert r.errors == ()


def test_an_iso_date_that_is_no_day_is_not_turned_into_one() -> None:
    [r] = loads('[Date "2026-02-30"]\n')
    assert r["Date"] == "2026-02-30" and len(r.errors) == 1


@pytest.mark.parametrize("value", ["2026-13-01", "igår", "2026.02.30", "26.10.17"])
def test_new_refuses_a_date_that_is_no_day(value: str) -> None:
    result = invoke("new", "--date", value)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"--date {value!r} is not a day of the calendar" in result.stderr


@pytest.mark.parametrize(("value", "written"), [("2026-10-17", "2026.10.17"),
                                                ("2026.??.??", "2026.??.??")])
def test_new_writes_the_date_in_pbn_form(value: str, written: str) -> None:
    result = invoke("new", "--date", value, "--deals", "1")
    assert result.exit_code == 0 and f'[Date "{written}"]' in result.stdout


@pytest.mark.parametrize("option", ["--date-from", "--date-to"])
def test_query_refuses_a_date_that_is_no_day(option: str, tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    assert invoke("import", "--db", db, str(UPPSALA)).exit_code == 0
    bad = invoke("query", "--db", db, option, "2026-02-30")
    assert bad.exit_code == 2 and "date '2026-02-30' is not a day of the calendar" in bad.stderr
    assert invoke("query", "--db", db, option, "2026.02").exit_code == 0
    assert pbn_date("2024-2-29") == "2024.02.29"
    with pytest.raises(QueryError):
        pbn_date("2026.00")


def test_an_inherited_date_is_resolved_not_read_as_a_date() -> None:
    [a, b] = loads('[Date "##2026.02.30"]\n[Board "1"]\n\n[Date "#"]\n[Board "2"]\n')
    assert a["Date"] == b["Date"] == "2026.02.30"


# ---------------------------------------------------- seats as a Swedish sheet writes them

SHEET = ('[North "David Öhrnström"]\n[East "Bo"]\n[South "Cia"]\n[West "Dan"]\n'
         '[Dealer "{dealer}"]\n[Scoring "Priffe"]\n[Declarer "{declarer}"]\n'
         '[Contract "Spela"]\n[Result "NS 5 EW 8"]\n[Honours "NS 0 EW 0"]\n')


@pytest.mark.parametrize(("dealer", "declarer", "seats"), [
    ("Ö", "V", ("E", "W")), ("ö", "v", ("E", "W")), ("Nord", "Väst", ("N", "W")),
    ("SYD", "öst", ("S", "E")), ("north", "West", ("N", "W"))])
def test_swedish_seat_letters_and_names_read_as_seats(dealer: str, declarer: str,
                                                      seats: tuple[str, str]) -> None:
    [r] = loads(SHEET.format(dealer=dealer, declarer=declarer))
    assert (r["Dealer"], r["Declarer"]) == seats and r.errors == ()
    assert f'[Dealer "{seats[0]}"]' in pr.dumps([r])  # export keeps N/E/S/W, as PBN
    assert [f.rule for f in pr.validate([r]) if f.severity is pr.Severity.ERROR] == []


def test_R7_a_players_name_as_declarer_is_one_error_that_says_where_he_sits() -> None:
    [r] = loads(SHEET.format(dealer="N", declarer="Bo"))
    errors = [f for f in pr.validate([r]) if f.severity is pr.Severity.ERROR]
    assert [(f.rule, f.message) for f in errors] == [
        ("R7", "Declarer 'Bo' is not a seat (N, E, S or W); Bo sits East: write E")]
    assert errors[0].location is not None and errors[0].location.line == 7


def test_R7_a_near_seat_word_asks_which_seat() -> None:
    [r] = loads(SHEET.format(dealer="N", declarer="Nort"))
    [f] = [f for f in pr.validate([r]) if f.severity is pr.Severity.ERROR]
    assert f.message == "Declarer 'Nort' is not a seat (N, E, S or W); did you mean N (North)?"


def test_R3_a_dealer_that_is_no_seat_is_one_error_with_the_players_seat() -> None:
    [r] = loads(SHEET.format(dealer="david", declarer="N"), errors="collect")
    assert isinstance(r, pr.Record)
    errors = [f for f in pr.validate([r]) if f.severity is pr.Severity.ERROR]
    assert [(f.rule, f.message) for f in errors] == [
        ("PPN", "Dealer 'david' is not a seat: N, E, S or W; David Öhrnström sits North: "
                "write N")]


def test_R3_a_dealer_a_program_built_is_checked_by_the_rule() -> None:
    [r] = loads(SHEET.format(dealer="N", declarer="N"))
    r = r.replace_tag("Dealer", "X")  # no reader saw it
    assert [f.rule for f in pr.validate([r]) if f.severity is pr.Severity.ERROR] == ["R3"]


# ---------------------------------------------------- formats the program prints, it reads

PLAIN = ('[Dealer "N"]\n[Scoring "Priffe"]\n[Declarer "N"]\n[Contract "Spela"]\n'
         '[Result "{result}"]\n[Score "{score}"]\n[Honours "NS 0 EW 0"]\n')


@pytest.mark.parametrize("result", ["8-5", "8–5", " 8 – 5 ", "NS 8 EW 5", "8", "NS 8"])
def test_R12_tricks_as_the_sheet_prints_them_read_ns_first(result: str) -> None:
    [r] = loads(PLAIN.format(result=result, score="NS 20 EW 0"))
    assert r["Result"] == "NS 8 EW 5"
    assert [f for f in pr.validate([r]) if f.severity is pr.Severity.ERROR] == []


def test_R12_dashed_tricks_that_are_not_13_are_an_error() -> None:
    [r] = loads(PLAIN.format(result="8-6", score="NS 20 EW 0"))
    [f] = [f for f in pr.validate([r]) if f.severity is pr.Severity.ERROR]
    assert f.rule == "R12" and "14 tricks" in f.message


@pytest.mark.parametrize("score", ["20", "+20", "20–0", "20-0", "NS 20 EW 0"])
def test_R15_a_score_as_the_sheet_prints_it_or_bare_reads(score: str) -> None:
    [r] = loads(PLAIN.format(result="NS 8 EW 5", score=score))
    assert [f for f in pr.validate([r]) if f.severity is pr.Severity.ERROR] == [], score


def test_R15_a_bare_score_is_the_declaring_sides_and_is_checked() -> None:
    [r] = loads(PLAIN.format(result="NS 8 EW 5", score="30"))
    [f] = [f for f in pr.validate([r]) if f.severity is pr.Severity.ERROR]
    assert f.rule == "R15" and f.message.startswith("Score says NS 30 EW 0, but the deal scores "
                                                    "NS 20 EW 0")


def test_R15_a_bare_score_without_a_declarer_is_an_error() -> None:
    text = PLAIN.format(result="NS 8 EW 5", score="20").replace("Spela", "Tvångsnoll")
    [r] = loads(text.replace('[Declarer "N"]', '[Declarer ""]'))
    errors = [f for f in pr.validate([r]) if f.severity is pr.Severity.ERROR]
    assert [(f.rule, f.message) for f in errors] == [
        ("R15", "Score '20' does not say which side scored: write 'NS n EW m'")]


# ---------------------------------------------------- noise


def test_R8_a_plain_score_sheet_says_once_that_it_has_no_hands() -> None:
    sheet = str(ROOT / "examples" / "protokoll-1952.ppn")
    shown = invoke("validate", sheet)
    lines = [ln for ln in shown.stdout.splitlines() if "R8" in ln]
    assert len(lines) == 2 and "not checked (no Auction, Play or Deal)" in lines[0]
    assert "… and 13 more like this" in lines[1]
    assert "14 unverifiable" in shown.stdout
    every = json.loads(invoke("validate", "--json", sheet).stdout)  # machines get them all
    assert [f["rule"] for f in every] == ["R8"] * 14


def test_R8_not_checked_notes_that_differ_in_their_parts_are_one_kind() -> None:
    where = Location("a.ppn", 1, 1)
    notes = [Finding("R8", pr.Severity.UNVERIFIABLE, msg("not checked ({why}): {what} are taken "
                                                          "as written ({rules})", why=why,
                                                          what="x", rules="R8"), where, i)
             for i, why in enumerate(["no Auction or Deal", "no Auction, Play or Deal"] * 3)]
    other = [Finding("R2", pr.Severity.ERROR, msg("bad"), where, 1)] * 3
    out = counted(notes + other)
    assert out[0] is notes[0] and isinstance(out[1], More) and out[1].count == 5
    assert out[2:] == other  # other kinds keep their three


def test_a_missing_file_gives_its_error_and_no_summary() -> None:
    result = invoke("validate", "finns-inte.ppn")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == "priffe: finns-inte.ppn: no such file"


# ---------------------------------------------------- players' names over a partie

DEAL = ('[Event "Klubb"]\n[Date "2026.03.01"]\n[Rubber "1"]\n[Board "{board}"]\n'
        '[North "{north}"]\n[East "Bo"]\n[South "Cia"]\n[West "{west}"]\n[Dealer "{dealer}"]\n'
        '[Declarer "N"]\n[Contract "Spela"]\n[Result "NS 8 EW 5"]\n[Honours "NS 0 EW 0"]\n')


def partie(*names: tuple[str, str]) -> list[pr.Record]:
    text = "\n".join(DEAL.format(board=i + 1, north=north, west=west, dealer="NESW"[i % 4])
                     for i, (north, west) in enumerate(names))
    return list(loads(text))


def r24(records: list[pr.Record]) -> list[tuple[int | None, str]]:
    return [(f.location.line if f.location else None, f.message)
            for f in pr.validate(records) if f.rule == "R24"]


@pytest.mark.parametrize("slip", ["David Ohrnstrom", "david öhrnström", "David", "David Öhrnstöm"])
def test_R24_a_near_miss_name_is_one_warning_at_its_place(slip: str) -> None:
    records = partie(("David Öhrnström", "Dan"), (slip, "Dan"), (slip, "Dan"))
    assert r24(records) == [(19, f"{slip!r} (North) is nearly 'David Öhrnström', who plays in "
                                 "this partie: did you mean 'David Öhrnström'?")]


def test_R24_the_same_names_throughout_say_nothing() -> None:
    assert r24(partie(("David Öhrnström", "Dan"), ("David Öhrnström", "Dan"))) == []


def test_R24_more_players_than_seats_is_one_warning() -> None:
    records = partie(("Anna", "Dan"), ("Anna", "Erik"), ("Anna", "Dan"))
    assert r24(records) == [(22, "'Erik' (West) makes more players than seats in this partie: "
                                 "Anna, Bo, Cia, Dan, Erik")]


def test_R24_a_slip_is_not_a_change_of_seats() -> None:
    # Without the slip read as its player, board 2 would move David to a new seat.
    records = partie(("David Öhrnström", "Dan"), ("David Ohrnstrom", "Dan"))
    assert [m for _, m in r24(records) if "change seats" in m] == []


def test_P1_a_preference_partie_warns_of_a_slip_and_a_fourth_player() -> None:
    text = (ROOT / "examples" / "preference-graz.ppn").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    assert lines[40] == '[North "Anna Kofler"]\n' and lines[73] == '[East "Bertil Strand"]\n'
    lines[40] = '[North "anna kofler"]\n'
    lines[73] = '[East "Dora Wenger"]\n'
    found = [(f.location.line if f.location else None, f.message)
             for f in pr.validate(loads("".join(lines))) if f.rule == "P1"]
    assert found == [
        (41, "'anna kofler' (North) is nearly 'Anna Kofler', who plays in this partie: did you "
             "mean 'Anna Kofler'?"),
        (74, "'Dora Wenger' (East) makes more players than seats in this partie: Anna Kofler, "
             "Bertil Strand, Cecilia Huber, Dora Wenger")]
    assert [f for f in pr.validate(loads(text)) if f.rule == "P1"] == []


def test_read_headers_takes_pairs_from_the_line_start_only() -> None:
    text = ('[Event "A"] [Site "B"] ; [Nope "x"]\n[Board "1"] {[Fake "y"]}\n'
            '[Auction "N"]\nSpela {[Fake "z"]} Pass\n')
    assert list(pr.read_headers(io.StringIO(text))) == [
        {"Event": "A", "Site": "B", "Board": "1", "Auction": "N"}]
    assert list(pr.read_headers(io.BytesIO(text.encode()))) == [
        {"Event": "A", "Site": "B", "Board": "1", "Auction": "N"}]


def test_read_headers_drops_a_tag_pair_the_reader_rejects() -> None:
    """One tag-pair syntax: '[event"Klubb"]' is no tag pair to the reader (a tag name opens
    with a capital, PBN §3.3), so the index has no 'event' either."""
    text = '[event"Klubb"]\n[Board "1"]\n'
    [bad] = loads(text, errors="collect")
    assert isinstance(bad, pr.BadRecord) and bad.partial is not None
    assert list(pr.read_headers(io.StringIO(text))) == [{"Board": "1"}]
    assert [t.name for t in bad.partial.tags] == ["Board"]


def test_read_headers_keeps_a_backslash_as_the_reader_does() -> None:
    """'\\t' and '\\x' are no escapes in a PBN value (only '\\"' and '\\\\'): the value
    keeps its backslashes, in the reader and in the index alike."""
    text = '[Event "C:\\temp\\x"]\n[Board "1"]\n'
    [rec] = loads(text)
    assert rec["Event"] == "C:\\temp\\x"
    assert list(pr.read_headers(io.BytesIO(text.encode()))) == [
        {"Event": "C:\\temp\\x", "Board": "1"}]
