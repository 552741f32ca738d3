"""The generator: deterministic, legal, every contract kind, R24 rotation."""

from __future__ import annotations

from collections import Counter

from priffe_records import validate
from priffe_records.rules.priffe.generate import PartieSpec, generate_partie, generate_records
from priffe_records.rules.priffe.options import PRESETS


def test_same_seed_same_records() -> None:
    assert generate_records(50, seed=3) == generate_records(50, seed=3)
    assert generate_records(50, seed=3) != generate_records(50, seed=4)


def test_exact_count_and_clean_validation() -> None:
    recs = generate_records(400, seed=9, comments=True)
    assert len(recs) == 400
    assert validate(recs) == []


def test_every_contract_kind_and_claims_appear() -> None:
    recs = generate_records(400, seed=2)
    kinds = Counter(r.get("Contract") for r in recs)
    assert set(kinds) == {"Spela", "Noll", "Hjärter", "Ruter", "Tvångsnoll", "Passnoll"}
    assert any(r.play is not None and r.play.ended for r in recs)


def test_six_rubbers_pair_everyone_twice() -> None:
    recs = generate_partie(1, PartieSpec(rubbers=6))
    pairs: Counter[frozenset[str]] = Counter()
    for r in recs:
        if r.get("Settlement"):
            pairs[frozenset((str(r.get("North")), str(r.get("South"))))] += 1
            pairs[frozenset((str(r.get("East")), str(r.get("West"))))] += 1
    assert len(pairs) == 6 and set(pairs.values()) == {2}


def test_en_preset_parties_validate() -> None:
    recs = generate_partie(8, PartieSpec(options=PRESETS["en"], rubbers=2))
    assert recs[0].get("Scoring") == "Priffe;preset=en"
    assert validate(recs) == []
