"""A deal's analysis in a worker process, while the caller's process only waits.

The compiled search holds the interpreter for as long as one search runs (long, in an
early misère position), so in the caller's process neither a progress line nor
Ctrl-C could be answered meanwhile. Here the backward sweep runs in a worker that sends
each card's cost as soon as it is known; the caller waits on that pipe a quarter of a
second at a time, stops at the budget's deadline or at Ctrl-C, and ends the worker on
every way out.

The worker ignores SIGINT (a terminal sends it to the whole process group: the caller
decides), searches within the same budget (so a worker whose caller was killed ends by
itself at the deadline) and ends when its pipe closes. What it sends is plain ints.

One worker, not two: a second one taking a share of each early position's tests (or
every other position) misses the first one's table entries, so together they search
far more nodes than one, and the longer share is hardly shorter than one process's
whole (measured on board 2 of ``examples/partie-uppsala.ppn``; the numbers are in the
commit that says so).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from multiprocessing.context import DefaultContext, ForkContext, SpawnContext
from multiprocessing.process import BaseProcess

from priffe_records.dd.core import Exhausted
from priffe_records.dd.engine import Budget, Deal, Done, Known, SearchLost, Solver, steps
from priffe_records.game.language import msg

TICK = 0.25  # seconds between two progress calls while a search runs
_JOIN = 2.0  # seconds a terminated worker gets to end before it is killed
_DONE = "done"

Context = DefaultContext | ForkContext | SpawnContext


def context() -> Context:
    """The start method: the platform's own (fork on Linux, spawn on macOS and Windows)."""
    return multiprocessing.get_context()


def sweep_in_worker(deal: Deal, budget: Budget, solver: Solver, known: Known,
                    every_best: bool = True, done: Done | None = None) -> None:
    """Fill ``known`` from a sweep in a worker process until it ends, the budget's seconds
    are spent (``Exhausted``) or Ctrl-C (``KeyboardInterrupt``); the worker does not
    outlive the call."""
    deadline = None if budget.seconds is None else known.started + budget.seconds
    inbox, outbox = context().Pipe(duplex=False)
    worker: BaseProcess | None = None
    try:
        worker = context().Process(target=_sweep,
                                   args=(deal, budget, solver, outbox, every_best, done),
                                   name="priffe-dd", daemon=True)
        with _ctrl_c_held():
            worker.start()
        outbox.close()
        _wait(inbox, deadline, known, worker)
    finally:
        inbox.close()
        outbox.close()
        if worker is not None and worker.pid is not None:
            _end(worker)


def _wait(inbox: Connection, deadline: float | None, known: Known, worker: BaseProcess
          ) -> None:
    """Take the sweep's steps as they come, telling the progress between them."""
    while True:
        wait = TICK if deadline is None else min(TICK, deadline - time.perf_counter())
        if wait <= 0:
            raise Exhausted
        if not inbox.poll(wait):
            known.tell()
            continue
        try:
            step = inbox.recv()
        except EOFError:  # the worker died without a word: killed, out of memory
            worker.join(_JOIN)
            raise SearchLost(msg("the search ended without an answer (its process ended, "
                                 "exit code {code})", code=str(worker.exitcode))) from None
        if step == _DONE:
            return
        if isinstance(step, str):
            raise SearchLost(msg("the search failed: {error}", error=step))
        known.add(step)


def _end(worker: BaseProcess) -> None:
    """Stop the worker and wait for it: nothing is left behind, also on Ctrl-C."""
    worker.terminate()
    worker.join(_JOIN)
    if worker.is_alive():  # pragma: no cover - SIGTERM is not ignored
        worker.kill()
        worker.join()


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """SIGINT held back while the worker starts: one arriving then reaches this process
    afterwards, never the worker before it ignores SIGINT (it would die of it)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows: no SIGINT
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _sweep(deal: Deal, budget: Budget, solver: Solver, outbox: Connection,
           every_best: bool, done: Done | None) -> None:
    """The worker: the sweep's steps into ``outbox``, then done (or why it failed)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # held back while it started: now ignored
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        for step in steps(deal, budget, solver, every_best, done):
            outbox.send(step)
        outbox.send(_DONE)
    except Exhausted:
        outbox.send(_DONE)
    except (BrokenPipeError, EOFError):  # the caller is gone
        pass
    except Exception as e:  # our bug: the caller says so (the text is for a bug report)
        outbox.send(f"{type(e).__name__}: {e}")
