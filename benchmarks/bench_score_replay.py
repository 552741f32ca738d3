"""``priffe score`` and ``priffe replay --html`` against ``priffe validate`` on the same file.

    python benchmarks/bench_score_replay.py [--n 3000] [--big 10000] [--seed 0] [--repeat 3]

Generates N legal records deterministically (as bench_validate.py does), then runs each
command as the user does, in a fresh process with its output to a file, and takes the
best CPU time (this process's children: user + system) and the best wall time of
``--repeat`` runs, taken in turns so the machine's load falls on all three alike:

* ``validate`` — the reference: every record checked;
* ``score`` — the score sheet from the same stream, printed (piped, so full lines);
  its ratio to ``validate`` is the aim (≤ 1.3×);
* ``replay --html`` — the self-contained viewer of every deal: time and page size at N
  deals (aims: ≤ 2 s, ≤ 2 MB at 3,000) and at ``--big`` deals (the page must stay usable:
  its size, and the bytes a deal takes).

Nothing is asserted: the numbers are printed, with the load average.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import generated_file, load

COMMANDS = {"validate": ["validate"], "score": ["score"], "replay --html": ["replay", "--html"]}


def run(args: list[str], out: Path) -> tuple[float, float]:
    """CPU (user + system of the child) and wall seconds of ``priffe ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with out.open("wb") as sink:
        subprocess.run([sys.executable, "-c", "from priffe_records.cli import main; main()",
                        *args], stdout=sink, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), wall


def measure(path: Path, tmp: Path, repeat: int, names: list[str]
            ) -> dict[str, tuple[float, float]]:
    """Best CPU and best wall time of each command, the commands run in turns."""
    best: dict[str, tuple[float, float]] = {}
    for _ in range(max(repeat, 1)):
        for name in names:
            args = [*COMMANDS[name], *([str(tmp / "page.html")] if name.endswith("html")
                                       else []), str(path)]
            cpu, wall = run(args, tmp / "out.txt")
            old = best.get(name, (cpu, wall))
            best[name] = (min(old[0], cpu), min(old[1], wall))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--big", type=int, default=10_000, help="also the HTML page at this size "
                    "(0: not)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        path = tmp / f"{a.n}.ppn"
        generated_file(path, a.n, a.seed)
        print(f"{a.n:,} deals, best of {a.repeat} ({load()})")
        best = measure(path, tmp, a.repeat, list(COMMANDS))
        ref_cpu, ref_wall = best["validate"]
        for name, (cpu, wall) in best.items():
            print(f"  {name:15} CPU {cpu:6.2f} s  wall {wall:6.2f} s   "
                  f"{cpu / ref_cpu:5.2f}× validate CPU  {wall / ref_wall:5.2f}× wall")
        size = (tmp / "page.html").stat().st_size
        print(f"  score / validate: {best['score'][0] / ref_cpu:.2f}× CPU (aim ≤ 1.30×)")
        print(f"  replay --html: {best['replay --html'][0]:.2f} s CPU (aim ≤ 2 s), page "
              f"{size / 1e6:.2f} MB (aim ≤ 2 MB), {size / a.n:,.0f} bytes a deal")
        if a.big:
            big = tmp / f"{a.big}.ppn"
            generated_file(big, a.big, a.seed)
            cpu, wall = measure(big, tmp, 1, ["replay --html"])["replay --html"]
            size = (tmp / "page.html").stat().st_size
            print(f"  replay --html of {a.big:,} deals: CPU {cpu:.2f} s  wall {wall:.2f} s, "
                  f"page {size / 1e6:.2f} MB, {size / a.big:,.0f} bytes a deal ({load()})")


if __name__ == "__main__":
    main()
