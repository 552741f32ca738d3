"""Rewriting a file in canonical form without ever losing what it held (``priffe fmt``).

The records are streamed into a temporary file beside the original; that
file replaces the original only when re-reading it gives the same number of
records, each equal to the one read from the original. Otherwise the
original stays untouched and the result says why. Memory is bounded by one
record, not the file.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "a.ppn"
>>> _ = path.write_text('[Contract "hjarter"]\\n[Event "x"]\\n', "utf-8")
>>> reformat(path).status, reformat(path).status
('reformatted', 'unchanged')
>>> _ = path.write_text('[Event "x"]\\n[Play "N"]\\nSX\\n', "utf-8")
>>> result = reformat(path)
>>> result.status, str(result.reason)
('refused', '1 record with errors: nothing written')
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from priffe_records.format.atomic import refuse_read_only
from priffe_records.format.errors import BadRecord, PPNSyntaxError, PriffeError, no_records
from priffe_records.format.reader import read
from priffe_records.format.record import Record, Tag
from priffe_records.format.writer import HEADER, format_record
from priffe_records.game.language import Message, msg, msg_n, os_reason

Status = Literal["unchanged", "reformatted", "would-reformat", "refused"]


@dataclass(frozen=True)
class Rewrite:
    """What :func:`reformat` did to one file, and why when it did nothing."""

    path: Path
    status: Status
    records: int
    problems: tuple[PPNSyntaxError, ...] = ()  # errors and warnings met while reading
    reason: Message | None = None  # for "refused", in the reader's language


def reformat(path: str | os.PathLike[str], *, check: bool = False,
             resolve_inheritance: bool = False) -> Rewrite:
    """Rewrite ``path`` in export format when that provably keeps every record.

    ``check`` writes nothing and reports ``would-reformat`` instead. A file
    with an unreadable record or a record with errors is ``refused``: its
    text could not be written back whole.
    """
    target = Path(path)
    if not check:
        refuse_read_only(target)
    problems: list[PPNSyntaxError] = []
    broken = 0
    try:  # the error names the user's file, not the temporary one
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                        dir=target.parent)
    except OSError as e:
        raise PriffeError(msg("{target}: cannot rewrite ({reason})", target=target,
                              reason=os_reason(e))) from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(HEADER)
            count = 0
            for rec in read(target, errors="collect"):
                problems.extend(rec.errors)
                if isinstance(rec, BadRecord) or rec.has_errors:
                    broken += 1
                    continue
                if count:
                    out.write("\n")
                out.write(format_record(rec, resolve_inheritance=resolve_inheritance))
                count += 1
            out.flush()
            os.fsync(out.fileno())
        found = tuple(problems)
        if not count and not broken:  # a header is no record: the file stays as it was
            return Rewrite(target, "unchanged", 0, (*found, no_records(str(target))))
        if broken:
            return Rewrite(target, "refused", count + broken, found,
                           msg_n("{n} record with errors: nothing written",
                                 "{n} records with errors: nothing written", broken))
        if _same_bytes(target, tmp):
            return Rewrite(target, "unchanged", count, found)
        why = _differs(target, tmp, resolve_inheritance)
        if why is not None:
            return Rewrite(target, "refused", count, found, why)
        if check:
            return Rewrite(target, "would-reformat", count, found)
        os.chmod(tmp, target.stat().st_mode & 0o777)
        os.replace(tmp, target)
        return Rewrite(target, "reformatted", count, found)
    except OSError as e:
        raise PriffeError(msg("{target}: cannot rewrite ({reason})", target=target,
                              reason=os_reason(e))) from None
    finally:
        tmp.unlink(missing_ok=True)


def _same_bytes(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 16), fb.read(1 << 16)
            if x != y:
                return False
            if not x:
                return True


def _differs(original: Path, new: Path, resolved: bool) -> Message | None:
    """Why the new text does not hold the original's records, or None when it does."""
    pairs = itertools.zip_longest(_records(original, resolved), _records(new, resolved))
    for index, (old, again) in enumerate(pairs, 1):
        if old is None or again is None:
            return msg("re-reading the new text gives a different number of records; "
                       "the file is left unchanged (please report this)")
        if old != again:
            line = old.location.line if old.location else "?"
            return msg("record {index} (line {line}) would not read back the same; "
                       "the file is left unchanged (please report this)", index=index, line=line)
    return None


def _records(path: Path, resolved: bool) -> Iterator[Record]:
    for rec in read(path, errors="collect"):
        if isinstance(rec, Record):
            # Written with resolved inheritance, a record carries its defaults as tags.
            yield _resolved(rec) if resolved else rec


def _resolved(rec: Record) -> Record:
    tags = tuple(Tag(t.name, t.value, t.comments, t.section) for t in rec.tags)
    names = {t.name for t in tags}
    extra = tuple(Tag(n, v) for n, v in rec.defaults if n not in names)
    return Record(tags + extra, rec.leading)
