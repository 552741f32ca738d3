"""The play (P10): ten tricks of three cards, or of two when a defender dropped out.

The trick replay is the one Priffe uses (it takes the seats that play and
the number of tricks); what differs is said here: the declarer leads, the
declarer's hand is the one after the talon and discard, and every finding
carries P10.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from priffe_records.format.record import Section
from priffe_records.game.cards import Deal, Hand, Seat, Suit
from priffe_records.rules.findings import Finding
from priffe_records.rules.priffe.play import PlayResult, replay

from .table import from_seat

_PRIFFE_PLAY_RULE = re.compile(r"\bR1[123]\b")


@dataclass(frozen=True, slots=True)
class PrefPlay:
    """The replayed play: its tricks, tricks won per seat, and whether that is final."""

    result: PlayResult
    seats: tuple[Seat, ...]
    won: dict[Seat, int]
    complete: bool
    claimed: bool
    findings: tuple[Finding, ...]


def _as_p10(f: Finding) -> Finding:
    return replace(f, rule="P10", message=_PRIFFE_PLAY_RULE.sub("P10", f.message))


def play_seats(declarer: Seat, out: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats that play, in column order from the declarer (P10)."""
    return tuple(s for s in from_seat(declarer) if s not in out)


def replay_play(section: Section, declarer: Seat, out: tuple[Seat, ...],
                hands: dict[Seat, Hand | None], trump: Suit | None, must_trump: bool) -> PrefPlay:
    """Replay the Play section; ``hands`` are the hands as played (declarer after discard)."""
    seats = play_seats(declarer, out)
    deal = Deal(tuple(hands.get(s) if s in seats else None  # type: ignore[arg-type]
                      for s in (Seat.N, Seat.E, Seat.S, Seat.W)))
    res = replay(section, declarer, deal, trump, must_trump=must_trump, players=seats,
                 tricks=10)
    res = replace(res, tricks=tuple(replace(t, findings=tuple(_as_p10(f) for f in t.findings))
                                    for t in res.tricks),
                  findings=tuple(_as_p10(f) for f in res.findings))
    won = dict.fromkeys(seats, 0)
    decided = 0
    for t in res.tricks:
        if t.winner is not None and len(t.cards) == len(seats):
            won[t.winner] += 1
            decided += 1
    complete = decided == 10
    return PrefPlay(res, seats, won, complete, res.claimed, res.findings)
