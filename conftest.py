"""The project root's pytest setup: the solver's core as the build left it (tests/conftest.py
has the tests' own setup).

An editable install compiles ``priffe_records/dd/core.py`` once (setup.py), and Python
imports that build ahead of the ``.py`` file: after an edit of ``core.py`` the run stops,
before any test, until the core is rebuilt or deleted. The ``.py`` file is not collected
for doctests: its import is the extension where there is one, which pytest refuses for a
``.py`` path; tests/test_dd_build.py runs its doctests with both cores.
"""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent / "priffe_records" / "dd" / "core.py"
collect_ignore = ["priffe_records/dd/core.py"]


def stale_extensions(source: Path) -> list[Path]:
    """The compiled modules beside ``source`` that are older than it."""
    return [built for suffix in importlib.machinery.EXTENSION_SUFFIXES
            for built in [source.with_name(source.stem + suffix)]
            if built.exists() and built.stat().st_mtime < source.stat().st_mtime]


def pytest_configure(config: pytest.Config) -> None:
    """Stop before any test rather than test an old build of the solver's core."""
    stale = stale_extensions(CORE)
    if stale:
        pytest.exit(f"{stale[0]} is older than {CORE.name}, so the tests would run the old "
                    "core: rebuild it with `python setup.py -q build_ext --inplace` (or delete "
                    "it to test the pure core alone)", returncode=4)
