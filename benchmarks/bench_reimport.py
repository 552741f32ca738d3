"""Re-import speed: an unchanged file against its first import, in the same run.

    python benchmarks/bench_reimport.py [--n 5000] [--seed 1] [--repeat 3]

Imports N generated records into a new archive (the baseline), then imports
the same file again twice over:

* parsed — with the file's row in ``sources`` deleted first, so every record
  is read, hashed and found stored (the path a changed file takes);
* recognised — the file's SHA-256 matches the one stored at its last import,
  so nothing is parsed (issue 9: aim ≥ 20× faster than the first import).

CPU time of this process, best of ``--repeat`` (the first import runs once).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import best, generated_file

from priffe_records.archive.schema import ensure_schema, open_archive
from priffe_records.archive.store import import_file


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "partie.ppn"
        generated_file(path, args.n, args.seed)
        db = open_archive(Path(tmp) / "a.db")
        ensure_schema(db)

        def first() -> int:
            return import_file(db, path).new

        def parsed() -> int:
            db.execute("DELETE FROM sources")
            return import_file(db, path).duplicates

        def recognised() -> int:
            return import_file(db, path).duplicates

        base, n = best(first, 1)
        rows = [("first import", base, n), ("re-import, parsed", *best(parsed, args.repeat)),
                ("re-import, recognised", *best(recognised, args.repeat))]
        db.close()
    print(f"{'step':24} {'CPU s':>9} {'records/CPU-s':>14} {'× first import':>15}")
    for name, cpu, count in rows:
        print(f"{name:24} {cpu:9.3f} {count / cpu:14,.0f} {base / cpu:14.1f}×")


if __name__ == "__main__":
    main()
