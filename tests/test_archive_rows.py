"""The archive's facts of a deal: what the engine does not compute is the record's own.

``engine._computed`` builds a deal's facts field by field (issue 9: no
``dataclasses.replace`` per deal); a field it forgot would silently be the default.
Every example and test file: the tag values as written survive the engine's view.
"""

from __future__ import annotations

import io
from dataclasses import fields
from pathlib import Path

import pytest
from test_engine_equivalence import _files

from priffe_records import read
from priffe_records.archive import engine
from priffe_records.archive.metadata import metadata
from priffe_records.archive.rows import DEAL_COLUMNS, DEAL_TABLE
from priffe_records.archive.schema import ensure_schema, open_archive
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


# DealFacts fields that go to tables of their own (or are read by rows.ready), not columns.
NOT_COLUMNS = {"seats", "calls", "tricks", "commentary", "findings", "game", "balance_changes"}


def test_the_deal_columns_the_engine_fills_are_its_facts() -> None:
    """rows.DEAL_TABLE is the one declaration of the deals table: each ``facts`` column
    is a DealFacts field of its type, and every other DealFacts field has a place."""
    facts = {f.name: f.type for f in fields(engine.DealFacts)}
    from_facts = {c.name: c for c in DEAL_TABLE if c.origin == "facts"}
    for name, column in from_facts.items():
        assert facts[name] == f"{column.type.__name__} | None", name
    assert set(facts) == set(from_facts) | NOT_COLUMNS


def test_the_deals_table_is_the_declared_one() -> None:
    """Schema, store and metadata read the declaration: a fresh archive's deals table has
    exactly its columns, of its types, and the store writes every one."""
    db = open_archive(":memory:")
    ensure_schema(db)
    table = {r[1]: r[2] for r in db.execute("PRAGMA table_info(deals)")}
    assert table == {"id": "INTEGER", **{c.name: c.sql_type for c in DEAL_TABLE}}
    assert set(DEAL_COLUMNS) == set(table) - {"id"}
    described = metadata("priffe.db")["databases"]["priffe"]["tables"]["deals"]["columns"]
    assert set(described) == {c.name for c in DEAL_TABLE if c.doc is not None}
    assert "contract" in described and "score_ew" not in described


def test_each_column_ready_makes_holds_its_own_value() -> None:
    """rows.ready lists its values by position: each lands in the column of its name."""
    from priffe_records.archive.classify import content_hash
    from priffe_records.archive.importing import import_file

    text = ('[Event "Klubbkväll"]\n[Site "Lund"]\n[Date "2026.11.29"]\n[Board "3"]\n'
            '[North "Anna"]\n[East "Bo"]\n[Contract "Spela"] {ett spel}\n')
    db = open_archive(":memory:")
    import_file(db, io.BytesIO(text.encode()), name="a.ppn")
    made = ("line", "event", "site", "date", "players", "commentary", "status", "ident",
            "game", "board", "contract")
    row = dict(zip(made, db.execute(f"SELECT {', '.join(made)} FROM deals").fetchone(),
                   strict=True))
    assert row == {"line": 1, "event": "Klubbkväll", "site": "Lund", "date": "2026.11.29",
                   "players": "Anna, Bo", "commentary": "ett spel", "status": row["status"],
                   "ident": '[null,"3",null,null,"Anna","Bo",null,null]', "game": "Priffe",
                   "board": "3", "contract": "Spela"}
    ppn, digest, errors, warnings = db.execute(
        "SELECT ppn, hash, errors, warnings FROM deals").fetchone()
    assert digest == content_hash(ppn) and ppn.startswith('[Event "Klubbkväll"]')
    assert row["status"] == ("errors" if errors else "warnings" if warnings else "clean")
