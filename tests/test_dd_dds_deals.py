"""DDS and the own solver agree on every card of 200 positive Priffe deals the project's
generator plays (seed 30): the deals DDS now answers by default, checked against the
search that answers where endplay is not installed.

Whole deals are too long for the own search here (ten of them took over three minutes;
their last eleven tricks about 0.5 s each, the last nine 0.06 s), so each deal is cut
after its third trick: the ten tricks left, 40 cards, each card's cost and best cards
and the par, both ways — 29 s of CPU in all. Compiled core only: the pure core's
agreement is proved on the endings of tests/test_dd_dds.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from dd_oracle import ending

from priffe_records.dd import Budget, Deal, Goal, analyse_play, engine
from priffe_records.rules.family import family_for
from priffe_records.rules.priffe.generate import iter_records

pytest.importorskip("endplay")

DEALS, TRICKS_LEFT = 200, 10


def _positive_deals(seed: int) -> Iterator[Deal]:
    """The generator's whole four-hand deals of positive contracts (most tricks wanted),
    one at a time: the first 200 come from about 360 records, so the fixture reads no
    further (a list of all 2,000 records' deals took 4 s of setup in each test process)."""
    for record in iter_records(10 * DEALS, seed):
        family = family_for(record.get("Scoring"))
        deal = family.dd_deal(family.analyse(record, None, False))
        if deal is not None and deal.goal is Goal.MOST and len(deal.played) == 52:
            yield deal


@pytest.fixture(scope="module")
def deals() -> list[Deal]:
    made = list(itertools.islice(_positive_deals(30), DEALS))
    assert len(made) == DEALS
    return made


# In four parts, so the test processes share the 200 deals (the suite's longest test whole).
@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_dds_and_the_own_solver_agree_on_every_card_of_200_generated_deals(
        deals: list[Deal], part: int) -> None:
    for deal in deals[part::4]:
        cut = ending(deal, 13 - TRICKS_LEFT)
        assert isinstance(engine._solver(engine._Game(cut), Budget(), "auto"), engine._Dds)
        theirs, mine = analyse_play(cut), analyse_play(cut, solver="own")
        assert theirs == mine, deal
        assert theirs.complete and len(theirs.cards) == 4 * TRICKS_LEFT
        assert all(c.best is not None for c in theirs.cards)


@pytest.mark.slow
def test_dds_loads_without_the_rest_of_endplay() -> None:
    """endplay's ``__init__`` imports matplotlib (0.5–1.1 s): the solver leaves it out, and
    the whole package is still there for a later ``from endplay import …``."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from priffe_records.dd import dds\n"
            "assert dds.card_values([0x1, 0x2, 0x4, 0x8], 0, [], -1) == {0: 0}\n"
            "print('endplay.dealer' in sys.modules, 'matplotlib' in sys.modules)\n"
            "from endplay import Deal, solve_board\n"
            "import endplay\n"
            "print(endplay.dds.solve_board is solve_board, callable(Deal))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "True", "True"]
