"""What a deal pays (P11, P12), and the pot and balances it leaves (P13).

The declarer's gain when he makes depends on the pot (at most what it held
before the deal), so a deal's payments are described first
(:class:`Payments`) and settled against the pot by :func:`settle`.

>>> p = payments(Seat.S, Seat.E, {Seat.N: 5, Seat.E: 4, Seat.S: 1}, (), False)
>>> s = settle(p, 30)
>>> s.score, s.pot
({<Seat.N: 'N'>: 1, <Seat.E: 'E'>: -20, <Seat.S: 'S'>: -11}, 60)
"""

from __future__ import annotations

from dataclasses import dataclass

from priffe_records.game.cards import Seat

from .table import PLAYERS

MADE = 6  # P11
DEFENDER_NEEDS = 2  # P11
WIN = 10  # P12
FAIL = 20
DEFENDER_FAIL = 10
DEFENDER_FEE = 1
GIVE_UP_EACH = 3
GIVE_UP_ONE = 5


@dataclass(frozen=True, slots=True)
class Payments:
    """The payments of one deal before the pot is known.

    ``from_pot`` is the declarer when he takes his 10 (capped by the pot);
    ``to_pot`` what each seat pays in; ``transfers`` (payer, payee, amount).
    """

    from_pot: Seat | None = None
    to_pot: tuple[tuple[Seat, int], ...] = ()
    transfers: tuple[tuple[Seat, Seat, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Settled:
    score: dict[Seat, int]  # this deal's payments by seat, antes not included
    pot: int  # the pot after the deal


def payments(dealer: Seat | None, declarer: Seat, tricks: dict[Seat, int] | None,
             out: tuple[Seat, ...], gave_up: bool) -> Payments | None:
    """P12 for one deal; ``out`` are the defenders who dropped out (in order).

    ``None`` when the deal cannot be settled: tricks unknown, or a defender
    made his 2 tricks but the dealer who pays him is unknown.
    """
    defenders = [s for s in PLAYERS if s is not declarer]
    staying = [s for s in defenders if s not in out]
    if gave_up:
        each = GIVE_UP_EACH if len(staying) == 2 else GIVE_UP_ONE
        return Payments(transfers=tuple((declarer, d, each) for d in staying))
    if not staying:
        return Payments(from_pot=declarer)
    if tricks is None:
        return None
    to_pot: list[tuple[Seat, int]] = []
    transfers: list[tuple[Seat, Seat, int]] = []
    made = tricks.get(declarer, 0) >= MADE
    if not made:
        to_pot.append((declarer, FAIL))
    for d in staying:
        if tricks.get(d, 0) < DEFENDER_NEEDS:
            to_pot.append((d, DEFENDER_FAIL))
        elif d is not dealer:
            if dealer is None:
                return None
            transfers.append((dealer, d, DEFENDER_FEE))
    return Payments(declarer if made else None, tuple(to_pot), tuple(transfers))


def settle(p: Payments, pot_before: int) -> Settled:
    """Score and pot after the deal; ``pot_before`` includes this deal's antes."""
    score = dict.fromkeys(PLAYERS, 0)
    pot = pot_before
    if p.from_pot is not None:
        take = min(WIN, pot_before)
        score[p.from_pot] += take
        pot -= take
    for seat, amount in p.to_pot:
        score[seat] -= amount
        pot += amount
    for payer, payee, amount in p.transfers:
        score[payer] -= amount
        score[payee] += amount
    return Settled(score, pot)
