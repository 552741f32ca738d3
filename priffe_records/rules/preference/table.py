"""The three seats of a Préférence table (P1, P2): N, E and S, clockwise, W left empty."""

from __future__ import annotations

from priffe_records.game.cards import Seat

PLAYERS: tuple[Seat, Seat, Seat] = (Seat.N, Seat.E, Seat.S)
_NEXT = {Seat.N: Seat.E, Seat.E: Seat.S, Seat.S: Seat.N}


def next_player(seat: Seat) -> Seat:
    """The next seat clockwise with W skipped (P2); W itself passes to N."""
    return _NEXT.get(seat, Seat.N)


def from_seat(seat: Seat) -> tuple[Seat, Seat, Seat]:
    """The three players clockwise, starting at ``seat``."""
    second = next_player(seat)
    return (seat, second, next_player(second))
