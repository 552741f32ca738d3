"""The tag pairs of each record, without parsing its sections: a file's index in one pass.

A catalogue (who played, when, which boards) needs the tags, not the cards; this
reads only the lines that start with ``[`` outside brace comments, so it needs
neither the grammar nor the engine. Values are as written (``Date "2026-10-17"``
stays so; :func:`~priffe_records.format.reader.read` is the reader that
normalises and reports), with ``#`` and ``##`` inheritance resolved (PBN §3.4).
A tag pair broken over lines, which the reader mends with an error, is not seen.

>>> import io
>>> text = '[Event "Klubb"]\\n[Board "1"]\\n[Play "N"]\\nD6 D4 {[Not "a tag"]} DK DA\\n\\n'
>>> text += '[Event "#"]\\n[Board "2"]\\n'
>>> list(read_headers(io.BytesIO(text.encode())))
[{'Event': 'Klubb', 'Board': '1', 'Play': 'N'}, {'Event': 'Klubb', 'Board': '2'}]
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from typing import IO

from priffe_records.format.splitter import brace_state, decode_lines, split

__all__ = ["read_headers"]

_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:\\.|[^"\\])*)"[ \t]*\]')
_ESCAPE = re.compile(r"\\(.)")
# The reader's rule: these tags describe one deal and never inherit.
_NO_INHERIT = frozenset({"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction",
                         "Play", "Note"})


def read_headers(source: str | os.PathLike[str] | IO[bytes] | IO[str]
                 ) -> Iterator[dict[str, str]]:
    """Yield each record's tags as ``{name: value}`` in file order, sections skipped.

    The first tag of a name stands (PBN §3.4 ignores a repeat). Inheritance is
    the reader's (PBN §4.8): ``#`` takes the tag's latest value in the file,
    ``##value`` gives ``value`` to this record and every later one that does not
    name the tag.
    """
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as fh:
            yield from _headers(decode_lines(fh))
    elif isinstance(source, io.TextIOBase):
        yield from _headers(line.rstrip("\r\n") for line in source)
    else:
        yield from _headers(decode_lines(source))  # type: ignore[arg-type]


def _headers(lines: Iterable[str]) -> Iterator[dict[str, str]]:
    last: dict[str, str] = {}  # each tag's latest value in the file so far
    header: dict[str, str] = {}  # the ``##`` values, inherited by records not naming them
    for chunk in split(lines):
        tags = _tags(chunk.lines)
        if not tags:
            continue  # comments only
        for name, value in tags.items():
            if value[:1] != "#" or name in _NO_INHERIT:
                if name in header:
                    header[name] = value
            elif value == "#":
                tags[name] = last.get(name, "")
            else:
                tags[name] = header[name] = value[2:]
        last.update(tags)
        for name, value in header.items():
            tags.setdefault(name, value)
        yield tags


def _tags(lines: list[str]) -> dict[str, str]:
    """The tag pairs on the lines that start with ``[`` outside a brace comment."""
    tags: dict[str, str] = {}
    depth = 0
    for line in lines:
        if not depth and line.lstrip().startswith("["):
            for m in _PAIR.finditer(line):
                raw = m.group(2)
                tags.setdefault(m.group(1), _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw)
        depth = brace_state(line, depth)
    return tags
