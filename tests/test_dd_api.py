"""``analyse_play`` for a user who waits: progress after each card, Ctrl-C keeping what is
known, and the sweep in a worker process (``background``) giving exactly the in-process
answer, within the budget, leaving no process behind, where only spawn exists too."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import pairwise
from multiprocessing.process import BaseProcess
from pathlib import Path

import pytest
from dd_oracle import random_ending, with_random_play

from priffe_records.dd import (
    Budget,
    Deal,
    PlayAnalysis,
    Progress,
    SearchLost,
    analyse_play,
    engine,
    workers,
)
from priffe_records.format.reader import loads
from priffe_records.format.record import Record
from priffe_records.replay.dd import analyse

UPPSALA = Path(__file__).parent.parent / "examples" / "partie-uppsala.ppn"


def _played(seed: int, players: int, tricks: int) -> Deal:
    """A random ending from its first card, played to the end by random legal cards."""
    deal = random_ending(random.Random(seed), players, tricks)
    start = Deal(**{**deal.__dict__, "played": ()})
    return with_random_play(random.Random(seed + 1), start, players * tricks)


def _gone(pids: list[int]) -> bool:
    """Every process of ``pids`` has ended and been reaped (none left behind)."""
    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return not multiprocessing.active_children() and not any(alive(p) for p in pids)


def test_progress_is_told_after_each_card_from_the_last_back() -> None:
    deal = _played(5, 4, 5)
    told: list[Progress] = []
    analysis = analyse_play(deal, progress=told.append)
    assert analysis.complete
    free = sum(c.cost == 0 for c in analysis.cards)  # their best cards come after the par
    assert [p.analysed for p in told] == [*range(1, 21), *[20] * (1 + free)]
    assert {(p.cards, p.tricks) for p in told} == {(20, 5)}
    # trick k is whole once its first card (played 4 (k - 1)) is known
    assert [p.trick for p in told][:5] == [None, None, None, 5, 5]
    assert told[-1].trick == 1
    assert all(a.seconds <= b.seconds for a, b in pairwise(told))


def test_the_worker_gives_the_in_process_answer() -> None:
    """Every card's cost and best cards, positions where a card cost a trick among them;
    and a node budget stops the worker where it stops this process."""
    for seed, players, tricks in [(1, 4, 5), (2, 3, 5), (4, 2, 6)]:
        deal = _played(seed, players, tricks)
        here = analyse_play(deal)
        assert any(c.cost for c in here.cards), seed
        assert analyse_play(deal, background=True) == here, seed
    deal = _played(7, 4, 5)
    for nodes in (10, 50):
        part = analyse_play(deal, Budget(nodes=nodes))
        assert not part.complete and analyse_play(deal, Budget(nodes=nodes),
                                                  background=True) == part


def _board_2() -> Record:
    """The Uppsala partie's Tvångsnoll: its first tricks take minutes to search."""
    for r in loads(UPPSALA.read_text("utf-8")):
        if isinstance(r, Record) and r.get("Board") == "2":
            return r
    raise AssertionError("no board 2")


def test_the_seconds_are_wall_time_from_the_call_and_the_worker_ends() -> None:
    pids: list[int] = []

    def note(p: Progress) -> None:
        pids.extend(c.pid or 0 for c in multiprocessing.active_children())

    record = _board_2()
    started = time.perf_counter()
    view = analyse(record, Budget(seconds=1.0), progress=note, background=True)
    took = time.perf_counter() - started
    assert view is not None and not view.play.complete and not view.play.interrupted
    # the deadline, then the worker's end (the whole search takes minutes); the margin is
    # for a loaded machine
    assert 1.0 <= took < 15.0
    known = [c.cost is not None for c in view.play.cards]
    assert known == sorted(known) and known[-1]
    assert len(set(pids)) == 1 and _gone(pids)


def _interrupted_after(cards: int) -> Callable[[Progress], None]:
    """A progress that raises Ctrl-C once ``cards`` are known."""
    def tell(p: Progress) -> None:
        if p.analysed >= cards:
            raise KeyboardInterrupt
    return tell


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pid of every process started meanwhile, noted at its start: a worker may end
    before a progress report looks at the parent's children (the sweep of these small
    endings takes milliseconds)."""
    pids: list[int] = []
    start = BaseProcess.start

    def noted(self: BaseProcess) -> None:
        start(self)
        pids.append(self.pid or 0)
    monkeypatch.setattr(BaseProcess, "start", noted)
    return pids


@pytest.mark.parametrize("background", [False, True])
def test_ctrl_c_keeps_the_cards_known(background: bool, started: list[int]) -> None:
    deal = _played(11, 4, 5)
    pids = started
    part = analyse_play(deal, progress=_interrupted_after(6),
                        background=background, keep_on_interrupt=True)
    assert part.interrupted and not part.complete and part.par is None
    assert [c.cost is not None for c in part.cards] == [False] * 14 + [True] * 6
    whole = analyse_play(deal)
    assert [c.cost for c in part.cards[14:]] == [c.cost for c in whole.cards[14:]]
    assert all(c.best in (None, w.best) for c, w in zip(part.cards, whole.cards, strict=True))
    assert len(set(pids)) == background and _gone(pids)


@pytest.mark.parametrize("background", [False, True])
def test_ctrl_c_is_raised_unless_asked_to_keep(background: bool, started: list[int]
                                                ) -> None:
    with pytest.raises(KeyboardInterrupt):
        analyse_play(_played(11, 4, 5), progress=_interrupted_after(3),
                     background=background)
    assert len(set(started)) == background and _gone(started)


def test_a_failing_worker_is_an_error_and_ends(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    if workers.context().get_start_method() != "fork":
        pytest.skip("the failure is planted by patching the parent's module (fork)")
    said = tmp_path / "pid"

    def broken(*_: object) -> Iterator[tuple[int, int, int]]:
        said.write_text(str(os.getpid()))  # the worker names itself: it may end before
        yield 19, 0, 0                     # the parent's first look at its children
        raise ValueError("planted")

    monkeypatch.setattr(workers, "steps", broken)
    with pytest.raises(SearchLost, match="the search failed: ValueError: planted"):
        analyse_play(_played(11, 4, 5), background=True)
    pid = int(said.read_text())
    assert pid != os.getpid() and _gone([pid])


def kill_the_worker(p: Progress) -> None:
    """A progress that kills the worker (as the kernel does out of memory) at once."""
    for child in multiprocessing.active_children():
        if child.name == "priffe-dd" and child.pid:
            os.kill(child.pid, signal.SIGKILL)


def test_a_killed_worker_is_a_located_loss_not_a_traceback() -> None:
    with pytest.raises(SearchLost) as lost:
        analyse(_board_2(), Budget(seconds=60), progress=kill_the_worker, background=True)
    assert str(lost.value) == ("the search ended without an answer (its process ended, exit "
                               "code -9)")
    assert not multiprocessing.active_children()


def test_workers_start_where_only_spawn_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    """A spawned worker imports the package afresh: the deal and the steps pickle, the
    target is a module function."""
    monkeypatch.setattr(workers, "context", lambda: multiprocessing.get_context("spawn"))
    deal = _played(13, 4, 6)
    here = analyse_play(deal)
    there: PlayAnalysis = analyse_play(deal, background=True)
    assert there == here and here.complete


def test_every_cost_comes_before_the_best_cards_of_the_cards_that_cost_nothing() -> None:
    """A cost needs one null-window test per other run; proving the runs as good as the
    card played (its best cards, not shown for a card that cost nothing) comes last, so a
    budget that ends there leaves only those best cards unknown."""
    deal = _played(5, 4, 5)
    game = engine._Game(deal)
    own = engine._Own(game, Budget())
    steps = list(engine.sweep(game, own))
    par = next(k for k, step in enumerate(steps) if step[0] < 0)
    assert sorted(i for i, _, _ in steps[:par]) == list(range(20))
    later = steps[par + 1:]
    assert later and all(cost == 0 for _, cost, _ in later)
    assert {i for i, _, best in steps[:par] if best is None} == {i for i, _, _ in later}
    whole = analyse_play(deal)
    for nodes in range(0, 200_000, 50):  # the first budget that reaches the par
        part = analyse_play(deal, Budget(nodes=nodes))
        if part.complete:
            break
    assert part.par == whole.par and [c.cost for c in part.cards] == [c.cost for c in
                                                                        whole.cards]
    assert any(c.best is None for c in part.cards)
    costs = analyse_play(deal, every_best=False)  # what a replay asks: it ends at the par
    assert costs.complete and costs.par == whole.par
    assert costs.cards == tuple(c if c.cost else replace(c, best=None) for c in whole.cards)
