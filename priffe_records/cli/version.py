"""What ``priffe --version`` says: the release and which double-dummy core it runs.

The solver's core is compiled at install where a C compiler is, else it stays pure
Python (same answers, 50–90× slower). A user timing ``--dd`` needs to know which one
is installed, and ``--version`` must not load the solver to say it: Python prefers an
extension module beside ``core.py``, so its file alone tells.
"""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

from priffe_records.game.language import Message, msg

_CORE = Path(__file__).resolve().parents[1] / "dd" / "core.py"


def core_compiled(source: Path = _CORE) -> bool:
    """Whether an import of the solver's core takes a compiled module beside ``source``."""
    return any(source.with_name(source.stem + suffix).is_file()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def version_line(version: str) -> Message:
    """``priffe, version 0.1.0 (double-dummy core: compiled)``."""
    if core_compiled():
        return msg("priffe, version {version} (double-dummy core: compiled)", version=version)
    return msg("priffe, version {version} (double-dummy core: pure Python, slower)",
               version=version)
