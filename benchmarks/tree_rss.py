"""Peak memory of a command with all its worker processes: ``priffe import --jobs 2``.

    python benchmarks/tree_rss.py -n 85000 -- import --jobs 2      # a generated ~50 MB file
    python benchmarks/tree_rss.py --file big.ppn -- validate --jobs 2
    python benchmarks/tree_rss.py -n 50000 --one-partie --finding-every-rubber -- validate -j 1

Runs ``priffe ARGS FILE`` (``--db`` in a temporary folder for an import) and samples its
process tree every 50 ms: the sum of the processes' RSS (forked workers share pages with
their parent, so the sum counts those more than once) and of their PSS (shared pages
split between the processes), and each process's own peak (``VmHWM``). ``ru_maxrss`` of
the children is the largest child's, not the sum, so it cannot say this. Linux only.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import finding_every_rubber, generated_file, load


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    todo, found = [pid], []
    while todo:
        p = todo.pop()
        found.append(p)
        for children in Path(f"/proc/{p}/task").glob("*/children"):
            with contextlib.suppress(OSError):  # ended meanwhile
                todo += [int(c) for c in children.read_text().split()]
    return found


def _kib(pid: int, name: str, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(command: list[str]) -> dict[str, float]:
    """Run ``command``; its tree's peak RSS and PSS sums and each process's peak, in MiB."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    rss = pss = 0
    own: dict[int, int] = {}
    t = time.perf_counter()
    while proc.poll() is None:
        pids = _tree(proc.pid)
        rss = max(rss, sum(_kib(p, "status", "VmRSS:") for p in pids))
        pss = max(pss, sum(_kib(p, "smaps_rollup", "Pss:") for p in pids))
        for p in pids:
            own[p] = max(own.get(p, 0), _kib(p, "status", "VmHWM:"))
        time.sleep(0.05)
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed with {proc.returncode}")
    return {"seconds": time.perf_counter() - t, "rss": rss / 1024, "pss": pss / 1024,
            **{f"process {i}": v / 1024 for i, v in enumerate(own.values())}}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("-n", type=int, default=85_000, help="records to generate (~600 B each)")
    ap.add_argument("--file", help="measure on this file instead of a generated one")
    ap.add_argument("--one-partie", action="store_true", help="generate one partie")
    ap.add_argument("--finding-every-rubber", action="store_true",
                    help="every rubber's last ScoreRubber one point off (an R23 each)")
    ap.add_argument("args", nargs="+", help="the priffe command and its options")
    opts = ap.parse_args()
    if opts.file and (opts.finding_every_rubber or opts.one_partie):
        ap.error("--one-partie and --finding-every-rubber shape a generated file, not --file")
    priffe = str(Path(sys.executable).parent / "priffe")
    with tempfile.TemporaryDirectory(prefix="priffe-rss-") as tmp:
        src = opts.file or str(Path(tmp) / "big.ppn")
        if not opts.file:
            generated_file(Path(src), opts.n, 1, one_partie=opts.one_partie, quiet=True)
        if opts.finding_every_rubber:
            print(f"{finding_every_rubber(Path(src)):,} rubbers given an R23 error")
        extra = ["--db", str(Path(tmp) / "rss.db")] if opts.args[0] == "import" else []
        print(f"{' '.join(opts.args)} on {os.path.getsize(src) / 2**20:.1f} MiB, {load()}")
        res = measure([priffe, *opts.args, *extra, src])
    own = " ".join(f"{v:.0f}" for k, v in res.items() if k.startswith("process"))
    print(f"peak of the tree: RSS {res['rss']:.1f} MiB, PSS {res['pss']:.1f} MiB; "
          f"each process's peak: {own} MiB; {res['seconds']:.0f} s")


if __name__ == "__main__":
    main()
