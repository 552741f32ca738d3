"""priffe-records: read, validate, archive and replay records of the card game Priffe.

The record format is PPN, a profile of PBN 2.1; see ``docs/format.md``.

>>> from priffe_records import dumps, loads, validate
>>> recs = list(loads('[Event "Klubbkväll"]\\n[Contract "spelut"]\\n'))
>>> recs[0].get("Contract")
'Spela'
>>> list(loads(dumps(recs))) == recs
True

Check records against the rules (RULES.md) and score a partie; what belongs to one
game (Priffe's rule variants and its score sheet) comes from that game's package:

>>> from priffe_records.rules.priffe.sheet import score_partie
>>> sheet = ('[Contract "Spela"]\\n[Declarer "N"]\\n[Result "NS 13 EW 0"]\\n'
...          '[Honours "NS 0 EW 0"]\\n')
>>> score_partie(loads(sheet)).rows[0].score
SidePoints(ns=90, ew=0)
>>> [(f.rule, f.severity.value) for f in validate(loads(sheet.replace("EW 0\\"", "EW 1\\"")))]
[('R12', 'error'), ('R17', 'error'), ('R8', 'unverifiable')]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names, for mypy and readers; loaded on first use below
    from priffe_records.format.errors import BadRecord, PPNSyntaxError, PriffeError
    from priffe_records.format.reader import loads, read, read_headers
    from priffe_records.format.record import Record, Tag
    from priffe_records.format.writer import dumps, format_record, write
    from priffe_records.replay.model import DealReplay, build_replays
    from priffe_records.rules.findings import Finding, Severity
    from priffe_records.rules.partie import parties
    from priffe_records.rules.validate import validate

__version__ = "0.1.0"

__all__ = [
    "BadRecord",
    "DealReplay",
    "Finding",
    "PPNSyntaxError",
    "PriffeError",
    "Record",
    "Severity",
    "Tag",
    "__version__",
    "build_replays",
    "dumps",
    "format_record",
    "loads",
    "parties",
    "read",
    "read_headers",
    "validate",
    "write",
]

# Where each public name lives: the names every game shares. `import priffe_records` (and
# the `priffe` command, which needs only __version__) stays cheap: the parser, the engine
# and the replay load when a name is first used. A game's own names live in its package
# (priffe_records.rules.<family>), so this module imports no family.
_HOMES: dict[str, str] = {
    "BadRecord": "priffe_records.format.errors",
    "DealReplay": "priffe_records.replay.model",
    "Finding": "priffe_records.rules.findings",
    "PPNSyntaxError": "priffe_records.format.errors",
    "PriffeError": "priffe_records.format.errors",
    "Record": "priffe_records.format.record",
    "Severity": "priffe_records.rules.findings",
    "Tag": "priffe_records.format.record",
    "build_replays": "priffe_records.replay.model",
    "dumps": "priffe_records.format.writer",
    "format_record": "priffe_records.format.writer",
    "loads": "priffe_records.format.reader",
    "parties": "priffe_records.rules.partie",
    "read": "priffe_records.format.reader",
    "read_headers": "priffe_records.format.reader",
    "validate": "priffe_records.rules.validate",
    "write": "priffe_records.format.writer",
}


# Priffe's own names, once exported here: where they are now, for the error message.
_GAME_NAMES = {"Options": "options", "OptionsError": "options", "PRESETS": "options",
               "score_partie": "sheet", "score_parties": "sheet"}


def __getattr__(name: str) -> object:
    """Load a public name from its module on first use, then keep it here."""
    home = _HOMES.get(name)
    if home is None:
        moved = _GAME_NAMES.get(name)
        raise AttributeError(
            f"module 'priffe_records' has no attribute {name!r}" + (
                f": it is Priffe's, from priffe_records.rules.priffe.{moved} import {name}"
                if moved else ""))
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
