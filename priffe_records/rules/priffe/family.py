"""The Priffe family object: what the shared partie driver needs to know about Priffe.

>>> len(PRIFFE.deck), PRIFFE.tricks
(52, 13)
"""

from __future__ import annotations

from dataclasses import dataclass

from priffe_records.format.record import Record
from priffe_records.game.cards import FULL_DECK, SEATS, Card, Seat
from priffe_records.rules.priffe.analysis import DealOutcome, analyse_record
from priffe_records.rules.priffe.options import FAMILY_WORD, Options, is_unspecified
from priffe_records.rules.priffe.rubber import PartieScorer


@dataclass(frozen=True, slots=True)
class Priffe:
    """Four players in two partnerships, 52 cards, 13 tricks, rubbers (RULES.md R1–R24)."""

    name: str = FAMILY_WORD
    deck: frozenset[Card] = FULL_DECK
    players: tuple[Seat, ...] = SEATS
    tricks: int = 13

    def accepts(self, scoring: str | None) -> bool:
        return is_unspecified(scoring) or str(scoring).split(";")[0].strip().casefold() == \
            self.name.casefold()

    def analyse(self, record: Record, default: Options, conventions: bool) -> DealOutcome:
        return analyse_record(record, default, conventions)

    def books(self, event: str | None, site: str | None, date: str | None) -> PartieScorer:
        return PartieScorer(event, site, date)


PRIFFE = Priffe()
