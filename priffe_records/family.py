"""Game families: what the engine needs to know about a game, behind one small interface.

The driver (:mod:`priffe_records.partie`) never names Priffe: it asks the
registry for the family a record's ``Scoring`` tag selects and lets that
family analyse deals and keep the partie's books. A second family (the
three-player Austrian Préférence of RULES.md) would add an object with
this shape to :data:`FAMILIES`; nothing else would change.

>>> family_for(None).name, family_for("Priffe;preset=en").name
('Priffe', 'Priffe')
>>> len(PRIFFE.deck), PRIFFE.tricks
(52, 13)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .analysis import DealOutcome, analyse_record
from .cards import FULL_DECK, SEATS, Card, Seat
from .options import FAMILY_WORD, is_unspecified
from .record import Location, Record
from .rubber import DealLine, PartieResult, PartieScorer


class PartieBooks(Protocol):
    """The running books of one partie (rubbers for Priffe, a pot for Préférence)."""

    def add(self, o: DealOutcome) -> DealLine: ...

    def lost(self, where: Location, index: int) -> None: ...

    def close(self) -> PartieResult: ...


class GameFamily(Protocol):
    """Deck, seats, trick count, deal analysis and partie bookkeeping of one game."""

    @property
    def name(self) -> str: ...

    @property
    def deck(self) -> frozenset[Card]: ...

    @property
    def players(self) -> tuple[Seat, ...]: ...

    @property
    def tricks(self) -> int: ...

    def accepts(self, scoring: str | None) -> bool: ...

    def analyse(self, record: Record, default_preset: str, conventions: bool) -> DealOutcome: ...

    def books(self, event: str | None, site: str | None, date: str | None) -> PartieBooks: ...


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

    def analyse(self, record: Record, default_preset: str, conventions: bool) -> DealOutcome:
        return analyse_record(record, default_preset, conventions)

    def books(self, event: str | None, site: str | None, date: str | None) -> PartieBooks:
        return PartieScorer(event, site, date)


PRIFFE = Priffe()
FAMILIES: tuple[GameFamily, ...] = (PRIFFE,)


def family_for(scoring: str | None) -> GameFamily:
    """The family a Scoring value selects; Priffe (which reports "not a Priffe record")
    when none claims it."""
    for fam in FAMILIES:
        if fam.accepts(scoring):
            return fam
    return PRIFFE
