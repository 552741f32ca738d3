"""A bridge partie's score sheet: a row per deal with its contract, declarer, tricks and
each side's duplicate score, and the Score tag's claim where it differs (B10)."""

from __future__ import annotations

from collections.abc import Sequence

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.game.language import msg_p
from priffe_records.game.words import seat_letter
from priffe_records.rules.family import Sheet, SheetColumn, SheetDeal, partie_title

from .books import BridgeLine, BridgePartie

COLUMNS = (SheetColumn(msg_p("bridge sheet", "Board"), "right"),
           SheetColumn(msg_p("bridge sheet", "Contract")),
           SheetColumn(msg_p("bridge sheet", "Declarer")),
           SheetColumn(msg_p("bridge sheet", "Tricks"), "right"),
           SheetColumn("NS", "right"), SheetColumn("EW", "right"))


def drawn(p: BridgePartie, items: Sequence[Record | BadRecord]) -> Sheet:
    """The partie's sheet as plain cells, one row per deal; no standings: duplicate
    scores compare tables, not the deals of one table."""
    rows = tuple(SheetDeal(line.outcome.index, _cells(line)) for line in p.lines)
    return Sheet(partie_title(p.event, p.site, p.date), p.event, p.site, p.date, COLUMNS,
                 rows, rows[0].record if rows else 0, game="Bridge", findings=p.findings,
                 own=p)


def _cells(line: BridgeLine) -> tuple[str, ...]:
    o = line.outcome
    board = o.record.get("Board") or str(o.index)
    if o.passed_out:
        return (board, "Pass", "", "", "0", "0")
    score = ("", "") if o.score is None else (str(o.score), str(-o.score))
    return (board, str(o.contract) if o.contract else "?",
            str(seat_letter(o.declarer)) if o.declarer else "?",
            "?" if o.tricks is None else str(o.tricks), *score)
