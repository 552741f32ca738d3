"""The Préférence family object: what the shared partie driver needs to know about the game.

>>> PREFERENCE.accepts("Preference;ante=5"), PREFERENCE.accepts("Priffe"), len(PREFERENCE.deck)
(True, False, 32)
"""

from __future__ import annotations

from dataclasses import dataclass

from priffe_records.format.record import Record
from priffe_records.game.cards import Card, Seat

from .analysis import PrefOutcome, analyse
from .books import PrefBooks
from .deal import DECK
from .options import FAMILY_WORD, is_preference
from .table import PLAYERS


@dataclass(frozen=True, slots=True)
class Preference:
    """Three players at N, E, S, 32 cards and a talon, 10 tricks, a pot (PREFERENCE.md)."""

    name: str = FAMILY_WORD
    deck: frozenset[Card] = DECK
    players: tuple[Seat, ...] = PLAYERS
    tricks: int = 10

    def accepts(self, scoring: str | None) -> bool:
        return is_preference(scoring)

    def analyse(self, record: Record, default: object, conventions: bool) -> PrefOutcome:
        """``default`` (Priffe's options for records without a Scoring tag) does not apply:
        a Préférence record always names its game."""
        return analyse(record)

    def books(self, event: str | None, site: str | None, date: str | None) -> PrefBooks:
        return PrefBooks(event, site, date)


PREFERENCE = Preference()
