"""Priffe's positive contracts through DDS, the bridge solver (endplay, a dependency
where its wheel installs).

Four hands of N E S W, partnerships, most tricks wanted and no must-trump rule is
bridge play: DDS solves such a position in milliseconds where the own search takes
far longer (board 7 of examples/partie-uppsala.ppn: 13.8 s of CPU). endplay is a
dependency on the platforms it has wheels for (pyproject.toml's marker); elsewhere the
own solver answers the same (tests/test_dd_dds.py and tests/test_dd_dds_deals.py
compare them card by card).
"""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

from priffe_records.game.tricks import CARDS

_PLAYERS = ("north", "east", "south", "west")
_DENOMS = ("spades", "hearts", "diamonds", "clubs")


@cache
def available() -> bool:
    """Whether endplay (and with it DDS) is installed."""
    return importlib.util.find_spec("endplay") is not None


def fits(four: bool, bridge_order: bool, most: bool, must_trump: bool,
         partnership: bool) -> bool:
    """Whether a deal is bridge play DDS can solve: four hands in the order N E S W, the
    measured side a partnership wanting most tricks, no must-trump rule."""
    return four and bridge_order and most and not must_trump and partnership


@cache
def _endplay() -> Any:
    import endplay.dds as dds
    from endplay import types

    return dds, types


def card_values(hands: list[int], leader: int, trick: list[int], trump: int
                ) -> dict[int, int]:
    """Each legal card id of the player to move -> the tricks his partnership takes from
    the current trick on (DDS's answer). ``hands`` are N E S W without ``trick``'s cards."""
    dds, types = _endplay()
    deal = types.Deal()
    full = list(hands)
    for i, card in enumerate(trick):
        full[(leader + i) % 4] |= 1 << card
    for seat, mask in enumerate(full):
        hand = getattr(deal, _PLAYERS[seat])
        while mask:
            low = mask & -mask
            hand.add(types.Card(str(CARDS[low.bit_length() - 1])))
            mask ^= low
    deal.first = getattr(types.Player, _PLAYERS[leader])
    deal.trump = types.Denom.nt if trump < 0 else getattr(types.Denom, _DENOMS[trump])
    for card in trick:
        deal.play(types.Card(str(CARDS[card])))
    out: dict[int, int] = {}
    for card, tricks in dds.solve_board(deal):
        # endplay: suits S H D C as 0..3, a rank as the bit 4 << rank (two = 0)
        out[card.suit.value * 13 + card.rank.value.bit_length() - 3] = tricks
    return out
