"""Writing a file so that nothing the user had is lost or half-written.

Every file this package writes (PPN exports, rewritten files, the HTML
viewer, Datasette metadata) goes through :func:`atomic_text`: the text goes
to a temporary file in the same folder, which then replaces the target in
one rename. An error or Ctrl-C half way leaves the old file as it was.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text_atomically(folder / "a.ppn", "x\\n")
>>> (folder / "a.ppn").read_text()
'x\\n'
>>> try:
...     write_text_atomically(folder / "nope" / "a.ppn", "x")
... except PriffeError as e:
...     print(str(e).replace(str(folder), "<tmp>"))
<tmp>/nope/a.ppn: cannot write: the folder <tmp>/nope does not exist
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from priffe_records.format.errors import PriffeError
from priffe_records.game.language import msg, os_reason


@contextmanager
def atomic_text(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A UTF-8, LF text stream that becomes ``path`` only when the block ends without error.

    An existing file keeps its permissions; a new one gets the usual
    ``0o666 & ~umask``.
    """
    with _swapped(path) as fd, os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
        yield fh
        fh.flush()
        os.fsync(fh.fileno())


def write_bytes_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """``data`` (a workbook) as ``path``, the way :func:`atomic_text` writes text."""
    with _swapped(path) as fd, os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


@contextmanager
def _swapped(path: str | os.PathLike[str]) -> Iterator[int]:
    """A temporary file's descriptor beside ``path``; it replaces ``path`` when the block
    ends without error (the block closes it), and is removed otherwise."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise PriffeError(msg("{target}: cannot write: the folder {folder} does not exist",
                              target=target, folder=folder))
    refuse_read_only(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise PriffeError(msg("{target}: cannot write here ({reason})", target=target,
                              reason=os_reason(e))) from None
    try:
        yield fd
        if target.exists():
            mode = target.stat().st_mode & 0o777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def refuse_read_only(target: Path) -> None:
    """A file the user made read-only is not replaced behind its back.

    The rename that makes a write atomic needs only the folder's permission,
    so without this check a read-only file would be silently swapped.
    """
    if target.is_file() and not os.access(target, os.W_OK):
        denied = PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(target))
        raise PriffeError(msg("{target}: cannot write here ({reason})", target=target,
                              reason=os_reason(denied)))


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    """``path`` holds exactly ``text`` afterwards, or is unchanged if anything failed."""
    with atomic_text(path) as fh:
        fh.write(text)
