"""Reader and writer speed, as ratios against a plain ``re`` tag scan of the same file.

    python benchmarks/bench_read.py [--n 20000] [--seed 0] [--repeat 3]

Generates N legal records deterministically (priffe_records.rules.priffe.generate),
writes them to a temporary export-format file, then measures on one core:

* baseline — a compiled-regex scan that only finds the tag pairs: the floor
  any reader pays for touching every byte;
* read — ``priffe_records.read`` (full parse into the record model);
* read+write — ``read`` then ``dumps`` of every record.

Each figure is the best of ``--repeat`` runs (CPU time of this process), so
other load on the machine disturbs it less. Nothing here is a test: the
numbers are printed, not asserted.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path

from timing import best, generated_file

from priffe_records import dumps, read
from priffe_records.format.parser import get_parser

TAG = re.compile(rb'^\[([A-Z][A-Za-z0-9_]*) "((?:\\.|[^"\\])*)"\]', re.M)



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="records to generate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.ppn"
        generated_file(path, args.n, args.seed)
        get_parser()  # built once per process, like every real run

        def scan() -> int:
            return len(TAG.findall(path.read_bytes())) and args.n

        def read_all() -> int:
            return sum(1 for _ in read(path))

        def read_write() -> int:
            n = 0
            for rec in read(path):
                dumps([rec], header=False)
                n += 1
            return n

        base, _ = best(scan, args.repeat)
        rows = [("re tag scan (baseline)", base, args.n)]
        for label, fn in (("read", read_all), ("read + write", read_write)):
            secs, n = best(fn, args.repeat)
            assert n == args.n, f"{label} saw {n} records, expected {args.n}"
            rows.append((label, secs, n))

    print(f"{'':24} {'seconds':>8} {'records/s':>11} {'× baseline time':>16}")
    for label, secs, n in rows:
        print(f"{label:24} {secs:8.2f} {n / secs:11,.0f} {secs / base:16.1f}")


if __name__ == "__main__":
    main()
