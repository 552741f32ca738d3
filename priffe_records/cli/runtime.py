"""Process-wide settings for the CLI, never set on import: sqlite-utils loads without numpy.

A library must not change this for its host program, so only the ``priffe`` entry
point calls :func:`decline_numpy_to_sqlite_utils`. (The garbage collector is tuned for
the length of a command by :func:`~priffe_records.rules.gcscope.collector_tuned`.)
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import FrameType, ModuleType

# sqlite-utils imports these at its own import when installed, to map their number
# types to column types; the archive never hands it a numpy or pandas value.
_OPTIONAL = frozenset({"numpy", "pandas"})
_IMPORTER = "sqlite_utils.db"


def _importing(module: str) -> bool:
    """Whether ``module``'s top level is running somewhere up the stack."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == module:
            return True
        frame = frame.f_back
    return False


class _DeclineOptional:
    """A finder on ``sys.meta_path``: "not installed" to sqlite-utils' numpy and pandas only.

    Loading numpy costs more CPU than the rest of a small archive command; sqlite-utils
    uses it only to name column types of numpy values, which the archive never writes.
    Any other importer of numpy or pandas is served as usual.
    """

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname in _OPTIONAL and _importing(_IMPORTER):
            raise ModuleNotFoundError(f"{fullname} is not loaded for sqlite-utils",
                                      name=fullname)
        return None


def decline_numpy_to_sqlite_utils() -> None:
    """Let sqlite-utils load without numpy and pandas, unless either is loaded already."""
    if _IMPORTER in sys.modules or _OPTIONAL & sys.modules.keys():
        return
    if not any(isinstance(f, _DeclineOptional) for f in sys.meta_path):
        sys.meta_path.insert(0, _DeclineOptional())
