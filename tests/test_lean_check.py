"""The lean rules check (issue 9 point 3) against the full analysis, record by record.

``lean.analyse_clean`` may only answer for a record the full analysis finds nothing
wrong with, and must then give the very same outcome (every field: deal, auction calls,
play and its trick rows, tricks, honours, score). tests/test_validate_digests.py holds
the validator's whole output to the bytes; this test names the record that differs.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_engine_equivalence import SEEDS, SETTINGS, damaged, partie
from test_validate_digests import _files

from priffe_records import dumps, loads, read
from priffe_records.format.record import Record
from priffe_records.rules.priffe.analysis import analyse_record, full_analysis
from priffe_records.rules.priffe.lean import analyse_clean
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.outcome import DealOutcome


def _same(lean: DealOutcome, full: DealOutcome) -> None:
    assert full.findings == ()
    assert lean == full
    assert lean.play is not None and full.play is not None
    assert lean.play.rows() == full.play.rows()
    assert lean.play.played == full.play.played
    assert lean.auction is not None and full.auction is not None
    assert [c.index for c in lean.auction.calls] == [c.index for c in full.auction.calls]
    assert [c.token for c in lean.auction.calls] == [c.token for c in full.auction.calls]


def check(records: list[Record], options: Options = PRESETS["sv"]) -> int:
    """Each record both ways; how many the lean check answered."""
    taken = 0
    for rec in records:
        lean = analyse_clean(rec, options)
        if lean is not None:
            taken += 1
            _same(lean, full_analysis(rec, options))
    return taken


def test_the_lean_check_answers_for_clean_records() -> None:
    """Otherwise the equality below would hold trivially."""
    recs = list(loads(dumps(partie(5))))
    assert all(isinstance(r, Record) for r in recs)
    assert check(recs) == len(recs)  # type: ignore[arg-type]
    assert check(partie(6, "en"), PRESETS["en"]) == len(partie(6, "en"))


def _pair(rng: random.Random, total: int | None = None) -> str:
    ns = rng.choice((0, 6, 7, 13, 20, 40, 50, 60, 80, 90, -10, 14))
    ew = (total - ns) if total is not None and rng.random() < 0.7 else rng.choice((0, 7, 40))
    return rng.choice((f"NS {ns} EW {ew}", f"EW {ew} NS {ns}", f"NS {ns}", f"ns {ns};ew {ew}"))


_TAG_DAMAGE = {
    "Score": lambda rng, rec: _pair(rng),
    "Result": lambda rng, rec: rng.choice((_pair(rng, 13), "7", " 6 ", "NS 14 EW -1", "x")),
    "Honours": lambda rng, rec: rng.choice((_pair(rng), "NS 0 EW 0", "NS 20 EW 0", "?")),
    "Declarer": lambda rng, rec: rng.choice(("N", "E", "S", "W", "", "?", "X", "n")),
    "Dealer": lambda rng, rec: rng.choice(("N", "E", "S", "W", "", "X", " e")),
    "Contract": lambda rng, rec: rng.choice(("Spela", "Noll", "Hjärter", "Hjarter", "Ruter",
                                             "Tvångsnoll", "Passnoll", "Spader", "4S",
                                             "Hjärtr", "", "noll")),
    "Auction": lambda rng, rec: rng.choice(("N", "E", "S", "W", "")),
    "Play": lambda rng, rec: rng.choice(("N", "E", "S", "W", "")),
    "Scoring": lambda rng, rec: rng.choice(("Priffe;preset=en", "Priffe;must_trump=yes",
                                            "Bridge", "Priffe;foo=bar", "", "priffe",
                                            "Priffe;honours=partnership")),
    "North": lambda rng, rec: rng.choice((str(rec.get("South")), str(rec.get("East")).upper(),
                                          "", "?", " Olle ")),
    "Deal": lambda rng, rec: rng.choice((str(rec.get("Deal")).lower(),
                                         " " + str(rec.get("Deal")),
                                         str(rec.get("Deal")).replace(" ", "  ", 1),
                                         str(rec.get("Deal"))[:-1])),
}


def damage_tags(rec: Record, rng: random.Random) -> Record:
    """A tag value a typist got wrong, or wrote another way."""
    name = rng.choice(sorted(_TAG_DAMAGE))
    return rec.replace_tag(name, _TAG_DAMAGE[name](rng, rec))  # type: ignore[no-untyped-call]


@SETTINGS
@given(SEEDS, st.sampled_from(["sv", "en"]))
def test_damaged_tags_lean_equals_full(seed: int, preset: str) -> None:
    """Every claimed value the lean check compares, wrong or spelt otherwise."""
    rng = random.Random(seed)
    recs = [damage_tags(r, rng) if rng.random() < 0.7 else r for r in partie(seed, preset)]
    check(recs, PRESETS[preset])
    check([r for r in loads(dumps(recs), errors="collect") if isinstance(r, Record)],
          PRESETS[preset])


@SETTINGS
@given(SEEDS, st.sampled_from(["sv", "en"]), st.integers(1, 8))
def test_damaged_parties_lean_equals_full(seed: int, preset: str, damages: int) -> None:
    recs = damaged(seed, preset, damages)
    check(recs, PRESETS[preset])
    read_back = [r for r in loads(dumps(recs)) if isinstance(r, Record)]
    check(read_back, PRESETS[preset])
    for rec in read_back:  # conventions: a clean record with an R9 warning goes in full
        assert analyse_record(rec, PRESETS[preset], True) == \
            full_analysis(rec, PRESETS[preset], True)


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name[:40])
def test_real_files_lean_equals_full(path: Path) -> None:
    records = [r for r in read(path, errors="collect") if isinstance(r, Record)]
    check(records)
    check(records, PRESETS["en"])
