"""The pip command that installs an optional extra where the user is.

``pip install 'priffe-records[sheet]'`` only works for a copy installed from
a package index: in a clone pip then fetches the package itself from the
index, or fails offline. So the hint is chosen by where this copy runs from:
from its source folder (a clone, installed editable or not) it is
``pip install -e '<that folder>[extra]'``, which works from any folder; a
copy installed from an index gets the extra by name; any other installed
copy (a wheel built locally, PEP 610's ``direct_url.json`` says so) gets the
extra's own packages by name. ``pip`` is the interpreter's own
(``python -m pip``), so the packages go where this program runs, not into
another Python.

>>> from pathlib import Path
>>> def hint(root: Path | None, direct_url: str | None = None) -> str:
...     command = extra_command("sheet", ("openpyxl",), lambda: root, lambda: direct_url)
...     return command.split(" -m pip ")[1]
>>> hint(Path("/src/priffe")), hint(None), hint(None, '{"url": "file:///tmp/w.whl"}')
("install -e '/src/priffe[sheet]'", "install 'priffe-records[sheet]'", 'install openpyxl')
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "priffe-records"


def _source_root() -> Path | None:
    """The clone this package runs from (its folder has the project's pyproject.toml)."""
    root = Path(__file__).resolve().parents[2]
    project = root / "pyproject.toml"
    try:
        named = f'name = "{DISTRIBUTION}"' in project.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if named else None


def _direct_url() -> str | None:
    """pip's record of where an installed copy came from; None when from an index."""
    try:
        return metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return ""


def extra_command(extra: str, packages: tuple[str, ...],
                  source_root: Callable[[], Path | None] = _source_root,
                  direct_url: Callable[[], str | None] = _direct_url) -> str:
    """The command that installs ``extra`` (whose packages are ``packages``) for this copy."""
    pip = f"{shlex.quote(sys.executable)} -m pip install"
    root = source_root()
    if root is not None:
        return f"{pip} -e {shlex.quote(f'{root}[{extra}]')}"
    if direct_url() is None:
        return f"{pip} {shlex.quote(f'{DISTRIBUTION}[{extra}]')}"
    return f"{pip} {' '.join(shlex.quote(p) for p in packages)}"
