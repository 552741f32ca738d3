"""Validator speed: read+validate against read alone, measured in the same run.

    python benchmarks/bench_validate.py [--n 20000] [--seed 0] [--repeat 1]

Generates N legal records deterministically (priffe_records.rules.priffe.generate), writes
them to a temporary export-format file, then measures on one core (CPU time
of this process, best of ``--repeat``):

* read — ``priffe_records.read``: the baseline every validation pays;
* read + validate — ``validate(read(path))``: every record replayed through
  the rules, every claimed score checked;
* validate alone — the same on records already in memory.

Aim (issue 3): ≥ 1,500 records/s for read + validate. Nothing is asserted:
the numbers are printed, with the ratio to the baseline.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import best, generated_file

from priffe_records import read, validate
from priffe_records.cli.runtime import tune_gc_for_batch
from priffe_records.format.parser import get_parser


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="records to generate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.ppn"
        generated_file(path, args.n, args.seed)
        get_parser()  # built once per process, like every real run

        def read_all() -> int:
            return sum(1 for _ in read(path))

        def read_validate() -> int:
            errors = [f for f in validate(read(path)) if f.is_error]
            assert not errors, errors[:3]
            return args.n

        base, _ = best(read_all, args.repeat)
        rows = [("read (baseline)", base, args.n)]
        secs, n = best(read_validate, args.repeat)
        rows.append(("read + validate", secs, n))
        tune_gc_for_batch()  # what every priffe command does first
        secs, n = best(read_validate, args.repeat)
        rows.append(("  … as the CLI", secs, n))
        records = list(read(path))  # loaded only now: a big heap slows the runs above

        def validate_only() -> int:
            validate(records)
            return len(records)

        secs, n = best(validate_only, args.repeat)
        rows.append(("validate alone", secs, n))

    print(f"{'':18} {'seconds':>8} {'records/s':>11} {'× read time':>12}")
    for label, secs, n in rows:
        print(f"{label:18} {secs:8.2f} {n / secs:11,.0f} {secs / base:12.2f}")
    rate = args.n / rows[2][1]
    print(f"read + validate as the CLI runs it: {rate:,.0f} records/s "
          f"({'meets' if rate >= 1500 else 'below'} the 1,500 records/s aim)")


if __name__ == "__main__":
    main()
