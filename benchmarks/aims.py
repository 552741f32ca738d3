"""Every aim of issue 21 in one run: what was measured, the ratio, the aim, met or not.

    python benchmarks/aims.py [--quick] [--skip instructions,rss,...] [--repeat N]

One line per aim, each with the machine's load average when it was measured (CPU time
moves with the load on a shared machine; instruction counts do not). The figures come
from the benchmark modules beside this one, run as they run alone:

* start-up (bench_startup): ``priffe --version`` CPU against ``sqlite-utils --version``
  CPU; a completion request ``priffe va<TAB>`` against 0.1 s;
* score and HTML replay (bench_score_replay): ``score`` CPU against ``validate`` CPU
  of the same 3,000 deals; ``replay --html`` of them against 2 s (CPU, wall shown too)
  and its page against 2 MB;
* memory (tree_rss): peak RSS (VmHWM) of ``validate -j 1`` (the grouped report) of one
  partie of 50,000 deals against one of 10,000, every rubber with an R23 error; and of
  the whole process tree, workers included, of ``validate -j 2``, ``import -j 1`` and
  ``import -j 2`` of the same files (issue 28);
* throughput (bench_import's steps, each in a fresh process, best CPU of ``--repeat``):
  read, read + validate and import against endplay's ``pbn.load`` of the bridge twin,
  in CPU seconds, and (bench_instructions, valgrind) in instructions per record.

``--quick`` runs every aim on small inputs (a smoke test: the ratios mean little);
``--skip`` leaves out sections (``startup``, ``score``, ``rss``, ``cpu``, ``instructions``).
Nothing is asserted; the exit status is 0 whether the aims are met or not.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import bench_import
import bench_instructions
import bench_score_replay
import bench_startup
import tree_rss
from peer import twin_file
from timing import finding_every_rubber, generated_file

SECTIONS = ("startup", "score", "rss", "cpu", "instructions")
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Sizes:
    """How big each measurement is: the full run's sizes or ``--quick``'s."""

    score: int = 3_000
    rss: tuple[int, int] = (10_000, 50_000)
    cpu: int = 20_000
    instructions: tuple[int, int] = (200, 1_000)
    repeat: int = 3


QUICK = Sizes(score=50, rss=(100, 300), cpu=100, instructions=(20, 60), repeat=1)


@dataclass(frozen=True)
class Aim:
    """One aim's line: what was measured, the measured ratio (or value), and the aim."""

    name: str
    measured: str
    value: float
    aim: str
    met: bool
    load: float

    def line(self) -> str:
        return (f"{self.name:46} {self.measured:34} {self.value:7.2f}  {self.aim:10} "
                f"{'met' if self.met else 'NOT met':8} {self.load:5.2f}")


HEAD = f"{'aim':46} {'measured':34} {'value':>7}  {'aim':10} {'':8} {'load':>5}"


def _load() -> float:
    return os.getloadavg()[0]


def startup(repeat: int) -> list[Aim]:
    """``priffe --version`` and a completion request, with sqlite-utils in the same run."""
    env = {"PYTHONPATH": str(ROOT)}
    base = bench_startup.best_cpu([bench_startup.program("sqlite-utils"), "--version"], repeat)
    version = bench_startup.best_cpu([*bench_startup.PRIFFE, "--version"], repeat, env)
    complete = bench_startup.best_cpu(
        bench_startup.PRIFFE, repeat, {**env, "_PRIFFE_COMPLETE": "bash_complete",
                                       "COMP_WORDS": "priffe va", "COMP_CWORD": "1"})
    return [Aim("priffe --version CPU / sqlite-utils --version", f"{version:.3f} s / {base:.3f} s",
                version / base, "≤ 1×", version <= base, _load()),
            Aim("completion 'priffe va<TAB>' CPU", f"{complete:.3f} s", complete, "≤ 0.1 s",
                complete <= 0.1, _load())]


def score_replay(tmp: Path, n: int, repeat: int) -> list[Aim]:
    """``score`` and ``replay --html`` against ``validate`` on the same ``n`` deals."""
    path = tmp / f"score-{n}.ppn"
    generated_file(path, n, 0, quiet=True)
    best = bench_score_replay.measure(path, tmp, repeat, list(bench_score_replay.COMMANDS))
    validate, score, html = best["validate"], best["score"], best["replay --html"]
    page = (tmp / "page.html").stat().st_size / 1e6
    return [Aim(f"score / validate CPU ({n:,} deals)", f"{score[0]:.2f} s / {validate[0]:.2f} s",
                score[0] / validate[0], "≤ 1.3×", score[0] <= 1.3 * validate[0], _load()),
            Aim(f"replay --html CPU ({n:,} deals)", f"{html[0]:.2f} s (wall {html[1]:.2f} s)",
                html[0], "≤ 2 s", html[0] <= 2, _load()),
            Aim(f"replay --html page ({n:,} deals)", f"{page:.2f} MB, {page * 1e6 / n:,.0f} B "
                "a deal", page, "≤ 2 MB", page <= 2, _load())]


# (name, command) of each memory aim after the first: the whole process tree's peak RSS
# (issue 28 item 7: workers included, whatever --jobs the machine picks).
_TREE_RSS = (("validate -j 2 tree RSS", ["validate", "-j", "2"]),
             ("import -j 1 tree RSS", ["import", "-j", "1"]),
             ("import -j 2 tree RSS", ["import", "-j", "2"]))


def rss(tmp: Path, sizes: tuple[int, int]) -> list[Aim]:
    """Peak RSS of the grouped ``validate`` report, one partie, an R23 in every rubber;
    then of the process tree of ``validate -j 2`` and ``import -j 1/2`` of the same."""
    priffe = str(Path(sys.executable).parent / "priffe")
    peaks: dict[str, list[float]] = {}
    for n in sizes:
        path = tmp / f"rss-{n}.ppn"
        generated_file(path, n, 1, one_partie=True, quiet=True)
        finding_every_rubber(path)
        res = tree_rss.measure([priffe, "validate", "-j", "1", str(path)])
        peaks.setdefault("validate peak RSS", []).append(
            max(v for k, v in res.items() if k.startswith("process")))
        for name, args in _TREE_RSS:
            db = ["--db", str(tmp / f"rss-{n}.db")] if args[0] == "import" else []
            peaks.setdefault(name, []).append(
                tree_rss.measure([priffe, *args, *db, str(path)])["rss"])
            (tmp / f"rss-{n}.db").unlink(missing_ok=True)
        path.unlink()
    small, big = sizes
    aims = []
    for name, (low, high) in peaks.items():
        ratio = high / low
        aims.append(Aim(f"{name} {big:,} / {small:,} deals",
                        f"{high:.1f} MiB / {low:.1f} MiB", ratio, "≤ 1.2×", ratio <= 1.2,
                        _load()))
    return aims


_STEPS = {"read": "read", "read + validate": "validate", "import": "import"}
_THROUGHPUT_AIMS = {"read": 6.0, "read + validate": 3.0, "import": 2.0}


def cpu(tmp: Path, n: int, repeat: int) -> list[Aim]:
    """Records per CPU second against endplay's, each step in a fresh process."""
    src = str(tmp / f"cpu-{n}.ppn")
    bench_import.run_step("generate", src, str(n), "0")
    peer = bench_import.best(repeat, "endplay", src)["cpu_seconds"]
    out = []
    for label, step in _STEPS.items():
        extra = [str(tmp / "cpu.db")] if step == "import" else []
        own = bench_import.best(repeat, step, src, *extra)["cpu_seconds"]
        aim = _THROUGHPUT_AIMS[label]
        out.append(Aim(f"{label} × endplay, CPU ({n:,} records)",
                       f"{own:.2f} s vs endplay {peer:.2f} s", peer / own, f"≥ {aim:g}×",
                       peer / own >= aim, _load()))
    return out


def instructions(tmp: Path, sizes: tuple[int, int]) -> list[Aim]:
    """Instructions per record against endplay's, counted by valgrind (load-free)."""
    if shutil.which("valgrind") is None:
        print("instructions: not counted (no valgrind; Debian: apt install valgrind)")
        return []
    files = {}
    for n in sizes:
        files[n] = tmp / f"instr-{n}.ppn"
        generated_file(files[n], n, 0, quiet=True)
        twin_file(Path(str(files[n]) + ".pbn"), n, 0)

    def per_record(step: str) -> float:
        small, big = (bench_instructions.counted(step, files[n]) for n in sizes)
        return (big - small) / (sizes[1] - sizes[0])

    peer = per_record("endplay")
    out = []
    for label, step in _STEPS.items():
        own = per_record(step)
        aim = _THROUGHPUT_AIMS[label]
        out.append(Aim(f"{label} × endplay, instructions", f"{own:,.0f} vs endplay {peer:,.0f}"
                       " /rec", peer / own, f"≥ {aim:g}×", peer / own >= aim, _load()))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small inputs: a smoke test")
    ap.add_argument("--skip", default="", help=f"comma-separated, from {', '.join(SECTIONS)}")
    ap.add_argument("--repeat", type=int, default=None, help="best of N (default 3; quick 1)")
    args = ap.parse_args()
    skip = {s for s in args.skip.split(",") if s}
    if unknown := skip - set(SECTIONS):
        ap.error(f"unknown sections {sorted(unknown)}; sections: {', '.join(SECTIONS)}")
    sizes = QUICK if args.quick else Sizes()
    repeat = args.repeat or sizes.repeat
    print(f"issue 21's aims, {'quick (smoke test) ' if args.quick else ''}best of {repeat}; "
          f"load average {_load():.2f} at the start, on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="priffe-aims-") as folder:
        tmp = Path(folder)
        runs: dict[str, Callable[[], list[Aim]]] = {
            "startup": lambda: startup(repeat),
            "score": lambda: score_replay(tmp, sizes.score, repeat),
            "rss": lambda: rss(tmp, sizes.rss),
            "cpu": lambda: cpu(tmp, sizes.cpu, repeat),
            "instructions": lambda: instructions(tmp, sizes.instructions)}
        aims: list[Aim] = []
        print(HEAD, flush=True)
        for name in SECTIONS:
            if name in skip:
                continue
            for aim in runs[name]():
                print(aim.line(), flush=True)
                aims.append(aim)
    met = sum(a.met for a in aims)
    print(f"{met} of {len(aims)} aims met; load average {_load():.2f} at the end")


if __name__ == "__main__":
    main()
