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

import importlib
import importlib.util
import sys
from functools import cache
from types import ModuleType
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
    """endplay's solver and types, without running its package's ``__init__`` first: that
    imports all of endplay, matplotlib among it (0.5–1.1 s of CPU, more than DDS takes
    for a whole deal). The package is loaded bare (its folder, no ``__init__``) and runs
    its ``__init__`` the first time a name of it is asked for that the two modules did
    not bring, so ``from endplay import Deal`` later in the process still works."""
    if "endplay" not in sys.modules:
        spec = importlib.util.find_spec("endplay")
        assert spec is not None and spec.loader is not None
        bare = ModuleType("endplay")
        bare.__spec__, bare.__file__ = spec, spec.origin
        bare.__path__ = list(spec.submodule_search_locations or ())

        def whole(name: str) -> Any:
            del bare.__getattr__  # once: the real __init__ over the modules loaded
            assert spec.loader is not None
            spec.loader.exec_module(bare)
            return getattr(bare, name)

        bare.__getattr__ = whole  # type: ignore[method-assign]
        sys.modules["endplay"] = bare
    return importlib.import_module("endplay.dds"), importlib.import_module("endplay.types")


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
