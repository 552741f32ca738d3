"""Process-wide settings for batch runs (the CLI and the benchmarks), never set on import.

Reading and validating allocate many small, acyclic objects (tokens,
locations, findings). With CPython's default thresholds the cyclic garbage
collector runs every 700 allocations and re-scans the long-lived parser
tables each time it reaches the oldest generation: 12% of a read+validate
run on 20,000 records. A library must not change this for its host program,
so only whole-program entry points call :func:`tune_gc_for_batch` and
:func:`decline_numpy_to_sqlite_utils`.
"""

from __future__ import annotations

import gc
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


def tune_gc_for_batch() -> None:
    """Freeze what exists now and collect less often; the parser first if the command reads.

    A command whose module imports the reader has loaded ``format.parser`` by the time
    this runs: its tokenizer is loaded here so that it is frozen too. Any other command
    (``--version``'s neighbours, ``import`` of an unchanged file, ``query``) never loads
    it for nothing.

    Measured on 20,000 generated records: read+validate 1,086 → 1,240
    records/s, peak memory unchanged (28 MiB).
    """
    parser = sys.modules.get("priffe_records.format.parser")
    if parser is not None:
        parser.get_scanner()
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


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
