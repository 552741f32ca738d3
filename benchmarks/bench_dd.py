"""Double-dummy analysis against the speed aims of issue 22, CPU seconds, median and max.

    python benchmarks/bench_dd.py [--deals 5] [--seed 0] [--budget 60] [--cores compiled pure]

Hands are real-looking: the complete Deal tags of examples/*.ppn first, then deals
the Priffe generator makes; Préférence hands are dealt from its 32-card deck. The
play is a seeded random legal play (the analysis costs the same for any play).

| aim | what is timed | target |
|---|---|---|
| pref | Préférence, three hands of ten (must_trump), every card of the deal | 0.2 s |
| pref2 | the same after a drop-out: two hands | 0.2 s |
| positive | Priffe Spela/Hjärter/Ruter, every card of the deal (DDS when endplay is there) | 1 s |
| misere4 | Priffe Noll, every card from trick 4 on | 1 s |
| misere7 | the same from trick 7 on: seconds, not minutes, to compare nodes | report |
| misere1 | Priffe Noll from the opening lead, within ``--budget`` s (replay's default) | report |
| dds-own | one positive position of 7 tricks left: DDS, then the own solver | report |
| board2 | partie-uppsala board 2's Tvångsnoll from its opening lead on, nodes capped | report |
| uppsala | every card's cost of each partie-uppsala deal, own and auto (DDS) | ≤ 3 s, 10 s |

Each aim's row prints median and max CPU, the median's ratio to the target, the own
search's nodes (median), how many deals the budget let finish and how many of their
cards it analysed (the last ones first). The board2 lines time the replay's hard case
(``priffe replay examples/partie-uppsala.ppn --board 2 --dd``): the deal's value on a
fresh search from the opening lead, after the first card and from tricks 2, 3 and 4,
each stopped after ``--board2-nodes`` nodes (``?`` and ``>`` when the cap stopped it).
The budget is wall time (what a user waits), so under load it buys less CPU. Nothing
is asserted. The aims run twice in one run: on the compiled core (when the build made
one) and on ``core.py`` as plain Python (uppsala, minutes a deal there, only compiled).
``--baseline`` times uppsala and board2 first on another version's core (the "before"
of a change, measured in the same run) and prints the compiled core's ratios to it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from dd_cores import load_core, pure_core, use_core
from dd_oracle import ending, with_random_play
from timing import load

from priffe_records import dd as dd_api
from priffe_records import read
from priffe_records.dd import (
    Budget,
    Deal,
    Goal,
    PlayAnalysis,
    analyse_play,
    card_values,
    engine,
    value,
)
from priffe_records.dd import core as dd_core
from priffe_records.game.cards import SEATS, Card, Rank, Seat, Suit
from priffe_records.game.cards import Deal as Hands
from priffe_records.replay.dd import DEFAULT_BUDGET
from priffe_records.rules.family import family_for
from priffe_records.rules.priffe.generate import iter_records

ROOT = Path(__file__).resolve().parents[1]
_PARTNERS = (frozenset({Seat.N, Seat.S}), frozenset({Seat.E, Seat.W}))
_PREF_RANKS = [Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT,
               Rank.SEVEN]


def priffe_hands(seed: int) -> Iterator[dict[Seat, frozenset[Card]]]:
    """Complete hands of the examples' deals, then of generated ones."""
    for path in sorted((ROOT / "examples").glob("*.ppn")):
        for record in read(path):
            text = record.get("Deal") if record.get("Scoring") == "Priffe" else None
            hands = Hands.parse(text) if text else None
            if hands is not None and hands.complete:
                yield {s: frozenset(h) for s, h in zip(SEATS, hands.hands, strict=True) if h}
    for record in iter_records(10_000, seed):
        hands = Hands.parse(record["Deal"])
        yield {s: frozenset(h) for s, h in zip(SEATS, hands.hands, strict=True) if h}


def priffe_deals(rng: random.Random, n: int, goal: Goal, seed: int) -> list[Deal]:
    out = []
    for hands in priffe_hands(seed):
        if len(out) == n:
            break
        trump = None if goal is Goal.FEWEST else rng.choice([None, Suit.H, Suit.D])
        deal = Deal(hands, SEATS, trump, rng.choice(SEATS), rng.choice(_PARTNERS), goal, False)
        out.append(with_random_play(rng, deal, 52))
    return out


def preference_deals(rng: random.Random, n: int, players: int) -> list[Deal]:
    out = []
    for _ in range(n):
        deck = [Card(s, r) for s in Suit for r in _PREF_RANKS]
        rng.shuffle(deck)
        order = (Seat.N, Seat.E, Seat.S)
        hands = {seat: frozenset(deck[i * 10:(i + 1) * 10]) for i, seat in enumerate(order)}
        declarer = rng.choice(order)
        if players == 2:  # one defender dropped out (P9)
            gone = rng.choice([s for s in order if s is not declarer])
            order = tuple(s for s in order if s is not gone)
            hands = {s: hands[s] for s in order}
        deal = Deal(hands, order, rng.choice(list(Suit)), declarer, frozenset({declarer}),
                    Goal.MOST, True)
        out.append(with_random_play(rng, deal, 30))
    return out


_SEARCHES: list[dd_core.Search] = []
_INIT = engine._Own.__init__


def _counted_init(self: engine._Own, *args: object, **kwargs: object) -> None:
    """Keep each own search made, to count its nodes (a compiled Search cannot be patched)."""
    _INIT(self, *args, **kwargs)  # type: ignore[arg-type]
    _SEARCHES.append(self.search)


engine._Own.__init__ = _counted_init  # type: ignore[method-assign]


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    """CPU seconds of ``fn`` and (its result, the own search's nodes it took)."""
    _SEARCHES.clear()
    start = time.process_time()
    result = fn()
    return time.process_time() - start, (result, sum(s.nodes for s in _SEARCHES))


ONLY: list[str] | None = None


def row(name: str, target: float | None, deals: list[Deal],
        run: Callable[[Deal], object], done: Callable[[object], bool]) -> None:
    if ONLY and name not in ONLY:
        return
    times, nodes, finished, known, cards = [], [], 0, 0, 0
    for deal in deals:
        cpu, (result, counted) = timed(lambda d=deal: run(d))  # type: ignore[misc]
        times.append(cpu)
        nodes.append(counted)
        finished += done(result)
        if isinstance(result, PlayAnalysis):
            known += sum(c.cost is not None for c in result.cards)
            cards += len(result.cards)
    med, top = statistics.median(times), max(times)
    ratio = f"{med / target:6.2f}" if target else "     -"
    aim = f"{target:g} s" if target else "report"
    print(f"{name:9} {len(deals):3} {med:8.3f} {top:8.3f} {aim:>7} {ratio} "
          f"{int(statistics.median(nodes)):>10,} {finished:>4}/{len(deals)}"
          + (f" {known}/{cards} cards analysed" if cards else ""))


# board 2's positions: cards already played, and the name printed
_BOARD2 = ((0, "opening lead"), (1, "after card 1"), (4, "trick 2"), (8, "trick 3"),
           (12, "trick 4"))


def board2(nodes: int) -> None:
    """Board 2's value from each of ``_BOARD2``'s positions on a fresh search, each
    stopped after ``nodes`` nodes: the nodes and CPU an early misère position takes."""
    if ONLY and "board2" not in ONLY:
        return
    record = next(r for r in read(ROOT / "examples" / "partie-uppsala.ppn")
                  if r.get("Board") == "2")
    family = family_for(record.get("Scoring"))
    deal = family.dd_deal(family.analyse(record, None, False))
    assert deal is not None
    for cut, name in _BOARD2:
        here = Deal(**{**deal.__dict__, "played": deal.played[:cut]})
        cpu, (result, counted) = timed(lambda d=here: value(  # type: ignore[misc]
            d, Budget(nodes=nodes), solver="own"))
        shown = "?" if result is None else str(result)
        over = ">" if result is None else " "
        print(f"board2 {name:12} value {shown:>2} nodes {over}{counted:>13,} cpu {cpu:7.2f}")


def uppsala_deals() -> list[tuple[str, Deal]]:
    """Every deal of examples/partie-uppsala.ppn as the solver takes it, by its board."""
    out = []
    for record in read(ROOT / "examples" / "partie-uppsala.ppn"):
        family = family_for(record.get("Scoring"))
        deal = family.dd_deal(family.analyse(record, None, False))
        if deal is not None:
            out.append((record.get("Board") or "?", deal))
    return out


def uppsala(core: str) -> tuple[tuple[int, float], tuple[int, float]]:
    """Every card's cost of every Uppsala deal, as ``replay --dd`` finds them (no best
    cards where a card cost nothing), by the own solver and by ``auto`` (the default): each
    deal's nodes and CPU, and their sums. ``auto`` hands only a positive deal to DDS, so a
    misère deal is searched once and its figures count for both."""
    if ONLY and "uppsala" not in ONLY:
        return (0, 0.0), (0, 0.0)
    nodes = {"own": 0, "auto": 0}
    cpus = {"own": 0.0, "auto": 0.0}
    for board, deal in uppsala_deals():
        positive = deal.goal is Goal.MOST
        for solver in ("own", "auto") if positive else ("own",):
            cpu, (_, counted) = timed(lambda d=deal, s=solver: analyse_play(  # type: ignore[misc]
                d, solver=s, every_best=False))
            for name in (solver,) if positive else ("own", "auto"):
                nodes[name] += counted
                cpus[name] += cpu
            print(f"uppsala {core:8} {solver if positive else 'both':4} board {board:>2} "
                  f"{deal.goal.value:6} nodes {counted:>13,} cpu {cpu:7.2f}")
    for name in nodes:
        print(f"uppsala {core:8} {name:4} all deals       nodes {nodes[name]:>13,} "
              f"cpu {cpus[name]:7.2f}")
    return (nodes["own"], cpus["own"]), (nodes["auto"], cpus["auto"])


def aims(args: argparse.Namespace, misere4_budget: float | None) -> None:
    """Every row once, on the core ``priffe_records.dd`` runs on now; the deals are the
    same for each core (one seed)."""
    rng = random.Random(args.seed)
    n = args.deals
    print(f"{'aim':9} {'n':>3} {'median':>8} {'max':>8} {'target':>7} {'ratio':>6} "
          f"{'nodes':>10} {'done':>6}")
    complete: Callable[[object], bool] = lambda a: a.complete  # type: ignore[attr-defined]  # noqa: E731
    row("pref", 0.2, preference_deals(rng, n, 3), analyse_play, complete)
    row("pref2", 0.2, preference_deals(rng, n, 2), analyse_play, complete)
    row("positive", 1.0, priffe_deals(rng, n, Goal.MOST, args.seed), analyse_play, complete)
    misere = priffe_deals(rng, n, Goal.FEWEST, args.seed + 1)
    budget = Budget(seconds=misere4_budget)
    row("misere4", 1.0, [ending(d, 3) for d in misere], lambda d: analyse_play(d, budget),
        complete)
    row("misere7", None, [ending(d, 6) for d in misere], analyse_play, complete)
    row("misere1", None, misere, lambda d: analyse_play(d, Budget(seconds=args.budget)),
        complete)
    positions = [Deal(**{**d.__dict__, "played": d.played[:24]})
                 for d in priffe_deals(rng, n, Goal.MOST, args.seed + 2)]
    row("dds", None, positions, card_values, lambda r: r is not None)
    row("own", None, positions, lambda d: card_values(d, solver="own"),
        lambda r: r is not None)
    if ONLY and "own" not in ONLY:
        return
    same = sum(card_values(d) == card_values(d, solver="own") for d in positions)
    print(f"DDS and own agree on every card of {same}/{len(positions)} positions")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deals", type=int, default=5, help="deals per aim")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET.seconds,
                    help="seconds for a misère deal from the opening lead (default: the "
                         "replay's, %(default)s)")
    ap.add_argument("--pure-budget", type=float, default=20.0,
                    help="seconds for each misere4 deal on the pure core")
    ap.add_argument("--board2-nodes", type=int, default=200_000_000,
                    help="nodes for each board2 position on the compiled core; the pure "
                         "core gets a 500th (it is 60-80x slower a node)")
    ap.add_argument("--only", nargs="*", default=None, help="aims to run (default: all)")
    ap.add_argument("--cores", nargs="*", default=["compiled", "pure"],
                    choices=["compiled", "pure"], help="cores to time (default: both)")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="a core to compare with in the same run: another version's "
                         "dd/core.py, or the extension a build compiled from it (e.g. "
                         "main's: git show main:priffe_records/dd/core.py > /tmp/core_main.py"
                         " && cythonize -3 -i /tmp/core_main.py); its uppsala and board2 "
                         "lines come first")
    args = ap.parse_args()
    global ONLY
    ONLY = args.only
    print(f"{load()}; priffe_records.dd.COMPILED = {dd_api.COMPILED} ({dd_core.__file__})")
    if args.baseline is not None:
        with use_core(load_core(args.baseline)):
            print(f"\ncore: baseline {args.baseline} (COMPILED = {dd_api.COMPILED})")
            before = uppsala("baseline")
            board2(args.board2_nodes)
    if "compiled" in args.cores:
        if dd_api.COMPILED:
            print("\ncore: compiled")
            aims(args, None)
            after = uppsala("compiled")
            board2(args.board2_nodes)
            if args.baseline is not None and after[0][1]:
                for (nb, cb), (na, ca), solver in zip(before, after, ("own", "auto"),
                                                      strict=True):
                    print(f"uppsala {solver}: nodes {na / max(nb, 1):.3f}x, CPU "
                          f"{ca / max(cb, 1e-9):.3f}x of the baseline's")
        else:
            print("\ncore: compiled — none built (no Cython or no C compiler at install)")
    if "pure" in args.cores:
        with use_core(pure_core()):
            print(f"\ncore: pure (priffe_records.dd.COMPILED = {dd_api.COMPILED}); misere4 "
                  f"stops a deal after {args.pure_budget:g} s")
            aims(args, args.pure_budget)
            board2(args.board2_nodes // 500)


if __name__ == "__main__":
    main()
