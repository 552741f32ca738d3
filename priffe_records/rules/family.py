"""Game families: what the engine needs to know about a game, behind one small interface.

The driver (:mod:`priffe_records.rules.partie`) never names Priffe: it asks the
registry for the family a record's ``Scoring`` tag selects and lets that
family analyse deals and keep the partie's books. A second family (the
three-player Austrian Préférence of PREFERENCE.md) is a sibling package of
``rules/priffe/`` whose family object is added to :data:`FAMILIES`.

>>> family_for(None).name, family_for("Priffe;preset=en").name
('Priffe', 'Priffe')
"""

from __future__ import annotations

from typing import Protocol

from priffe_records.format.record import Location, Record
from priffe_records.game.cards import Card, Seat
from priffe_records.rules.priffe.analysis import DealOutcome
from priffe_records.rules.priffe.family import PRIFFE
from priffe_records.rules.priffe.options import Options
from priffe_records.rules.priffe.rubber import DealLine, PartieResult


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

    def analyse(self, record: Record, default: Options, conventions: bool) -> DealOutcome: ...

    def books(self, event: str | None, site: str | None, date: str | None) -> PartieBooks: ...


FAMILIES: tuple[GameFamily, ...] = (PRIFFE,)


def family_for(scoring: str | None) -> GameFamily:
    """The family a Scoring value selects; Priffe (which reports "not a Priffe record")
    when none claims it."""
    for fam in FAMILIES:
        if fam.accepts(scoring):
            return fam
    return PRIFFE
