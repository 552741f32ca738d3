"""Validator speed against endplay (the peer) and our own reader, measured in the same run.

    python benchmarks/bench_validate.py [--n 20000] [--seed 0] [--repeat 3]
                                        [--rss 20000,100000] [--jobs 2]

Generates N legal records deterministically (priffe_records.rules.priffe.generate),
writes them and their bridge twins (benchmarks/peer.py) to temporary files, then
measures on one core, best of ``--repeat`` (CPU and wall time):

* endplay — ``endplay.parsers.pbn.load`` of the twin file: the peer and the baseline of
  the ``× endplay`` column (endplay only reads: it checks no rule);
* read — ``priffe_records.read``: what every validation pays first;
* read + validate — ``validate(read(path))``: every record replayed through the rules,
  every claimed score checked;
* … as the CLI — the same inside the collector's scope every priffe command runs in;
* validate alone — the same on records already in memory.

``--rss`` validates one-partie files of those sizes in fresh processes and prints the
peak RSS (it must not grow with the file). ``--jobs N`` also times ``priffe validate
--jobs 1`` against ``--jobs N`` as subprocesses, in turns: wall time (the point is the
cores) and the CPU of all their processes, with the load average. ``--jobs-only``
skips the one-core steps (e.g. to measure the two-core speed-up at a quiet moment).
Nothing is asserted: the numbers are printed, with the ratios.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from peer import endplay_load, twin_file
from timing import (
    HEADER,
    generated_file,
    load,
    measure,
    peak_rss_mib,
    ratio_line,
    rss_table,
)

from priffe_records import read, validate
from priffe_records.format.parser import get_parser
from priffe_records.rules.gcscope import collector_tuned


def _child(step: str, path: str) -> None:
    get_parser()
    if step == "endplay":
        n = endplay_load(Path(path))
    else:
        n = 0
        for f in validate(read(path)):
            n += f.is_error
        assert n == 0, f"{n} errors in a generated file"
    print(json.dumps({"peak_rss_mib": peak_rss_mib()}))


def _command(path: Path, j: int) -> tuple[float, float]:
    """CPU (this command and its workers) and wall seconds of ``priffe validate --jobs J``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from priffe_records.cli import main; main()",
                    "validate", "--jobs", str(j), str(path)], check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return cpu, wall


def jobs(path: Path, n: int, workers: int, repeat: int) -> None:
    """``priffe validate --jobs 1`` against ``--jobs N``, whole commands, taken in turns
    (1, N, 1, N, …) so a change of load hits both alike; best of ``repeat`` each.

    The speed-up is wall time (the point is the cores); CPU is every process's together,
    so its ratio shows what the parallel run costs in extra work.
    """
    runs: dict[int, list[tuple[float, float]]] = {1: [], workers: []}
    start = load()
    for _ in range(max(repeat, 1)):
        for j in (1, workers):
            runs[j].append(_command(path, j))
            print(f"  priffe validate --jobs {j}: {runs[j][-1][0]:6.2f} CPU s, "
                  f"{runs[j][-1][1]:6.2f} s wall ({load()})", flush=True)
    cpu = {j: min(c for c, _ in r) for j, r in runs.items()}
    wall = {j: min(w for _, w in r) for j, r in runs.items()}
    for j in (1, workers):
        print(f"priffe validate --jobs {j}: best {cpu[j]:6.2f} CPU s, {wall[j]:6.2f} s wall, "
              f"{n / wall[j]:7,.0f} records/s wall")
    print(f"--jobs {workers} speed-up: {wall[1] / wall[workers]:.2f}× wall; CPU of all its "
          f"processes {cpu[workers] / cpu[1]:.2f}× one job's; load before: {start}; "
          f"after: {load()}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="records to generate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rss", default="", help="comma-separated one-partie sizes to measure")
    ap.add_argument("--jobs", type=int, default=0, help="also time priffe validate --jobs N")
    ap.add_argument("--jobs-only", action="store_true", help="only the --jobs comparison")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path, twin = Path(tmp) / "bench.ppn", Path(tmp) / "bench.pbn"
        generated_file(path, args.n, args.seed)
        twin_file(twin, args.n, args.seed)
        get_parser()  # built once per process, like every real run
        if args.jobs_only:
            jobs(path, args.n, args.jobs or 2, args.repeat)
            return

        def peer() -> int:
            return endplay_load(twin)

        def read_all() -> int:
            return sum(1 for _ in read(path))

        def read_validate() -> int:
            errors = [f for f in validate(read(path)) if f.is_error]
            assert not errors, errors[:3]
            return args.n

        before = load()
        base = measure(peer, args.repeat)
        rows = [("endplay (peer)", base), ("read", measure(read_all, args.repeat)),
                ("read + validate", measure(read_validate, args.repeat))]
        with collector_tuned():  # what every priffe command runs in
            rows.append(("  … as the CLI", measure(read_validate, args.repeat)))
        records = list(read(path))  # loaded only now: a big heap slows the runs above

        def validate_only() -> int:
            validate(records)
            return len(records)

        rows.append(("validate alone", measure(validate_only, args.repeat)))
        records.clear()
        print(f"{args.n:,} records, best of {args.repeat}; before: {before}; after: {load()}")
        print(HEADER)
        for label, t in rows:
            print(ratio_line(label, args.n, t, base))
        if args.jobs:
            jobs(path, args.n, args.jobs, args.repeat)
    if args.rss:
        rss_table(__file__, "validate", "read+validate",
                  [int(s) for s in args.rss.split(",") if s.strip()], args.seed)


if __name__ == "__main__":
    main()
