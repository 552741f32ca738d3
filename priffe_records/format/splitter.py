"""A file's bytes → text lines → records' chunks of lines, before any parsing.

The file is decoded in blocks and cut into records at semi-empty lines (PBN §3)
outside brace comments, so memory stays bounded by the largest record and one bad
record never costs the rest of the file.

Every input goes through one cutter, in blocks of whole lines: a file's bytes (UTF-8 or
Latin-1) as they are read, anything else (UTF-16, a text stream, a list of lines) joined
into blocks first. Most records need no line-by-line look: a run of non-blank lines
whose brace comments close on their own lines and that holds at most one Event, Board
and Deal tag is a record as it stands, found with ``str`` methods on the whole block.
Anything else (a comment over lines, the file's header lines, a second Event in one run,
a line that is no text) goes line by line through the rules and repairs of
:class:`_Cutter`; tests/test_splitter.py checks the chunks are the same whatever the
block size, and the frozen reader digests what they are.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Generator, Iterable, Iterator
from typing import IO

from priffe_records.format.errors import Severity
from priffe_records.game.language import Message, msg

# Lines that describe the file, not a record; the writer puts its own.
# At most one of each (a version line, then % EXPORT) at the top: one file's header.
# Another one, even at the top (concatenated files), is a comment kept like any other.
_HEADER = re.compile(r"^%\s*(?:(?:PPN|PBN)\s+\d+(?:\.\d+)*|(EXPORT))\s*$")
_BLANKS = " \t\f\v"
_TAG_START = re.compile(r'^\s*\[[A-Z][A-Za-z0-9_]*\s+"')
# A new record's first tags: a second one in the same record means the blank
# line between two records is missing (PBN §3), not a repeated tag.
RECORD_OPENERS = ("Event", "Board", "Deal")  # _one_of_each counts these three
_OPENER = r'^[ \t]*\[[ \t]*(' + "|".join(RECORD_OPENERS) + r')[ \t]+"'
_NEW_RECORD = re.compile(_OPENER)
_NEW_RECORDS = re.compile(_OPENER, re.M)
# A value that may start with '#' (PBN §4.8): loose on purpose (blanks after the quote),
# a false alarm costs speed only.
_INHERITS_TEXT = re.compile(r'"\s*#')
_INHERITS_BYTES = re.compile(rb'"\s*#')
BLOCK = 1 << 16  # bytes read at a time (the tests make it small to cut records across)
_GAP = re.compile(r"(?:[ \t\f\v]*\n)*")  # semi-empty lines
_SEMI = re.compile(r"\n[ \t\f\v]+\n")  # a semi-empty line with blanks, after a line end


def starts_record(line: str) -> bool:
    """Whether a line opens with a tag pair (``[Name "``): after a semi-empty line the
    splitter starts a record there whatever came before (PBN §3)."""
    return _TAG_START.match(line) is not None


def may_inherit(data: str | bytes) -> bool:
    """Whether a text (or its bytes) may hold a value that inherits with ``#`` or ``##``
    (PBN §4.8): then its records need the ones before them. False is certain."""
    if isinstance(data, str):
        return "#" in data and _INHERITS_TEXT.search(data) is not None
    return b"#" in data and _INHERITS_BYTES.search(data) is not None


# ---------------------------------------------------------------- decoding


class Decoded:
    """The lines of a byte stream, remembering which ones held bytes that are no text."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.bad_lines: set[int] = set()

    def __iter__(self) -> Iterator[str]:
        return decode_lines(self.raw, self.bad_lines)


def decode_lines(raw: IO[bytes], bad_lines: set[int] | None = None) -> Iterator[str]:
    """Yield text lines without line ends; UTF-8 (BOM or not), UTF-16, else Latin-1.

    Decoding is per line, so a file that is UTF-8 except for one Latin-1
    name still reads, and memory does not depend on the file size. A UTF-16
    code unit that is no text (a lone surrogate) becomes U+FFFD and its line
    number goes to ``bad_lines``: a located error, never an exception.
    """
    head = raw.read(4)
    if wide_codec(head):
        yield from _wide_lines(head, raw, bad_lines)
        return
    for block in _blocks(head, raw):
        lines = block.split("\n")
        lines.pop()
        yield from lines


def wide_codec(head: bytes) -> str | None:
    """The UTF-16 codec of a file opening with ``head`` (its first 4 bytes), or None.

    With a BOM, "utf-16" reads it. Without one (Windows tools save "Unicode" so), the text
    still shows: PBN allows no NUL (§2.2) and a record opens with ASCII, so a NUL in every
    other byte is UTF-16 in that byte order, never a PPN file of another encoding.
    """
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if len(head) == 4 and head[1] == head[3] == 0 and head[0] and head[2]:
        return "utf-16-le"
    if len(head) == 4 and head[0] == head[2] == 0 and head[1] and head[3]:
        return "utf-16-be"
    return None


def _wide_lines(head: bytes, raw: IO[bytes], bad_lines: set[int] | None) -> Iterator[str]:
    wide = io.TextIOWrapper(io.BufferedReader(_Prefixed(head, raw)), encoding=wide_codec(head),
                            errors="replace", newline=None)
    for number, line in enumerate(wide, 1):
        if "\ufffd" in line and bad_lines is not None:
            bad_lines.add(number)
        yield line.rstrip("\n").removeprefix(BOM)


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


def _blocks(head: bytes, raw: IO[bytes], odd: Oddity | None = None) -> Iterator[str]:
    """The text of a UTF-8/Latin-1 stream (after its first bytes ``head``) in blocks of
    whole lines, each line ended by one "\\n" whatever its end was in the file. ``odd``
    is told when a block may hold a control character or U+FFFD."""
    if head.startswith(codecs.BOM_UTF8):
        head = head[3:]
    pending = head
    while True:
        chunk = raw.read(BLOCK)
        data = pending + chunk
        # The text up to the last line end (a CR at the very end may be half a CRLF),
        # and at the end of the file up to its last line end; the rest waits.
        cut = data.rfind(b"\n") + 1 or data.rfind(b"\r", 0, len(data) - bool(chunk)) + 1
        block, pending = data[:cut], data[cut:]
        if block:
            if odd is not None and not odd.seen and _odd_bytes(block):
                odd.seen = True
            try:  # fast path: the whole block is UTF-8
                text = block.decode("utf-8")
            except UnicodeDecodeError:
                if odd is not None:
                    odd.seen = True  # a line may decode with U+FFFD
                parts = re.split(rb"\r\n|\r|\n", block)
                parts.pop()
                yield "".join(_decode(part).removeprefix(BOM) + "\n" for part in parts)
            else:
                if "\r" in text:
                    text = text.replace("\r\n", "\n").replace("\r", "\n")
                if BOM in text:
                    text = _without_boms(text)
                yield text
        if not chunk:
            break
    if pending:
        if odd is not None:
            odd.seen = True  # the last line, without its line end: not worth a look
        yield "".join(line.removeprefix(BOM) + "\n" for line in _decode_cr(pending))


# A byte order mark at the start of a line inside a file: files concatenated with
# ``cat`` each bring theirs. It is no text; it goes, as the one at the file's start.
BOM = "\ufeff"


def _without_boms(text: str) -> str:
    """``text`` (whole lines) without a byte order mark at the start of any line."""
    return text.removeprefix(BOM).replace("\n" + BOM, "\n")


def _decode_cr(part: bytes) -> Iterator[str]:
    """One LF-ended line; CRLF ends lose the CR, and lone CRs (old Macs) split lines."""
    if part.endswith(b"\r"):
        part = part[:-1]
    if b"\r" in part:
        for piece in part.split(b"\r"):
            yield _decode(piece)
    else:
        yield _decode(part)


# One valid multi-byte UTF-8 sequence (RFC 3629): a line holding one is UTF-8 text.
_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                        rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
                        rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                        rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}")


def _decode(data: bytes) -> str:
    """One line: UTF-8; a line that is not is Latin-1, unless it holds UTF-8 characters.

    A line with a valid multi-byte sequence and a stray byte is UTF-8 with one
    damaged byte: that byte becomes U+FFFD (the reader warns where) and the rest
    of the line keeps its UTF-8 (``Västerås`` must not read as ``VÃ¤sterÃ¥s``).
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if _MULTIBYTE.search(data) is not None:
            return data.decode("utf-8", "replace")
        return data.decode("latin-1")


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
    """One record's lines as the splitter cut them, and its notes found while cutting.

    A record cut whole keeps its text and makes the list of lines only when asked
    (an error's line, a span, the archive's key): the reader parses the text as it is.
    Compared and printed like the dataclass it was.
    """

    __slots__ = ("_lines", "_text", "first_line", "notes", "odd", "tail")
    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __init__(self, first_line: int, lines: list[str] | None = None,
                 notes: list[Note] | None = None, *, text: str | None = None) -> None:
        self.first_line = first_line
        self._lines = lines if lines is not None or text is None else None
        if self._lines is None and text is None:
            self._lines = []
        self._text = text  # the lines, each ended by "\n"
        self.notes: list[Note] = notes if notes is not None else []
        self.tail = 0  # its last lines that are the comments ending the file (after a blank)
        self.odd = True  # may hold a control character or U+FFFD (False: surely not)

    @property
    def lines(self) -> list[str]:
        lines = self._lines
        if lines is None:
            assert self._text is not None
            lines = self._lines = self._text[:-1].split("\n")
        return lines

    @lines.setter
    def lines(self, lines: list[str]) -> None:
        self._lines = lines

    @property
    def text(self) -> str:
        """The record's text: its lines, each ended by "\n"."""
        if self._lines is None and self._text is not None:
            return self._text
        return "\n".join(self.lines) + "\n"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Chunk:
            return NotImplemented
        assert isinstance(other, Chunk)
        return (self.first_line, self.lines, self.notes) == (other.first_line, other.lines,
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


def split(lines: Iterable[str], first_line: int = 1) -> Iterator[Chunk]:
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


def _runs(lines: Iterable[str], first_line: int, odd: Oddity) -> Iterator[Chunk]:
    odd.seen = True  # until the bytes are watched below: each chunk is looked at
    if isinstance(lines, Decoded):
        raw = lines.raw
        head = raw.read(4)
        if wide_codec(head):
            yield from _by_line(_wide_lines(head, raw, lines.bad_lines), first_line,
                                lines.bad_lines)
        else:
            odd.seen = False
            yield from split_blocks(_blocks(head, raw, odd), first_line)
        return
    yield from _by_line(lines, first_line, getattr(lines, "bad_lines", set()))


def split_text(text: str, first_line: int = 1, *, header: bool = True) -> Iterator[Chunk]:
    """:func:`split` of a string: any line ends (LF, CRLF, CR). ``header=False``: the text
    is not a file, so version lines at its top are comments (a record's own text)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if BOM in text:
        text = _without_boms(text)
    if text and not text.endswith("\n"):
        text += "\n"
    return attach_comments(split_blocks([text] if text else [], first_line, header=header),
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
        tail.tail = len(tail.lines) - (pending[0].first_line - held.first_line)
        held = tail
    elif pending:
        held = _joined(pending)
    if held is not None:
        yield held


def _joined(chunks: list[Chunk]) -> Chunk:
    """One chunk of several, the semi-empty lines between them kept as empty lines."""
    first = chunks[0]
    lines: list[str] = []
    notes: list[Note] = []
    for chunk in chunks:
        lines.extend([""] * (chunk.first_line - first.first_line - len(lines)))
        lines.extend(chunk.lines)
        notes.extend(chunk.notes)
    joined = Chunk(first.first_line, lines, notes)
    joined.odd = any(chunk.odd for chunk in chunks)
    return joined


def _by_line(lines: Iterable[str], first_line: int, undecodable: set[int]) -> Iterator[Chunk]:
    """Lines from elsewhere (UTF-16, a text stream, a list) cut as a file's blocks are."""
    return split_blocks(_as_blocks(lines), first_line, undecodable=undecodable)


def _as_blocks(lines: Iterable[str]) -> Iterator[str]:
    """Lines without their ends as blocks of "\\n"-ended lines, about BLOCK characters each."""
    batch: list[str] = []
    size = 0
    for line in lines:
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
                 undecodable: set[int] | None = None) -> Iterator[Chunk]:
    """:func:`split` of text in blocks of whole "\\n"-ended lines; ``undecodable`` holds the
    numbers (from 1) of lines that held a code unit that is no text, filled as the blocks
    are read."""
    cutter = _Cutter(first_line, set() if undecodable is None else undecodable, header)
    number = first_line  # the line number of carry's first line
    carry: list[str] = []  # lines after the last semi-empty line: their record may go on
    for block in blocks:
        last = _last_blank_end(block)
        if last < 0:
            carry.append(block)
            continue
        text = "".join([*carry, block[:last]]) if carry else block[:last]
        carry = [block[last:]] if last < len(block) else []
        number = yield from _cut(cutter, text, number)
    if carry:
        yield from _cut(cutter, "".join(carry), number)
    yield from cutter.close()


def _last_blank_end(text: str) -> int:
    """Where the last semi-empty line of ``text`` ends (after its "\\n"), or -1."""
    i = len(text) - 1  # text ends with "\n"
    while True:
        j = text.rfind("\n", 0, i)
        line = text[j + 1:i]
        if not line.strip(_BLANKS):
            return i + 1
        if j < 0:
            return -1
        i = j


def _cut(cutter: _Cutter, text: str, number: int) -> Generator[Chunk, None, int]:
    """The chunks of ``text`` (whole lines) whose first line is ``number``; returns the
    number of the line after it."""
    pos, stop = 0, len(text)
    gap, semi = _GAP.match, _SEMI.search
    while pos < stop:
        blank = gap(text, pos)  # semi-empty lines before the run (it always matches)
        start = blank.end() if blank else pos
        if start > pos:
            if cutter.chunk is not None or cutter.in_brace:
                yield from _slow(cutter, text, pos, start, number)
            # else: a blank line between records changes nothing
            number += text.count("\n", pos, start)
            if start >= stop:
                break
        end = text.find("\n\n", start, stop) + 1 or stop
        inner = semi(text, start, end)  # a line of blanks only
        if inner is not None:
            end = inner.start() + 1
        piece = text[start:end]
        whole = (cutter.clean() and _one_of_each(text, start, end) and _closed(text, start, end)
                 and (not cutter.undecodable or cutter.readable(number, piece.count("\n"))))
        if whole and piece[-1:] == "\n":
            yield Chunk(number, text=piece)  # its lines are made if anyone asks
            number += piece.count("\n")
        else:
            lines = piece.split("\n")
            lines.pop()
            if whole:
                yield Chunk(number, lines)
            else:
                for offset, line in enumerate(lines):
                    yield from cutter.feed(number + offset, line)
            number += len(lines)
        pos = end
    return number


def _closed(text: str, start: int, end: int) -> bool:
    """Every brace comment of the run ``text[start:end]`` closes on its own line."""
    find = text.find
    at = find("{", start, end)
    while at >= 0:
        line_start = text.rfind("\n", start, at) + 1 or start
        line_end = find("\n", at, end)
        # One '{' and a '}' after it: whatever strings or ';' surround it, depth 0.
        if (find("{", at + 1, line_end) >= 0 or find("}", at, line_end) < 0) \
                and brace_state(text[line_start:line_end], 0):
            return False
        at = find("{", line_end, end)
    return True


def _one_of_each(text: str, start: int, end: int) -> bool:
    """At most one Event, Board and Deal tag pair opens a line of the run."""
    count = text.count
    if (count("Event", start, end) < 2 and count("Board", start, end) < 2
            and count("Deal", start, end) - count("Dealer", start, end) < 2):
        return True
    found = _NEW_RECORDS.findall(text, start, end)
    return len(found) == len(set(found))


def _slow(cutter: _Cutter, text: str, start: int, stop: int, number: int) -> Iterator[Chunk]:
    lines = text[start:stop].split("\n")
    lines.pop()
    for offset, line in enumerate(lines):
        yield from cutter.feed(number + offset, line)


class _Cutter:
    """The splitter line by line: every rule and repair, and the state between lines."""

    def __init__(self, first_line: int, undecodable: set[int], header: bool = True) -> None:
        self.chunk: Chunk | None = None
        self.in_brace = 0
        self.at_top = first_line == 1 and header
        self.header: set[bool] = set()  # header lines met at the top: version line, EXPORT
        self.brace_blank = False
        self.starts: set[str] = set()
        self.undecodable = undecodable
        self.shift = first_line - 1

    def clean(self) -> bool:
        """Between records, past the header: a plain run of lines is a record as it is."""
        if self.chunk is None and not self.in_brace and not self.at_top:
            self.brace_blank = False
            return True
        return False

    def readable(self, number: int, count: int) -> bool:
        """Whether no line of ``count`` from ``number`` held a code unit that is no text."""
        return self.undecodable.isdisjoint(
            range(number - self.shift, number - self.shift + count))

    def feed(self, number: int, line: str) -> Iterator[Chunk]:
        chunk = self.chunk
        if self.undecodable and number - self.shift in self.undecodable:
            if chunk is None:
                chunk = self.chunk = Chunk(number)
                self.starts = set()
            chunk.notes.append((number, line.index("\ufffd") + 1, msg(
                "this line holds a UTF-16 code unit that is not text (shown as '\ufffd'): is "
                "the file damaged?"), "error"))
        if self.at_top and line.startswith("%"):
            header = _HEADER.match(line)
            version = header is not None and header.group(1) is None  # else % EXPORT
            if header is not None and version not in self.header:
                self.header.add(version)
                return
        if not line.strip(_BLANKS):
            self.at_top = self.at_top and chunk is None
            if self.in_brace:
                self.brace_blank = True
                if chunk is not None:
                    chunk.lines.append(line)
                return
            if chunk is not None:
                self.chunk = None
                yield chunk
            return
        if self.in_brace and self.brace_blank and chunk is not None and starts_record(line):
            # An unclosed '{', a blank line, then a tag pair: the brace is a
            # stray one; it costs its own record, not the rest of the file.
            # The % and ; lines after the blank line belong to the next record.
            last_blank = max(i for i, t in enumerate(chunk.lines) if not t.strip(_BLANKS))
            carried = chunk.lines[last_blank + 1:]
            del chunk.lines[last_blank + 1:]
            while chunk.lines and not chunk.lines[-1].strip(_BLANKS):
                chunk.lines.pop()
            self.chunk = None
            yield chunk
            chunk = None
            self.in_brace = 0
            if carried:
                chunk = self.chunk = Chunk(number - len(carried), carried)
                self.starts = set()
        self.at_top = False
        if self.in_brace and self.brace_blank and (line.startswith("%")
                                                   or line.lstrip().startswith(";")):
            pass  # escape and ';' lines between the blank line and the next tag pair
        else:
            self.brace_blank = False
        new = _NEW_RECORD.match(line) if not self.in_brace else None
        if new is not None and chunk is not None and new.group(1) in self.starts:
            previous = chunk.first_line + len(chunk.lines) - 1
            yield chunk
            chunk = self.chunk = Chunk(number)
            chunk.notes.append((number, 1, msg("missing blank line between records: a second "
                                               "[{tag}] starts a new record here (the record "
                                               "before ends at line {line}, PBN §3)",
                                               tag=new.group(1), line=previous), "warning"))
            self.starts = set()
        if chunk is None:
            chunk = self.chunk = Chunk(number)
            self.starts = set()
        if new is not None:
            self.starts.add(new.group(1))
        chunk.lines.append(line)
        self.in_brace = brace_state(line, self.in_brace)

    def close(self) -> Iterator[Chunk]:
        chunk = self.chunk
        if chunk is not None:
            while chunk.lines and not chunk.lines[-1].strip(_BLANKS):
                chunk.lines.pop()
            self.chunk = None
            yield chunk


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
