"""How much search the replay's hard case takes, in nodes (deterministic, the same on
both cores): board 2 of the Uppsala example, a Tvångsnoll whose value sits mid-range.

Move ordering never changes a value (test_dd_solver proves the values); these bounds
keep what it saves: a change of ordering that loses it fails here. Counted on the
compiled core only: the pure core counts the same nodes some 70 times slower.
"""

from __future__ import annotations

from pathlib import Path

from dd_cores import compiled_core, use_core

from priffe_records import read
from priffe_records.dd import Budget, Deal, value
from priffe_records.rules.family import family_for

UPPSALA = Path(__file__).parent.parent / "examples" / "partie-uppsala.ppn"


def _board_2(played: int) -> Deal:
    """Board 2's deal with its first ``played`` cards played."""
    record = next(r for r in read(UPPSALA) if r.get("Board") == "2")
    family = family_for(record.get("Scoring"))
    deal = family.dd_deal(family.analyse(record, None, False))
    assert deal is not None
    return Deal(**{**deal.__dict__, "played": deal.played[:played]})


def test_board_2_from_trick_4_fits_in_the_nodes_learned_ordering_needs() -> None:
    """From trick 4 (10 tricks left) the value is found within 3.6 M nodes: with the
    cutoff cache and the leads' history 3,359,332; without the history 3,997,996; with
    neither 5,630,321."""
    with use_core(compiled_core()):
        assert value(_board_2(12), Budget(nodes=3_600_000), solver="own") == 6
