"""What a family tells the replay about one deal: plain facts, no view and no family type.

The replay (``replay/``) may import no family package, and a family may not import the
replay; so a family hands over these facts through its ``replay_facts`` hook, and the
replay words and draws them. Every fact is the rules engine's own (the validator's trick
replay, the partie's books), so the replay and ``validate`` agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from priffe_records.format.record import Record
from priffe_records.game.cards import Card, Seat
from priffe_records.game.language import Message
from priffe_records.rules.findings import Finding
from priffe_records.rules.tricks import Trick


@dataclass(frozen=True, slots=True)
class CallFact:
    """One call of the auction: who, the bid in words (``None``: unreadable), a hold."""

    seat: Seat
    words: Message | None
    hold: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayFacts:
    """One record of a partie as its family checked it; ``None`` where it is not known.

    ``hands`` are the cards each seat played from (a declarer's after taking the talon
    and discarding), ``order`` the seats that play the tricks (fewer after a drop-out).
    """

    record: Record
    index: int  # 1-based position in the records given
    seats: tuple[Seat, ...]  # the seats of the game, in the order they are shown
    players: Mapping[Seat, str | None]
    dealer: Seat | None
    first: Seat | None  # who calls first (the dealer's left)
    declarer: Seat | None
    contract: Message | None
    discard: tuple[Card, ...] | None
    dropouts: tuple[Seat, ...]  # drop-outs and a give-up, in order
    gave_up: bool
    calls: tuple[CallFact, ...] | None  # None: the record has no auction
    hands: Mapping[Seat, tuple[Card, ...] | None] | None  # None: no cards dealt
    talon: tuple[Card, ...] | None
    tricks: tuple[Trick, ...]
    order: tuple[Seat, ...]
    won: Mapping[Seat, int] | None  # tricks taken per seat
    ante: int = 0  # paid into an empty pot before this deal, per player
    payments: Mapping[Seat, int] | None = None
    pot: int | None = None  # after the deal
    balances: Mapping[str, int] | None = None  # by player name (seat letter when nameless)
    findings: tuple[Finding, ...] = ()

    def player(self, seat: Seat) -> str | None:
        return self.players.get(seat)
