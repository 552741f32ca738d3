"""Write the example files of this folder from the deterministic generator.

    python examples/make_examples.py

``partie-uppsala.ppn`` is a full partie (three rubbers with every contract
kind, comments and a claimed early end); ``protokoll-1952.ppn`` is the same
kind of evening kept as a score sheet only: no hands, no auction, no play.
Both are written in export format by the writer, and validate without error.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from priffe_records import Record, Tag, validate, write
from priffe_records.format.record import Comment
from priffe_records.rules.priffe.generate import PartieSpec, generate_partie

HERE = Path(__file__).resolve().parent
KINDS = {"Spela", "Noll", "Hjärter", "Ruter", "Tvångsnoll", "Passnoll"}


def _good(records: list[Record], claim: bool) -> bool:
    kinds = Counter(r.get("Contract") for r in records)
    claims = sum(1 for r in records if r.play is not None and r.play.ended)
    return set(kinds) == KINDS and claims >= claim and len(records) <= 24


def first_seed(spec: PartieSpec, rubbers: int, claim: bool = True) -> int:
    """The first seed giving a short partie that shows every contract kind (and a claim)."""
    return next(s for s in range(10_000)
                if _good(generate_partie(s, spec, rubbers=rubbers), claim))


def uppsala() -> list[Record]:
    spec = PartieSpec(players=("Astrid Lindqvist", "Gunnar Berg", "Märta Holm", "Sven Ekström"),
                      event="Upsala Priffeklubb, höstpartiet", site="Uppsala",
                      date="2026.10.17", comments=True, claim_rate=0.2)
    records = generate_partie(first_seed(spec, 3), spec, rubbers=3)
    first = records[0]
    note = Comment("Lottning: Sven given, Astrid förhand; sex robbertar var planerade, "
                   "tre hanns med före tebjudningen")
    return [Record(first.tags, (note,), first.defaults), *records[1:]]


def protokoll() -> list[Record]:
    spec = PartieSpec(players=("Ingeborg Wahlgren", "Helmer Sjöberg", "Elna Wahlgren",
                               "Folke Nordin"),
                      event="Priffeafton hos familjen Wahlgren", site="Västerås",
                      date="1952.03.14", claim_rate=0.0)
    keep = ("Event", "Site", "Date", "Rubber", "Board", "West", "North", "East", "South",
            "Declarer", "Contract", "Result", "Score", "Honours", "ScoreRubber")
    out = []
    for r in generate_partie(first_seed(spec, 2, claim=False), spec, rubbers=2):
        tags = tuple(Tag(t.name, t.value) for t in r.tags if t.name in keep)
        out.append(Record(tags))
    out[0] = Record(out[0].tags, (Comment("Avskrift av ett handskrivet protokoll; händerna och "
                                          "budgivningen antecknades inte"),))
    return out


def main() -> None:
    for name, records in (("partie-uppsala.ppn", uppsala()),
                          ("protokoll-1952.ppn", protokoll())):
        errors = [f for f in validate(records) if f.is_error]
        assert not errors, errors
        write(records, HERE / name)
        print(f"wrote {name}: {len(records)} records")


if __name__ == "__main__":
    main()
