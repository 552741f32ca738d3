"""Writer: records → canonical PPN export format (FORMAT.md, PBN §2.1 export rules).

The writer is the single definition of "canonical": tags in export order,
one per line, calls and cards in canonical spelling, four slots a line,
suffixes as NAGs, every comment after what it followed. Because the reader
normalises values the same way, ``loads(dumps(records))`` gives equal
records and ``dumps`` of those is byte-for-byte the same text.

>>> from priffe_records.format.reader import loads
>>> text = '[Contract "hjarter"] {bud}\\n[Event "Klubbkväll"]\\n'
>>> print(dumps(loads(text)), end="")
% PPN 1.0
% EXPORT
[Event "Klubbkväll"]
[Contract "Hjärter"]
{bud}
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable
from typing import IO

from priffe_records.format.atomic import atomic_text
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import (
    NO_MARKS,
    CommentKind,
    DamagedSection,
    RawSection,
    Record,
    Section,
    Tag,
    Token,
    TokenKind,
    export_order,
)
from priffe_records.format.values import table_columns
from priffe_records.format.vocabulary import lexicon_for

HEADER = "% PPN 1.0\n% EXPORT\n"


_NEEDS_ESCAPE = re.compile(r'\\(?=[\\"]|$)|"')


def escape(value: str) -> str:
    r"""A tag value as a PBN string token (PBN §3.2).

    A backslash is doubled only where the reader would otherwise take it as
    an escape (before a backslash or a quote, or last), so table headers keep
    the form PBN's examples and real files write.

    >>> print(escape('Declarer;Denomination\\2R'))
    "Declarer;Denomination\2R"
    >>> print(escape('a\\"b'), escape('x\\'))
    "a\\\"b" "x\\"
    """
    if "\\" not in value and '"' not in value:
        return '"' + value + '"'
    return '"' + _NEEDS_ESCAPE.sub(lambda m: "\\" + m.group(0), value) + '"'


def format_token(tok: Token) -> str:
    """A call or card with its annotations in export order: note, then NAGs (PBN §3.5.2)."""
    return _format_word(tok.text, tok.irregularity, tok.note, tok.nags)


def _format_word(text: str, irregularity: str | None, note: int | None,
                 nags: tuple[int, ...]) -> str:
    if irregularity is None and note is None and not nags:
        return text
    parts = []
    if irregularity:
        parts.append("^" + irregularity)
    parts.append(text)
    if note is not None:
        parts.append(f"={note}=")
    parts.extend(f"${n}" for n in nags)
    return " ".join(parts)


def _section_lines(section: Section, width: int = 4) -> list[str]:
    """Four slots a line; ``*`` on a line of its own; comments stay after their token."""
    kinds, texts, marked = section.kinds, section.texts, section.marked
    end = TokenKind.END
    if end not in kinds and all(c.kind is CommentKind.BRACE
                                for m in marked.values() for c in m[3]):
        # Nearly every section: words (with their annotations and brace comments) four
        # a line; only '*', ';' and '%' comments change where a line ends.
        words = list(texts)
        for i, (irregularity, note, nags, comments) in marked.items():
            word = _format_word(texts[i], irregularity, note, nags)
            words[i] = " ".join([word, *(c.pbn() for c in comments)]) if comments else word
        return [" ".join(words[i:i + width]) for i in range(0, len(words), width)]
    lines: list[str] = []
    cur: list[str] = []
    slots = 0

    def flush() -> None:
        nonlocal cur, slots
        if cur:
            lines.append(" ".join(cur))
        cur, slots = [], 0

    for i, (kind, text) in enumerate(zip(kinds, texts, strict=True)):
        if kind is end or slots == width:
            flush()
        irregularity, note, nags, comments = marked.get(i, NO_MARKS)
        cur.append(_format_word(text, irregularity, note, nags))
        if kind is not end:
            slots += 1
        for c in comments:
            if c.kind is CommentKind.ESCAPE:
                flush()
                lines.append(c.pbn())
            elif c.kind is CommentKind.LINE:
                cur.append(c.pbn())
                flush()
                slots = 0
            else:
                cur.append(c.pbn())
        if kind is end:
            flush()
    flush()
    return lines


def _tag_lines(tag: Tag, resolve: bool, play_width: int = 4) -> list[str]:
    if isinstance(tag.section, DamagedSection):
        return tag.section.text.split("\n")  # unread: written back as it was
    value = tag.value if resolve else tag.written_value
    lines = [f"[{tag.name} {escape(value)}]"]
    lines.extend(c.pbn() for c in tag.comments)
    if isinstance(tag.section, Section):
        lines.extend(_section_lines(tag.section, play_width if tag.name == "Play" else 4))
    elif isinstance(tag.section, RawSection):
        rows = tag.section.rows
        lines.extend(_table_lines(tag.value, rows) if tag.name.endswith("Table") else
                     (" ".join(row) for row in rows))
    return lines


def _table_lines(header: str, rows: tuple[tuple[str, ...], ...]) -> list[str]:
    """A table's rows with each cell padded to its column's minimum width (PBN §5.2).

    Export format asks for the padding ("extra spaces must be added"): ``L``
    pads after the cell, ``R`` before it, no letter after it (PBN names no
    side). Cells go to columns by their place in the whole table, so a row
    split over lines still lines up; no line ends in blanks.
    """
    columns = table_columns(header)
    if not any(width for width, _ in columns):
        return [" ".join(row) for row in rows]
    n, k = len(columns), 0
    lines: list[str] = []
    for row in rows:
        cells: list[str] = []
        for cell in row:
            width, align = columns[k % n]
            k += 1
            cells.append(cell.rjust(width) if align == "R" else cell.ljust(width))
        lines.append(" ".join(cells).rstrip(" "))
    return lines


def _play_width(record: Record) -> int:
    """Cards a Play line holds: a trick of the record's game (four in Priffe; three in
    Préférence, two once a defender dropped out)."""
    own = lexicon_for(record.get("Scoring")).own
    if not own.dropouts:
        return own.trick
    declarer = record.get("Declarer")
    out = {w for w in (record.get("Dropout") or "").split() if w != declarer}
    return own.trick - min(1, len(out))


def format_record(record: Record, *, resolve_inheritance: bool = False) -> str:
    """One record in export format, ending with a newline.

    ``resolve_inheritance`` writes inherited (``#``/``##``) values out in
    full, for a record taken out of its file (archive exports, filters).
    """
    lines = [c.pbn() for c in record.leading]
    tags = list(record.tags)
    if resolve_inheritance:
        tags += [Tag(n, v) for n, v in record.defaults]
    width = _play_width(record)
    for tag in export_order(tuple(tags)):
        if tag.section is None and not tag.comments:  # most tags: one line, as _tag_lines
            value = tag.value if resolve_inheritance else tag.written_value
            lines.append(f"[{tag.name} {escape(value)}]")
        else:
            lines.extend(_tag_lines(tag, resolve_inheritance, width))
    return "\n".join(lines) + "\n"


def dumps(records: Iterable[Record | BadRecord], *, header: bool = True,
          resolve_inheritance: bool = False) -> str:
    """The whole file as a string (see :func:`write`)."""
    buf = io.StringIO()
    _write_stream(records, buf, header=header, resolve_inheritance=resolve_inheritance)
    return buf.getvalue()


def _write_stream(records: Iterable[Record | BadRecord], out: IO[str], *, header: bool,
                  resolve_inheritance: bool) -> int:
    if header:
        out.write(HEADER)
    n = 0
    for rec in records:
        if n:
            out.write("\n")
        if isinstance(rec, BadRecord):
            # Keep what could not be read, as it was: nothing of the user's is lost.
            out.write(rec.text)
        else:
            out.write(format_record(rec, resolve_inheritance=resolve_inheritance))
        n += 1
    return n


def write(records: Iterable[Record | BadRecord], file: str | os.PathLike[str] | IO[str], *,
          header: bool = True, resolve_inheritance: bool = False) -> int:
    """Write records in export format; returns how many were written.

    A path is written atomically (a temporary file in the same folder, then
    renamed over the target), so an error or Ctrl-C half way never leaves a
    half-written file where the user's file was.
    """
    if not isinstance(file, str | os.PathLike):
        return _write_stream(records, file, header=header,
                             resolve_inheritance=resolve_inheritance)
    with atomic_text(file) as fh:
        n = _write_stream(records, fh, header=header, resolve_inheritance=resolve_inheritance)
    return n
