"""Write the example files of this folder from the deterministic generator.

    python examples/make_examples.py

``partie-uppsala.ppn`` is a full partie (three rubbers with every contract
kind, comments and a claimed early end); ``protokoll-1952.ppn`` is the same
kind of evening kept as a score sheet only: no hands, no auction, no play.
``preference-graz.ppn`` is a partie of Austrian Préférence (PREFERENCE.md): a dozen deals
with holds, a forced dealer bid, hand and talon contracts, drop-outs, a give-up and a
fresh ante when the pot ran dry.
All are written in export format by the writer, and validate without error.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from priffe_records import Record, Tag, validate, write
from priffe_records.format.record import Comment
from priffe_records.rules.preference.generate import PrefSpec
from priffe_records.rules.preference.generate import generate_partie as pref_partie
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


def _events(records: list[Record]) -> dict[int, str]:
    """Board number → a remark on what is special about it (empty when nothing)."""
    out: dict[int, str] = {}
    pot = 0
    for i, r in enumerate(records):
        calls = [t.text for t in r.auction.tokens] if r.auction else []
        drop = (r.get("Dropout") or "").split()
        notes = []
        if pot == 0 and i:
            notes.append("potten är tom: alla sätter in på nytt")
        if calls[:2] == ["Pass", "Pass"]:
            notes.append("förhand och mellanhand passar, given måste bjuda")
        if any(calls[j] == calls[k] != "Pass" for j in range(len(calls))
               for k in range(j + 1, len(calls))):
            notes.append("håller budet")
        if r.get("Declarer") in drop:
            notes.append("spelföraren ger upp")
        elif len(drop) == 2:
            notes.append("båda försvararna lägger sig")
        elif drop:
            notes.append("en försvarare lägger sig: stick om två kort")
        if not r.get("Discard"):
            notes.append("handspel, talongen orörd")
        out[i] = "; ".join(notes)
        pot = int(r.get("Pot") or 0)
    return out


def graz() -> list[Record]:
    """The first generated Préférence partie of 12 deals that shows every kind of event."""
    for seed in range(10_000):
        records = pref_partie(seed, spec=PrefSpec(
            players=("Anna Kofler", "Bertil Strand", "Cecilia Huber"),
            event="Préférence i Graz", site="Graz", date="1911.02.04", deals=12))
        text = " ".join(_events(records).values())
        if all(w in text for w in ("tom", "given måste", "håller", "ger upp", "båda",
                                   "stick om två", "handspel")):
            break
    out = []
    for i, r in enumerate(records):
        note = _events(records)[i]
        if note:
            tags = tuple(Tag(t.name, t.value, (Comment(note),), t.section)
                         if t.name == "Auction" else t for t in r.tags)
            r = Record(tags)
        out.append(r)
    out[0] = Record(out[0].tags, (Comment("Avskrift av Cecilias protokoll från Graz; giv, "
                                          "talong och spel antecknade kort för kort"),))
    return out


def main() -> None:
    for name, records in (("partie-uppsala.ppn", uppsala()),
                          ("protokoll-1952.ppn", protokoll()),
                          ("preference-graz.ppn", graz())):
        errors = [f for f in validate(records) if f.is_error]
        assert not errors, errors
        write(records, HERE / name)
        print(f"wrote {name}: {len(records)} records")


if __name__ == "__main__":
    main()
