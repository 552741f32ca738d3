"""A file's bytes → text lines → records' chunks of lines, before any parsing.

The file is decoded in blocks and cut into records at semi-empty lines (PBN §3)
outside brace comments, so memory stays bounded by the largest record and one bad
record never costs the rest of the file.

Every input goes through one cutter (:class:`_Cutter`), in blocks of whole lines: a
file's bytes (UTF-8 or Latin-1) as they are read, anything else (UTF-16, a text stream,
a string) joined into blocks first. The cutter takes a run of non-blank lines at a time,
a record as it stands, and looks with ``str`` methods on the whole run for the few lines
its rules are about (header lines, braces, a second Event); tests/test_splitter.py
checks the chunks are the same whatever the block size, and the frozen reader digests
what they are.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Generator, Iterable, Iterator
from typing import IO

from priffe_records.format.errors import Severity
from priffe_records.game.language import Message, msg, msg_n

# Lines that describe the file, not a record; the writer puts its own.
# At most one of each (a version line, then % EXPORT) at the top: one file's header.
# Another one, even at the top (concatenated files), is a comment kept like any other.
_HEADER = re.compile(r"^%\s*(?:(?:PPN|PBN)\s+\d+(?:\.\d+)*|(EXPORT))\s*$")
_BLANKS = " \t\f\v"
# A tag pair opening a line as the grammar takes it: blanks after '[' and before the value
# may be missing or added ('[Event"x"]', '[ Event "x"]').
_TAG_START = re.compile(r'^\s*\[[ \t]*[A-Z][A-Za-z0-9_]*[ \t]*"')
# A new record's first tags: a second one in the same record means the blank
# line between two records is missing (PBN §3), not a repeated tag.
RECORD_OPENERS = ("Event", "Board", "Deal")  # _may_repeat counts these three
_OPENER = r'^[ \t]*\[[ \t]*(' + "|".join(RECORD_OPENERS) + r')[ \t]+"'
_NEW_RECORDS = re.compile(_OPENER, re.M)
# A value that may start with '#' (PBN §4.8): loose on purpose (blanks after the quote),
# a false alarm costs speed only.
_INHERITS_TEXT = re.compile(r'"\s*#')
_INHERITS_BYTES = re.compile(rb'"\s*#')
BLOCK = 1 << 16  # bytes read at a time (the tests make it small to cut records across)
_GAP = re.compile(r"(?:[ \t\f\v]*\n)*")  # semi-empty lines
_SEMI = re.compile(r"\n[ \t\f\v]+\n")  # a semi-empty line with blanks, after a line end


def starts_record(line: str) -> bool:
    """Whether a line opens with a tag pair (``[Name "``, ``[Name"``, ``[ Name "``): after a
    semi-empty line the splitter starts a record there whatever came before (PBN §3), so an
    unclosed '{' before it costs its own record only, however the tag pair is spaced."""
    return _TAG_START.match(line) is not None


def may_inherit(data: str | bytes) -> bool:
    """Whether a text (or its bytes) may hold a value that inherits with ``#`` or ``##``
    (PBN §4.8): then its records need the ones before them. False is certain."""
    if isinstance(data, str):
        return "#" in data and _INHERITS_TEXT.search(data) is not None
    return b"#" in data and _INHERITS_BYTES.search(data) is not None


# ---------------------------------------------------------------- decoding


Mark = tuple[int, Message, Severity]  # a decoded line's (column, message, severity)


class TextFacts:
    """What the decoder met in a file: its encoding and line ends (``validate -v`` says
    them: a Latin-1 or CRLF file otherwise reads without a word) and ``marks``, the located
    notes of lines that held something that is no text, by line number from 1: a UTF-16
    code unit that is no text (an error: shown as U+FFFD), a byte order mark after the
    file's start (a warning: files joined with ``cat``; dropped, so it splits nothing)."""

    __slots__ = ("bom", "codec", "ends", "latin1", "lines", "marks", "utf8")

    def __init__(self) -> None:
        self.codec = "utf-8"  # or "utf-16-le", "utf-16-be"
        self.bom = False  # the file opens with a byte order mark
        self.utf8 = False  # a line held UTF-8 beyond ASCII
        self.latin1 = 0  # lines that are no UTF-8, read as Latin-1
        self.ends: set[str] = set()  # "LF", "CRLF", "CR"
        self.marks: dict[int, list[Mark]] = {}
        self.lines = 0  # lines decoded so far

    def count_ends(self, data: bytes) -> None:
        """Note the kinds of line end in ``data`` (bytes of an 8-bit file)."""
        if b"\r" in data:
            crlf = data.count(b"\r\n")
            if crlf:
                self.ends.add("CRLF")
            if data.count(b"\r") > crlf:
                self.ends.add("CR")
            if data.count(b"\n") > crlf:
                self.ends.add("LF")
        elif b"\n" in data:
            self.ends.add("LF")

    def without_boms(self, text: str) -> str:
        """``text`` (whole lines after the ``lines`` read so far) without its byte order
        marks, each noted where it stood."""
        at = text.find(BOM)
        while at >= 0:
            line_start = text.rfind("\n", 0, at) + 1
            number = self.lines + text.count("\n", 0, line_start) + 1
            self.marks.setdefault(number, []).append((at - line_start + 1, msg(
                "a byte order mark (U+FEFF) in the middle of the file, as two files joined "
                "with 'cat' leave it: it is no text and is left out"), "warning"))
            at = text.find(BOM, at + 1)
        return text.replace(BOM, "")

    def take(self, text: str) -> str:
        """A block of whole decoded lines, its byte order marks noted and left out."""
        if BOM in text:
            text = self.without_boms(text)
        self.lines += text.count("\n")
        return text

    def described(self) -> Message:
        """The encoding and line ends read, as ``validate -v`` says them."""
        codec: Message | str
        if self.codec != "utf-8":
            codec = "UTF-16 LE" if self.codec == "utf-16-le" else "UTF-16 BE"
        elif self.latin1 and self.utf8:
            codec = msg_n("UTF-8, {n} line in Latin-1 (ISO 8859-1)",
                          "UTF-8, {n} lines in Latin-1 (ISO 8859-1)", self.latin1)
        else:
            codec = "Latin-1 (ISO 8859-1)" if self.latin1 else "UTF-8"
        if self.bom:
            codec = msg("{codec} with a byte order mark", codec=codec)
        ends = [e for e in ("LF", "CRLF", "CR") if e in self.ends]
        if not ends:
            return msg("read as {codec}, no line ends", codec=codec)
        if len(ends) == 1:
            return msg("read as {codec}, line ends {ends}", codec=codec, ends=ends[0])
        return msg("read as {codec}, mixed line ends: {ends}", codec=codec,
                   ends=", ".join(ends))


class Decoded:
    """A byte stream to split (:func:`split`), and what its decoder met (:class:`TextFacts`).

    UTF-8 (BOM or not), UTF-16, else Latin-1, decided per line: a file that is UTF-8 but
    for one Latin-1 name still reads. A UTF-16 code unit that is no text (a lone
    surrogate) becomes U+FFFD and its line goes to ``facts.marks``: a located error,
    never an exception.
    """

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.facts = TextFacts()


def wide_codec(head: bytes) -> str | None:
    """The UTF-16 codec of a file opening with ``head`` (its first 4 bytes), or None.

    With a BOM, "utf-16" reads it. Without one (Windows tools save "Unicode" so), the text
    still shows: PBN allows no NUL (§2.2) and a file opens with ASCII (a tag pair, a
    comment), so a NUL beside it and beside the second character is UTF-16 in that byte
    order, never a PPN file of another encoding. The second character may also be a
    surrogate (a '{' before a character beyond U+FFFF, or a lone one: damage to read).
    """
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if len(head) == 4 and head[1] == 0 and head[0] and (
            (head[3] == 0 and head[2]) or 0xD8 <= head[3] <= 0xDF):
        return "utf-16-le"
    if len(head) == 4 and head[0] == 0 and head[1] and (
            (head[2] == 0 and head[3]) or 0xD8 <= head[2] <= 0xDF):
        return "utf-16-be"
    return None


_NEWLINES = {"\n": "LF", "\r\n": "CRLF", "\r": "CR"}


def _wide_lines(head: bytes, raw: IO[bytes], facts: TextFacts) -> Iterator[str]:
    codec = wide_codec(head)
    facts.bom = codec == "utf-16"
    facts.codec = ("utf-16-be" if head.startswith(codecs.BOM_UTF16_BE) else "utf-16-le"
                   ) if codec == "utf-16" else str(codec)
    wide = io.TextIOWrapper(io.BufferedReader(_Prefixed(head, raw)), encoding=codec,
                            errors="replace", newline=None)
    for line in wide:
        if "\ufffd" in line:
            facts.marks.setdefault(facts.lines + 1, []).append((line.index("\ufffd") + 1, msg(
                "this line holds a UTF-16 code unit that is not text (shown as '\ufffd'): is "
                "the file damaged?"), "error"))
        yield facts.take(line if line.endswith("\n") else line + "\n")[:-1]
    seen = wide.newlines
    for newline in (seen,) if isinstance(seen, str) else seen or ():
        facts.ends.add(_NEWLINES[newline])


class Oddity:
    """Whether the text read so far may hold a control character or U+FFFD.

    Sticky: once a block had one, every later chunk is looked at; a clean file costs one
    look at its bytes instead of a look at every record's text.
    """

    __slots__ = ("seen",)

    def __init__(self, seen: bool = False) -> None:
        self.seen = seen


# Control bytes (as CONTROL below), C1 controls and U+FFFD in UTF-8 (a block that is not
# UTF-8 is looked at line by line anyway).
_CONTROL_BYTES = bytes([*range(0x00, 0x09), *range(0x0E, 0x20), 0x7F])
_C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")
_REPLACEMENT = "\ufffd".encode()


def _odd_bytes(data: bytes) -> bool:
    # A lead byte first: one byte is found at memchr speed, a sequence of them is not.
    return (len(data.translate(None, _CONTROL_BYTES)) != len(data)
            or (b"\xef" in data and _REPLACEMENT in data)
            or (b"\xc2" in data and _C1_UTF8.search(data) is not None))


def _blocks(head: bytes, raw: IO[bytes], odd: Oddity | None = None,
            facts: TextFacts | None = None) -> Iterator[str]:
    """The text of a UTF-8/Latin-1 stream (after its first bytes ``head``) in blocks of
    whole lines, each line ended by one "\\n" whatever its end was in the file. ``odd``
    is told when a block may hold a control character or U+FFFD; ``facts`` what was read."""
    facts = facts if facts is not None else TextFacts()
    if head.startswith(codecs.BOM_UTF8):
        head = head[3:]
        facts.bom = True
    pending = head
    while True:
        chunk = raw.read(BLOCK)
        data = pending + chunk
        # The text up to the last line end (a CR at the very end may be half a CRLF),
        # and at the end of the file up to its last line end; the rest waits.
        cut = data.rfind(b"\n") + 1 or data.rfind(b"\r", 0, len(data) - bool(chunk)) + 1
        block, pending = data[:cut], data[cut:]
        if block:
            facts.count_ends(block)
            if odd is not None and not odd.seen and _odd_bytes(block):
                odd.seen = True
            try:  # fast path: the whole block is UTF-8
                text = block.decode("utf-8")
            except UnicodeDecodeError:
                if odd is not None:
                    odd.seen = True  # a line may decode with U+FFFD
                parts = re.split(rb"\r\n|\r|\n", block)
                parts.pop()
                yield facts.take("".join(_decode(part, facts) + "\n" for part in parts))
            else:
                facts.utf8 = facts.utf8 or not block.isascii()
                if "\r" in text:
                    text = text.replace("\r\n", "\n").replace("\r", "\n")
                yield facts.take(text)
        if not chunk:
            break
    if pending:
        facts.count_ends(pending)
        if odd is not None:
            odd.seen = True  # the last line, without its line end: not worth a look
        yield facts.take("".join(line + "\n" for line in _decode_cr(pending, facts)))


# A byte order mark: at the file's start it says the encoding; anywhere else (files
# concatenated with ``cat`` each bring theirs) it is no text and goes, with a warning.
BOM = "\ufeff"


def _decode_cr(part: bytes, facts: TextFacts) -> Iterator[str]:
    """One LF-ended line; CRLF ends lose the CR, and lone CRs (old Macs) split lines."""
    if part.endswith(b"\r"):
        part = part[:-1]
    if b"\r" in part:
        for piece in part.split(b"\r"):
            yield _decode(piece, facts)
    else:
        yield _decode(part, facts)


# One valid multi-byte UTF-8 sequence (RFC 3629): a line holding one is UTF-8 text.
_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                        rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
                        rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                        rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}")


def _decode(data: bytes, facts: TextFacts) -> str:
    """One line: UTF-8; a line that is not is Latin-1, unless it holds UTF-8 characters.

    A line with a valid multi-byte sequence and a stray byte is UTF-8 with one
    damaged byte: that byte becomes U+FFFD (the reader warns where) and the rest
    of the line keeps its UTF-8 (``Västerås`` must not read as ``VÃ¤sterÃ¥s``).
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        if _MULTIBYTE.search(data) is not None:
            facts.utf8 = True
            return data.decode("utf-8", "replace")
        facts.latin1 += 1
        return data.decode("latin-1")
    facts.utf8 = facts.utf8 or not data.isascii()
    return text


class _Prefixed(io.RawIOBase):
    """A byte stream with some already-read bytes put back in front."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._head:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(b))
        b[: len(data)] = data
        return len(data)


# ---------------------------------------------------------------- splitting


Note = tuple[int, int, Message, Severity]  # (line, column, message, severity)


class Chunk:
    """One record's text as the splitter cut it, and its notes found while cutting.

    The reader parses the text as it is; the list of lines is made only when asked (an
    error's line, a span, the archive's key). Compared and printed like the dataclass
    it was.
    """

    __slots__ = ("_lines", "first_line", "notes", "odd", "tail", "text")
    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __init__(self, first_line: int, text: str, notes: list[Note] | None = None) -> None:
        self.first_line = first_line
        self.text = text  # the record's lines, each ended by "\n"
        self._lines: list[str] | None = None
        self.notes: list[Note] = notes if notes is not None else []
        self.tail = 0  # its last lines that are the comments ending the file (after a blank)
        self.odd = True  # may hold a control character or U+FFFD (False: surely not)

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text[:-1].split("\n")
        return self._lines

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Chunk:
            return NotImplemented
        assert isinstance(other, Chunk)
        return (self.first_line, self.text, self.notes) == (other.first_line, other.text,
                                                           other.notes)

    def __repr__(self) -> str:
        return f"Chunk(first_line={self.first_line!r}, lines={self.lines!r}, notes={self.notes!r})"


# Characters PBN text may not hold (§2.2: no control characters but tab, vertical tab
# and the line ends, form feed counting as a blank as the grammar reads it; nor DEL and
# the C1 controls 128-159, "not used for PBN data"), and U+FFFD, which stands for a byte
# the decoder could not read.
_ODD = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]")
CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def has_odd_characters(text: str) -> bool:
    """Whether a record's text holds a control character or U+FFFD (most records: no)."""
    return _ODD.search(text) is not None


def _escaped(match: re.Match[str]) -> str:
    return "\\" + format(ord(match.group()), "o")


def escape_controls(text: str) -> str:
    """Each control character as a backslash and its octal code: visible, and never a
    control byte in what we write. A program that wrote ``"\\2R"`` through C's escapes
    put byte 0x02 in a table header; it reads back as the ``\\2R`` PBN meant."""
    return CONTROL.sub(_escaped, text)


def lost_characters(chunk: Chunk) -> Iterator[tuple[int, int]]:
    """(line, column) of each U+FFFD, a character the decoder could not read, except on
    lines the splitter already marked as damaged (a UTF-16 code unit that is no text)."""
    damaged = {line for line, _, _, severity in chunk.notes if severity == "error"}
    for i, line in enumerate(chunk.lines):
        number = chunk.first_line + i
        if "\ufffd" in line and number not in damaged:
            for m in re.finditer("\ufffd", line):
                yield number, m.start() + 1


# A line opening with a tag pair, however broken after its name (format/mend.py reads some).
_ANY_TAG_LINE = re.compile(r"^[ \t\f\v]*\[[ \t]*[A-Za-z]", re.M)
HEAD = 8192  # bytes of a file looked at by :func:`plainly_not_ppn`


def plainly_not_ppn(head: bytes, whole: bool) -> bool:
    """Whether a file whose first bytes are ``head`` (all of it when ``whole``) is plainly
    no PPN text: no line opens with a tag pair, yet one holds something other than blanks
    and comments. Random bytes or a CSV file read as records give a page of errors and
    warnings for nothing; one error says it (a file of comments only, or an empty one,
    is not refused here: it holds no records, which the reader's callers say)."""
    rest = io.BytesIO(head[4:])
    if wide_codec(head[:4]):
        text = "\n".join(_wide_lines(head[:4], rest, TextFacts())) + "\n"
    else:
        text = "".join(_blocks(head[:4], rest))
    if not whole:
        text = text[:text.rfind("\n", 0, len(text) - 1) + 1]  # the last line may be cut
    if _ANY_TAG_LINE.search(text) is not None:
        return False
    depth = 0
    for line in text.split("\n"):
        bare = line.strip(_BLANKS)
        if bare and not depth and bare[0] not in "%;{":
            return True
        depth = brace_state(line, depth)
    return False


def split(lines: Decoded | Iterable[str], first_line: int = 1) -> Iterator[Chunk]:
    """Cut the file into records at semi-empty lines outside brace comments.

    ``first_line`` numbers the first of ``lines`` (a slice of a file read on
    its own); the file's ``% PBN`` header lines are only looked for at line 1.

    Two repairs keep records from merging silently: a ``{`` that
    runs over a semi-empty line into a line starting with a tag pair is taken
    as a stray brace (the record ends at the blank line, the parser then
    reports the brace), and a second Event/Board/Deal tag in one record
    starts a new record with a warning about the missing blank line.
    """
    odd = Oddity()
    return attach_comments(_runs(lines, first_line, odd), odd)


def _runs(lines: Decoded | Iterable[str], first_line: int, odd: Oddity) -> Iterator[Chunk]:
    odd.seen = True  # until the bytes are watched below: each chunk is looked at
    if isinstance(lines, Decoded):
        raw, facts = lines.raw, lines.facts
        head = raw.read(4)
        if wide_codec(head):
            yield from split_blocks(_as_blocks(_wide_lines(head, raw, facts)), first_line,
                                    marks=facts.marks)
        else:
            odd.seen = False
            yield from split_blocks(_blocks(head, raw, odd, facts), first_line,
                                    marks=facts.marks)
        return
    facts = TextFacts()
    yield from split_blocks(map(facts.take, _as_blocks(lines, facts)), first_line,
                            marks=facts.marks)


def split_text(text: str, first_line: int = 1, *, header: bool = True) -> Iterator[Chunk]:
    """:func:`split` of a string: any line ends (LF, CRLF, CR). ``header=False``: the text
    is not a file, so version lines at its top are comments (a record's own text)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    facts = TextFacts()
    if text and not text.endswith("\n"):
        text += "\n"
    text = facts.take(text.removeprefix(BOM))
    return attach_comments(split_blocks([text] if text else [], first_line, header=header,
                                        marks=facts.marks),
                           Oddity(has_odd_characters(text)))


# A run of comments only: escape lines, ';' comments and brace comments as the grammar
# reads them (one balanced inner pair), blanks between; nothing else.
_BRACE = r"(?:\{(?:[^{}]|\{[^{}]*\})*\}|\{[^}]*\})"
_COMMENTS_ONLY = re.compile(
    rf"(?:%[^\n]*\n|[ \t\f\v]*(?:{_BRACE}[ \t\f\v]*)*(?:;[^\n]*)?\n)+")


def _comments_only(chunk: Chunk) -> bool:
    """Whether the chunk holds comments and nothing else (and nothing the splitter
    found broken): no record, whatever a reader would make of it alone."""
    text = chunk.text
    first = text[:1]
    if first in _BLANKS and first:
        first = text.lstrip(_BLANKS)[:1]
    if first not in ("%", ";", "{"):
        return False  # nearly every chunk: it opens with a tag pair
    if any(severity == "error" for *_, severity in chunk.notes):
        return False
    return _COMMENTS_ONLY.fullmatch(text) is not None and _TAG_LINE.search(text) is None


# A line that opens with a tag pair: a brace comment holding one most likely swallowed a
# record (a '{' left open), so its block stays a record of its own, never another's comment.
_TAG_LINE = re.compile(r'(?m)^[ \t\f\v]*\[[A-Za-z][A-Za-z0-9_]*[ \t]+"')


def attach_comments(chunks: Iterable[Chunk], odd: Oddity | None = None) -> Iterator[Chunk]:
    """The records' chunks, each run of comments only joined to the record after it.

    A block of ``%`` lines between two blank lines (the ``% PBN 2.1`` / ``% EXPORT``
    of concatenated files) or of comments is no game (PBN §3: a game is its tag
    pairs); its comments lead the next record. After the last record they end that
    record (``tail`` counts their lines); a file of comments only keeps them as one
    chunk, so that nothing is lost. Each record is yielded once the next one starts.
    ``odd`` tells which chunks may hold a control character or U+FFFD (``Chunk.odd``).
    """
    held: Chunk | None = None  # the last record: a comment block may still end the file
    pending: list[Chunk] = []  # comment blocks waiting for the next record
    for chunk in chunks:
        if odd is not None:
            chunk.odd = odd.seen
        if _comments_only(chunk):
            pending.append(chunk)
            continue
        if held is not None:
            yield held
        held = _joined([*pending, chunk]) if pending else chunk
        pending = []
    if held is not None and pending:
        tail = _joined([held, *pending])
        tail.tail = tail.text.count("\n") - (pending[0].first_line - held.first_line)
        held = tail
    elif pending:
        held = _joined(pending)
    if held is not None:
        yield held


def _joined(chunks: list[Chunk]) -> Chunk:
    """One chunk of several, the semi-empty lines between them kept as empty lines."""
    first = chunks[0]
    parts: list[str] = []
    lines = 0
    notes: list[Note] = []
    for chunk in chunks:
        parts.append("\n" * (chunk.first_line - first.first_line - lines))
        parts.append(chunk.text)
        lines = chunk.first_line - first.first_line + chunk.text.count("\n")
        notes.extend(chunk.notes)
    joined = Chunk(first.first_line, "".join(parts), notes)
    joined.odd = any(chunk.odd for chunk in chunks)
    return joined


def _as_blocks(lines: Iterable[str], facts: TextFacts | None = None) -> Iterator[str]:
    """Lines without their ends as blocks of "\\n"-ended lines, about BLOCK characters each;
    a byte order mark opening the first line is the file's (``facts`` is told)."""
    batch: list[str] = []
    size = 0
    first = True
    for line in lines:
        if first:
            first = False
            if facts is not None and line.startswith(BOM):
                line = line[1:]
                facts.bom = True
        batch.append(line)
        size += len(line) + 1
        if size >= BLOCK:
            batch.append("")
            yield "\n".join(batch)
            batch, size = [], 0
    if batch:
        batch.append("")
        yield "\n".join(batch)


def split_blocks(blocks: Iterable[str], first_line: int = 1, *, header: bool = True,
                 marks: dict[int, list[Mark]] | None = None) -> Iterator[Chunk]:
    """:func:`split` of text in blocks of whole "\\n"-ended lines; ``marks`` holds the notes
    of lines (numbered from 1) the decoder found something on that is no text, filled as
    the blocks are read (:class:`TextFacts`)."""
    cutter = _Cutter(first_line, {} if marks is None else marks, header)
    rest: list[str] = []  # a run that may go on: it is cut once a semi-empty line ends it
    for block in blocks:
        if rest and block.find("\n\n") < 0 and _SEMI.search(block) is None \
                and not block.startswith(("\n", *_BLANKS)):
            rest.append(block)  # a run over many blocks is looked at once, not again a block
            continue
        tail = yield from cutter.cut("".join([*rest, block]))
        rest = [tail] if tail else []
    yield from cutter.cut("".join(rest), final=True)
    yield from cutter.close()


class _Record:
    """A record being cut: its first line, its text in parts and its notes; while a brace
    comment carries it over semi-empty lines, the comment's depth, those lines (``blank``,
    its own unless a tag pair follows) and the openers (Event, Board, Deal) it holds."""

    __slots__ = ("blank", "depth", "first", "notes", "parts", "starts")

    def __init__(self, first: int, notes: list[Note]) -> None:
        self.first = first
        self.parts: list[str] = []
        self.notes = notes
        self.depth = 0
        self.blank = ""
        self.starts: tuple[str, ...] = ()


class _Cutter:
    """The splitter: text cut a run of non-blank lines at a time into records' chunks.

    A run between semi-empty lines is a record as it stands, but for four rules, each
    about a few of its lines, found with ``str`` methods on the whole run:

    - the file's header lines at its top (``% PBN 2.1``, ``% EXPORT``) are no record's;
    - a brace comment open at the end of a run carries its record on over the semi-empty
      lines into the next run (PBN §3 cuts records outside comments only) ...
    - ... unless that run opens with a tag pair (after ``%`` and ``;`` lines): then the
      '{' was a stray one, which costs its own record, not the rest of the file;
    - a second Event, Board or Deal tag pair opening a line outside comments starts a new
      record, with a warning: the blank line before it is missing.

    The decoder's marks of a line go with the chunk that holds it, or with the next one
    when no chunk does (a header line, a blank line between records).
    """

    def __init__(self, first_line: int, marks: dict[int, list[Mark]], header: bool = True
                 ) -> None:
        self.number = first_line  # the line number of the next line to cut
        self.at_top = first_line == 1 and header
        self.header: set[bool] = set()  # header lines met at the top: version line, EXPORT
        self.open: _Record | None = None  # a record a brace comment carries on
        self.marks = marks
        self.shift = first_line - 1  # the marks number lines from 1
        self.given = first_line - 1  # the marks of lines up to here went to a chunk

    def cut(self, text: str, final: bool = False) -> Generator[Chunk, None, str]:
        """The chunks of ``text`` (whole lines). Returns its last run, unless ``final`` or a
        semi-empty line ends it: the text after it may go on with it."""
        pos, stop = 0, len(text)
        empty = -1  # where the next empty line starts (stop: none), found again once passed
        while pos < stop:
            gap = _GAP.match(text, pos)  # semi-empty lines (it always matches)
            blank = gap.end() if gap is not None else pos
            if blank > pos:
                self.blank(text, pos, blank)
                pos = blank
                continue
            if empty < pos:
                empty = text.find("\n\n", pos) + 1 or stop
            semi = _SEMI.search(text, pos, empty)  # a line of blanks before that
            if semi is not None:
                end = semi.start() + 1
            elif empty < stop:
                end = empty
            elif not final:
                return text[pos:]
            else:
                end = stop
            yield from self.run(text, pos, end)
            pos = end
        return ""

    def blank(self, text: str, start: int, end: int) -> None:
        """Semi-empty lines: between records they are no record's; inside a comment they
        are its record's, unless a tag pair follows them."""
        if self.open is not None:
            self.open.blank += text[start:end]
        self.number += text.count("\n", start, end)

    def run(self, text: str, start: int, end: int) -> Iterator[Chunk]:
        """The chunks of a run of non-blank lines, ``text[start:end]``."""
        number = self.number
        self.number += text.count("\n", start, end)
        while self.at_top and start < end:
            stop = text.find("\n", start)
            header = _HEADER.match(text[start:stop]) if text.startswith("%", start) else None
            version = header is not None and header.group(1) is None  # else % EXPORT
            if header is None or version in self.header:
                self.at_top = False
            else:  # the writer puts its own
                self.header.add(version)
                start, number = stop + 1, number + 1
        if start == end:
            return
        record = self.open
        if record is not None and _stray(text, start, end, record.depth):
            yield self.chunk(record, number - 1)  # its semi-empty lines stay with it
            record = None
        if record is None:
            record = _Record(number, [])
        else:
            record.parts.append(record.blank)
            record.blank = ""
        inside, depth = _comments(text, start, end, record.depth)
        piece = start  # where the record's text in this run starts, on line ``number``
        if record.parts or depth or _may_repeat(text, start, end):
            spans = iter(inside)
            span = next(spans, None)
            for opener in _NEW_RECORDS.finditer(text, start, end):
                at, tag = opener.start(), opener.group(1)
                while span is not None and span[1] < at:
                    span = next(spans, None)
                if span is not None and span[0] <= at:
                    continue  # in a comment
                if tag in record.starts:
                    line = number + text.count("\n", piece, at)
                    record.parts.append(text[piece:at])
                    yield self.chunk(record, line - 1)
                    record, piece, number = _Record(line, [(line, 1, msg(
                        "missing blank line between records: a second [{tag}] starts a new "
                        "record here (the record before ends at line {line}, PBN §3)",
                        tag=tag, line=line - 1), "warning")]), at, line
                record.starts += (tag,)
        record.parts.append(text[piece:end])
        record.depth = depth
        self.open = record if depth else None
        if not depth:
            yield self.chunk(record, self.number - 1)

    def chunk(self, record: _Record, last: int) -> Chunk:
        """``record`` cut, ``last`` its last line (semi-empty lines after its text too):
        with it go the marks of its lines and of those before it no chunk holds."""
        notes = record.notes
        if self.marks:
            for number in range(self.given + 1, last + 1):
                for column, message, severity in self.marks.get(number - self.shift, ()):
                    notes.append((number, column, message, severity))
        self.given = last
        return Chunk(record.first, "".join(record.parts), notes)

    def close(self) -> Iterator[Chunk]:
        """The record a comment left open at the end of the text, without the semi-empty
        lines after it."""
        if self.open is not None:
            yield self.chunk(self.open, self.number - 1)
            self.open = None


def _stray(text: str, start: int, end: int, depth: int) -> bool:
    """Whether a run after semi-empty lines inside a comment opens with a tag pair (after
    ``%`` and ``;`` lines, still in the comment): after a semi-empty line a tag pair starts
    a record whatever came before (PBN §3), so the '{' was a stray one."""
    while depth and start < end:
        stop = text.find("\n", start)
        line = text[start:stop]
        if starts_record(line):
            return True
        if not (line.startswith("%") or line.lstrip().startswith(";")):
            return False
        depth = brace_state(line, depth)
        start = stop + 1
    return False


def _comments(text: str, start: int, end: int, depth: int) -> tuple[list[tuple[int, int]], int]:
    """The spans of the lines of ``text[start:end]`` that start inside a brace comment
    (each from its first line's start to its last line's), and the depth at the end,
    entering at ``depth``. Only the lines that may change the depth are looked at: those
    with a '{' outside a comment, with a '{' or '}' inside one."""
    inside: list[tuple[int, int]] = []
    opened = pos = start
    find = text.find
    brace = close = -1  # the next '{' and '}', found again once passed (-1 % (end + 1): none, end)
    while True:
        if brace < pos:
            brace = find("{", pos, end) % (end + 1)
        at = brace
        if depth:
            if close < pos:
                close = find("}", pos, end) % (end + 1)
            at = min(at, close)
        if at == end:
            break
        line_end = find("\n", at, end)
        # One '{' and a '}' after it, outside a comment: in a string or not, depth 0 after.
        if depth or find("{", at + 1, line_end) >= 0 or find("}", at, line_end) < 0:
            line_start = text.rfind("\n", pos, at) + 1 or pos
            was, depth = depth, brace_state(text[line_start:line_end], depth)
            if depth and not was:
                opened = line_end + 1
            elif was and not depth:
                inside.append((opened, line_start))
        pos = line_end + 1
    if depth:
        inside.append((opened, end))
    return inside, depth


def _may_repeat(text: str, start: int, end: int) -> bool:
    """Whether the run may hold a second Event, Board or Deal tag pair: counted loosely,
    a false alarm costs a look at its lines only."""
    count = text.count
    return (count("Event", start, end) > 1 or count("Board", start, end) > 1
            or count("Deal", start, end) - count("Dealer", start, end) > 1)


def brace_state(line: str, depth: int) -> int:
    """Brace-comment depth at the end of ``line`` (0 outside; one inner pair allowed)."""
    if not depth and (line.startswith("%") or "{" not in line):
        return 0
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if depth:
            if c == "{":
                depth = 2
            elif c == "}":
                depth -= 1
        elif c == "{":
            depth = 1
        elif c == ";":
            return 0
        elif c == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
        i += 1
    return depth
