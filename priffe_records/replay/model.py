"""What a replay shows, deal by deal: the model both the terminal and the HTML viewer draw.

The facts come from the rules engine only, through each family's ``replay_facts`` hook
(:class:`~priffe_records.rules.replay_facts.ReplayFacts`): the validator's trick replay
says who led and who won each trick, the partie's books what the deal scores. This
module runs the validator once over every record and hands each family its parties,
so a viewer never re-implements a rule and never asks which game it shows;
:mod:`priffe_records.replay.wording` words the facts in Swedish or English.

>>> from priffe_records.format.reader import loads
>>> text = '[Board "3"]\\n[Contract "Hjärter"]\\n[Declarer "E"]\\n[Result "NS 8 EW 5"]\\n'
>>> r = build_replays(list(loads(text)))[0]
>>> r.playable, r.contract.render("sv")
(False, 'Hjärter')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.rules.family import (
    GameFamily,
    PartieOutcome,
    default_family,
    families,
    family_of,
)
from priffe_records.rules.findings import Finding
from priffe_records.rules.partie import parties
from priffe_records.rules.replay_facts import (
    CallView,
    CardView,
    ReplayFacts,
    ScoreLine,
    Strays,
    TrickView,
    findings_by_record,
)

__all__ = ["CallView", "CardView", "DealReplay", "ScoreLine", "TrickView", "build_replays"]

# One record as the replay shows it: its family's facts (the model is the facts).
DealReplay = ReplayFacts


def build_replays(records: Sequence[Record | BadRecord], options: object = None
                  ) -> list[DealReplay]:
    """Run the validator over the records and arrange each one for replay, each by its
    own family.

    All records are given (not just the one shown) so the rubber's games and totals
    (or the pot) follow it from its first deal, exactly as ``priffe validate`` sees
    them; an unreadable record has no replay, but the books hear of it. ``options``
    are the default family's (``--preset``) for records without a Scoring tag, ``None``
    for its own default.
    """
    facts: dict[int, ReplayFacts] = {}
    found: list[Finding] = []
    for p in parties(records, options=options):
        facts.update(_facts(p, families()))
        found.extend(p.findings)
    strays = [(i, rec) for i, rec in enumerate(records, 1)
              if i not in facts and not isinstance(rec, BadRecord)]
    if strays:
        facts.update(_strays(strays, options, findings_by_record(found)))
    return [facts[i] for i in sorted(facts)]


def _facts(p: PartieOutcome, asked: Sequence[GameFamily[Any]]) -> Mapping[int, ReplayFacts]:
    """A partie's records from the first family whose hook answers for it (a family
    without the replay group answers none)."""
    return next((facts for fam in asked if (facts := fam.replay_facts(p))), {})


def _strays(strays: list[tuple[int, Record]], options: object,
            found: Mapping[int, list[Finding]]) -> dict[int, ReplayFacts]:
    """Records of no partie (a deal diagram, another game's record), each as its own
    family analyses it; one its family gives no facts for is the default family's
    (which says why it cannot replay it)."""
    out: dict[int, ReplayFacts] = {}
    default = default_family()
    for i, rec in strays:
        own = family_of(rec)
        for fam in (own,) if own is default else (own, default):
            stray = Strays((fam.analyse(rec, options, False).placed(i),),
                           tuple(found.get(i, ())))
            facts = _facts(stray, [fam])
            if facts:
                out.update(facts)
                break
    return out
