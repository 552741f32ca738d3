"""The three seats of a Préférence table (P1, P2): N, E and S, clockwise, W left empty."""

from __future__ import annotations

from collections.abc import Mapping

from priffe_records.game.cards import Seat
from priffe_records.game.memo import Memo
from priffe_records.rules.preference.bids import parse_seat_numbers

PLAYERS: tuple[Seat, Seat, Seat] = (Seat.N, Seat.E, Seat.S)
_NEXT = {Seat.N: Seat.E, Seat.E: Seat.S, Seat.S: Seat.N}


def next_player(seat: Seat) -> Seat:
    """The next seat clockwise with W skipped (P2); W itself passes to N."""
    return _NEXT.get(seat, Seat.N)


def from_seat(seat: Seat) -> tuple[Seat, Seat, Seat]:
    """The three players clockwise, starting at ``seat``."""
    second = next_player(seat)
    return (seat, second, next_player(second))


_NUMBERS: Memo[tuple[str, bool], dict[Seat, int]] = Memo()
_SEAT = {s.value: s for s in PLAYERS}


def seat_numbers(text: str, *, scores: bool) -> Mapping[Seat, int]:
    """``parse_seat_numbers`` by seat, remembered by text (a partie repeats its Results and
    Scores): read only, as it is shared. Raises ``ValueError`` as it does."""
    got = _NUMBERS.get((text, scores))
    if got is None:
        raw = parse_seat_numbers(text, scores=scores)
        got = _NUMBERS.keep((text, scores), {_SEAT[s]: n for s, n in raw.items()})
    return got
