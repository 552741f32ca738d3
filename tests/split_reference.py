"""The reader's decoder and splitter as they were before issue 9 (reference for speed and
equality: benchmarks/bench_lex.py times the reader against it, tests/test_fast_split.py
checks the reader cuts every file into the same chunks)."""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from priffe_records.format.errors import Severity
from priffe_records.format.splitter import Chunk, attach_comments
from priffe_records.game.language import Message, msg

_HEADER = re.compile(r"^%\s*(?:(?:PPN|PBN)\s+\d+(?:\.\d+)*|(EXPORT))\s*$")
_BLANKS = " \t\f\v"
_TAG_START = re.compile(r'^\s*\[[A-Z][A-Za-z0-9_]*\s+"')


class _Decoded:
    """The lines of a byte stream, remembering which ones held bytes that are no text."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.bad_lines: set[int] = set()

    def __iter__(self) -> Iterator[str]:
        # Since the reader conformance work: a byte order mark opening a line goes.
        return (line.removeprefix("\ufeff") for line in _decode_lines(self.raw, self.bad_lines))


def _decode_lines(raw: IO[bytes], bad_lines: set[int] | None = None) -> Iterator[str]:
    """Yield text lines without line ends; UTF-8 (BOM or not), UTF-16 with BOM, else Latin-1.

    Decoding is per line, so a file that is UTF-8 except for one Latin-1
    name still reads, and memory does not depend on the file size. A UTF-16
    code unit that is no text (a lone surrogate) becomes U+FFFD and its line
    number goes to ``bad_lines``: a located error, never an exception.
    """
    head = raw.read(4)
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        wide = io.TextIOWrapper(io.BufferedReader(_Prefixed(head, raw)), encoding="utf-16",
                                errors="replace", newline=None)
        for number, line in enumerate(wide, 1):
            if "\ufffd" in line and bad_lines is not None:
                bad_lines.add(number)
            yield line.rstrip("\n")
        return
    if head.startswith(codecs.BOM_UTF8):
        head = head[3:]
    pending = head
    while True:
        chunk = raw.read(1 << 16)
        if not chunk:
            break
        data = pending + chunk
        cut = data.rfind(b"\n") + 1 or data.rfind(b"\r", 0, len(data) - 1) + 1
        block, pending = data[:cut], data[cut:]
        try:  # fast path: the whole block is UTF-8
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            parts = re.split(rb"\r\n|\r|\n", block)
            parts.pop()
            for part in parts:
                yield _decode(part)
            continue
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        lines.pop()
        yield from lines
    if pending:
        yield from _decode_cr(pending)


def _decode_cr(part: bytes) -> Iterator[str]:
    """One LF-ended line; CRLF ends lose the CR, and lone CRs (old Macs) split lines."""
    if part.endswith(b"\r"):
        part = part[:-1]
    if b"\r" in part:
        for piece in part.split(b"\r"):
            yield _decode(piece)
    else:
        yield _decode(part)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Since the reader conformance work: a line holding UTF-8 characters stays UTF-8,
        # its stray bytes U+FFFD; a line without any is Latin-1 as before.
        if _MULTIBYTE.search(data):
            return data.decode("utf-8", "replace")
        return data.decode("latin-1")


_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                        rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
                        rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                        rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}")


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


@dataclass
class _Chunk:
    first_line: int
    lines: list[str] = field(default_factory=list)
    # (line, column, message, severity) found while cutting the file.
    notes: list[tuple[int, int, Message, Severity]] = field(default_factory=list)


# A new record's first tags: a second one in the same record means the blank
# line between two records is missing (PBN §3), not a repeated tag.
_NEW_RECORD = re.compile(r'^[ \t]*\[[ \t]*(Event|Board|Deal)[ \t]+"')


def _split(lines: Iterable[str], first_line: int = 1) -> Iterator[_Chunk]:
    """Cut the file into records at semi-empty lines outside brace comments.

    ``first_line`` numbers the first of ``lines`` (a slice of a file read on
    its own); the file's ``% PBN`` header lines are only looked for at line 1.

    Two repairs keep records from merging silently (issue 11): a ``{`` that
    runs over a semi-empty line into a line starting with a tag pair is taken
    as a stray brace (the record ends at the blank line, the parser then
    reports the brace), and a second Event/Board/Deal tag in one record
    starts a new record with a warning about the missing blank line.
    """
    chunk: _Chunk | None = None
    in_brace = 0
    at_top = first_line == 1
    seen_header: set[bool] = set()
    brace_blank = False
    starts: set[str] = set()
    undecodable: set[int] = getattr(lines, "bad_lines", set())
    shift = first_line - 1
    for number, line in enumerate(lines, first_line):
        if undecodable and number - shift in undecodable:
            if chunk is None:
                chunk = _Chunk(number)
                starts = set()
            chunk.notes.append((number, line.index("\ufffd") + 1, msg(
                "this line holds a UTF-16 code unit that is not text (shown as '\ufffd'): is "
                "the file damaged?"), "error"))
        header = _HEADER.match(line) if at_top and line.startswith("%") else None
        if header is not None and (header.group(1) is None) not in seen_header:
            seen_header.add(header.group(1) is None)  # one version line, one % EXPORT
            continue
        if not line.strip(_BLANKS):
            at_top = at_top and chunk is None
            if in_brace:
                brace_blank = True
                if chunk is not None:
                    chunk.lines.append(line)
                continue
            if chunk is not None:
                yield chunk
                chunk = None
            continue
        if in_brace and brace_blank and chunk is not None and _TAG_START.match(line):
            # An unclosed '{', a blank line, then a tag pair: the brace is a
            # stray one; it costs its own record, not the rest of the file.
            # The % and ; lines after the blank line belong to the next record.
            last_blank = max(i for i, t in enumerate(chunk.lines) if not t.strip(_BLANKS))
            carried = chunk.lines[last_blank + 1:]
            del chunk.lines[last_blank + 1:]
            while chunk.lines and not chunk.lines[-1].strip(_BLANKS):
                chunk.lines.pop()
            yield chunk
            chunk = None
            in_brace = 0
            if carried:
                chunk = _Chunk(number - len(carried), carried)
                starts = set()
        at_top = False
        if in_brace and brace_blank and (line.startswith("%") or line.lstrip().startswith(";")):
            pass  # escape and ';' lines between the blank line and the next tag pair
        else:
            brace_blank = False
        new = _NEW_RECORD.match(line) if not in_brace else None
        if new is not None and chunk is not None and new.group(1) in starts:
            previous = chunk.first_line + len(chunk.lines) - 1
            yield chunk
            chunk = _Chunk(number)
            chunk.notes.append((number, 1, msg("missing blank line between records: a second "
                                               "[{tag}] starts a new record here (the record "
                                               "before ends at line {line}, PBN §3)",
                                               tag=new.group(1), line=previous), "warning"))
            starts = set()
        if chunk is None:
            chunk = _Chunk(number)
            starts = set()
        if new is not None:
            starts.add(new.group(1))
        chunk.lines.append(line)
        in_brace = _brace_state(line, in_brace)
    if chunk is not None:
        while chunk.lines and not chunk.lines[-1].strip(_BLANKS):
            chunk.lines.pop()
        yield chunk


def _brace_state(line: str, depth: int) -> int:
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


def reference_split(raw: IO[bytes], first_line: int = 1) -> Iterator[Chunk]:
    """The chunks, comment-only ones joined to their record as the reader joins them."""
    return joined(_split(_Decoded(raw), first_line))


def joined(chunks: Iterable[_Chunk]) -> Iterator[Chunk]:
    """The old chunks with comment-only ones joined to their record (splitter.attach_comments)."""
    return attach_comments(Chunk(c.first_line, c.lines, c.notes) for c in chunks)
