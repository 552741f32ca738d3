"""The tag pairs of each record, without parsing its sections: a file's index in one pass.

A catalogue (who played, when, which boards) needs the tags, not the cards; this
reads only the lines that start with ``[`` outside brace comments, so it needs
neither the grammar nor the engine. Values are as written (``Date "2026-10-17"``
stays so; :func:`~priffe_records.format.reader.read` is the reader that
normalises and reports), with ``#`` and ``##`` inheritance resolved (PBN §3.4).
A tag pair broken on its line (``[Site "Uppsala"``, ``[Event Random Deal #]``) is read
as the reader reads it (format/mend.py); one broken over lines is not seen.

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

from priffe_records.format.mend import mend
from priffe_records.format.record import resolve_inheritance
from priffe_records.format.splitter import Decoded, brace_state, split

__all__ = ["read_headers"]

_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:\\.|[^"\\])*)"[ \t]*\]')
_ESCAPE = re.compile(r"\\(.)")
# The first tag pair of a line, and whether a second one follows it.
# A line opening with '[' whose tag pair is not whole is broken: mend() reads it as the
# reader does (group 4).
_FIRST_PAIR = re.compile(r'^[ \t]*\[[ \t]*([A-Za-z0-9_]+)(?:[ \t]*"((?:\\.|[^"\\\n])*)"[ \t]*\]'
                         r"[ \t]*(\[)?|([^\n]*))", re.M)
_OPEN = re.compile(r"\{[^}\n]*\n")  # a brace comment that goes on to the next line


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
            yield from _headers(Decoded(fh))  # the splitter's fast path: blocks, not lines
    elif isinstance(source, io.TextIOBase):
        yield from _headers(line.rstrip("\r\n") for line in source)
    else:
        yield from _headers(Decoded(source))  # type: ignore[arg-type]


def _headers(lines: Iterable[str]) -> Iterator[dict[str, str]]:
    last: dict[str, str] = {}  # each tag's latest value in the file so far
    header: dict[str, str] = {}  # the ``##`` values, inherited by records not naming them
    for chunk in split(lines):
        text = chunk.text
        # A brace comment over lines may hold lines that look like tags: read line by line.
        tags = _tags(chunk.lines) if "{" in text and _OPEN.search(text) else _tag_lines(text)
        if not tags:
            continue  # comments only
        for name, value in tags.items():
            tags[name] = resolve_inheritance(name, value, last, header)
        last.update(tags)
        for name, value in header.items():
            tags.setdefault(name, value)
        yield tags


def _tag_lines(text: str) -> dict[str, str]:
    """The tag pairs at the start of each line of a text whose comments close on their line."""
    tags: dict[str, str] = {}
    for m in _FIRST_PAIR.finditer(text):
        if m.group(4) is not None:
            # The lines after it, up to the next tag pair, as the reader's segment.
            after = text[m.end() + 1:text.find("\n[", m.end()) + 1 or len(text)]
            mended = mend(text[m.start():m.end()], after)
            if mended is not None:
                tags.setdefault(mended.name, mended.value)
            continue
        if m.group(3):  # another pair follows on the line (rare): take them one by one
            _pairs(text[m.start():text.find("\n", m.start())], tags)
            continue
        raw = m.group(2)
        tags.setdefault(m.group(1), _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw)
    return tags


def _pairs(line: str, tags: dict[str, str], after: str = "") -> None:
    """The tag pairs one after another from the line's start (a comment ends them);
    ``after``, the next line, tells a broken tag pair's reading (format/mend.py)."""
    m = _PAIR.match(line, len(line) - len(line.lstrip(" \t")))
    if m is None:
        mended = mend(line, after)  # a broken tag pair, read as the reader reads it
        if mended is not None:
            tags.setdefault(mended.name, mended.value)
        return
    while m:
        raw = m.group(2)
        tags.setdefault(m.group(1), _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw)
        end = m.end()
        m = _PAIR.match(line, end + len(line[end:]) - len(line[end:].lstrip(" \t")))


def _tags(lines: list[str]) -> dict[str, str]:
    """The tag pairs on the lines that start with ``[`` outside a brace comment."""
    tags: dict[str, str] = {}
    depth = 0
    for i, line in enumerate(lines):
        if not depth and line.lstrip().startswith("["):
            after = []  # the lines up to the next tag pair, as the reader's segment
            for rest in lines[i + 1:]:
                if rest.lstrip().startswith("["):
                    break
                after.append(rest)
            _pairs(line, tags, "\n".join(after))
        depth = brace_state(line, depth)
    return tags
