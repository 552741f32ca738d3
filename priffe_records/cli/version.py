"""What ``priffe --version`` says: the release and which double-dummy solver answers what.

Positive contracts go to DDS (inside endplay, a dependency where its wheel installs);
misère and three hands to the own solver, whose core is compiled at install where a C
compiler is, else it stays pure Python (same answers, 50–90× slower). A user timing
``--dd`` needs to know which ones run, and ``--version`` must not load either to say it:
Python prefers an extension module beside ``core.py``, so its file alone tells, and
endplay's installed metadata gives its version without importing it.
"""

from __future__ import annotations

import importlib.machinery
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed_version
from pathlib import Path

from priffe_records.game.language import Message, msg

_CORE = Path(__file__).resolve().parents[1] / "dd" / "core.py"


def core_compiled(source: Path = _CORE) -> bool:
    """Whether an import of the solver's core takes a compiled module beside ``source``."""
    return any(source.with_name(source.stem + suffix).is_file()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def version_line(version: str) -> Message:
    """``priffe, version 0.1.0 (double-dummy: DDS (endplay 0.5.12) for positive contracts,
    own solver (compiled) for misère and three hands)``."""
    core = msg("compiled") if core_compiled() else msg("pure Python, slower")
    try:  # DDS comes with endplay; its metadata, not an import of it
        dds: str | None = installed_version("endplay")
    except PackageNotFoundError:
        dds = None
    if dds is None:
        return msg("priffe, version {version} (double-dummy: own solver ({core}) for every "
                   "contract; DDS is not installed)", version=version, core=core)
    return msg("priffe, version {version} (double-dummy: DDS (endplay {dds}) for positive "
               "contracts, own solver ({core}) for misère and three hands)",
               version=version, dds=dds, core=core)
