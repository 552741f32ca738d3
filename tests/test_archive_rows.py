"""The archive's facts of a deal: what the engine does not compute is the record's own.

``engine._computed`` builds a deal's facts field by field (issue 9: no
``dataclasses.replace`` per deal); a field it forgot would silently be the default.
Every example and test file: the tag values as written survive the engine's view.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from test_engine_equivalence import _files

from priffe_records import read
from priffe_records.archive import engine
from priffe_records.format.record import Record

COMPUTED = {"rubber", "contract", "declarer", "declaring_side", "tricks_ns", "tricks_ew", "made",
            "scoring_side", "scoring_tricks", "penalty_tricks", "slam", "score_ns", "score_ew",
            "rubber_ns", "rubber_ew", "calls", "tricks", "findings", "pot", "balance_changes"}


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name[:40])
def test_what_the_engine_does_not_compute_is_the_records_own(path: Path) -> None:
    items = list(read(path, errors="collect"))
    deals = [x for x in engine.check_stream(items) if isinstance(x, engine.DealFacts)]
    assert len(deals) == len(items)
    kept = [f.name for f in fields(engine.DealFacts) if f.name not in COMPUTED]
    assert "commentary" in kept and "seats" in kept and "game" in kept
    for item, facts in zip(items, deals, strict=True):
        if isinstance(item, Record):
            own = engine._facts(item)
            assert [getattr(facts, k) for k in kept] == [getattr(own, k) for k in kept]
