"""A checked Préférence deal as the double-dummy solver's position (P7–P10).

The declarer plays alone against the defenders still in (P9: two hands when one
dropped out), with his hand after the talon and the discard (P7), the trumps he
named (P8), and leads to the first trick; ``must_trump`` (P10) binds the solver's
players as it bound the real ones. The measured side is the declarer, who wants
the most tricks.

>>> from priffe_records.format.reader import loads
>>> from priffe_records.rules.preference.analysis import analyse
>>> text = '''[Scoring "Preference"]
... [Dealer "S"]
... [Deal "S:87.T97.T98.JT - AKQ9.A8.K7.A7 JT.KQJ.AQJ.KQ"]
... [Talon "C9 C8"]
... [Declarer "E"]
... [Contract "Hearts"]
... [Discard "ST SJ"]
... [Dropout "S"]
... [Play "E"]
... HK HA
... *'''
>>> deal = dd_deal(analyse(next(iter(loads(text)))))
>>> [s.value for s in deal.order], deal.trump.value, [str(c) for c in deal.played]
(['E', 'N'], 'H', ['HK', 'HA'])
>>> sorted(str(c) for c in deal.hands[deal.leader] if c.suit.value in "SC")  # talon in, ♠ out
['C8', 'C9', 'CK', 'CQ']
"""

from __future__ import annotations

from priffe_records.dd import Deal, Goal
from priffe_records.rules.dd_deal import solver_deal

from .analysis import PrefOutcome, playing_hands
from .play import play_seats


def dd_deal(outcome: PrefOutcome) -> Deal | None:
    """The deal for the solver, or ``None`` when nothing is played (a give-up, both
    defenders out), a hand is unknown, or no card of the play can be read."""
    declarer, contract, play = outcome.declarer, outcome.contract, outcome.play
    if declarer is None or contract is None or play is None or outcome.no_play:
        return None
    hands = playing_hands(outcome.cards, declarer, contract, outcome.discard)
    order = play_seats(declarer, outcome.out)
    return solver_deal(hands, order, contract.suit, declarer, frozenset({declarer}),
                       Goal.MOST, outcome.options.must_trump, play.tricks)
