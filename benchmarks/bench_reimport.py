"""Re-import speed: changed and unchanged files against their first import, in the same run.

    python benchmarks/bench_reimport.py [--n 5000] [--seed 1] [--repeat 3] [--one-partie]

Imports N generated records into a new archive (the baseline), then:

* recognised, raw texts — the same file with its row in ``sources`` deleted first,
  so every record is cut from the file and found stored by the hash of its raw
  text (schema v7), nothing parsed (the path any changed file takes for its
  unchanged parties);
* recognised, file — the file's SHA-256 matches the one stored at its last
  import, so nothing is even cut (issue 9: aim ≥ 20× faster than the first import);
* grown by 1 % — an archive holding the file's first 99 % of records imports the
  whole file (the new records are read, checked and stored; the rest is recognised);
* one record corrected — a comment added to one record in the middle: that record
  supersedes the stored one and its partie is recomputed;
* ``priffe import``, unchanged file — the command as a user runs it, in a process of its
  own: wall and CPU time (the process's, start-up included), best of ``--repeat``; the
  in-process rows above leave start-up out.

``--one-partie``: all records in one partie, so a change recomputes the whole of it.
CPU time of this process, best of ``--repeat`` (the first import runs once).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import best, generated_file, load

from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import ensure_schema, open_archive


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--one-partie", action="store_true")
    args = ap.parse_args()
    print(load())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "partie.ppn"
        generated_file(path, args.n, args.seed, one_partie=args.one_partie)
        text = path.read_text("utf-8")
        records = text.split("\n\n")
        shorter = "\n\n".join(records[: len(records) - max(1, len(records) // 100)])
        middle = len(records) // 2
        db = open_archive(Path(tmp) / "a.db")
        ensure_schema(db)

        def first() -> int:
            return import_file(db, path).new

        def raw_texts() -> int:
            db.execute("DELETE FROM sources")
            return import_file(db, path).duplicates

        def recognised() -> int:
            return import_file(db, path).duplicates

        corrections = iter(range(1_000_000))

        def corrected() -> int:
            fixed = list(records)
            fixed[middle] = fixed[middle].replace("]", f"] {{rättad {next(corrections)}}}", 1)
            path.write_text("\n\n".join(fixed), "utf-8")
            return import_file(db, path).updated

        base, n = best(first, 1)
        command = _command(path, Path(tmp) / "a.db", args.repeat)
        rows = [("first import", base, n),
                ("re-import, raw texts", *best(raw_texts, args.repeat)),
                ("re-import, file hash", *best(recognised, args.repeat)),
                ("grown by 1 %", *_grown(Path(tmp), path, shorter, text, args.repeat)),
                ("one record corrected", *best(corrected, args.repeat))]
        db.close()
    print(f"{'step':24} {'CPU s':>9} {'records':>8} {'× first import':>15}")
    for name, cpu, count in rows:
        print(f"{name:24} {cpu:9.3f} {count:8,} {base / cpu:14.1f}×   "
              f"(re-import / first: {cpu / base:.4f})")
    cpu, wall = command
    print(f"priffe import, unchanged file (own process, start-up included): "
          f"{cpu:.3f} s CPU, {wall:.3f} s wall")
    print(load())


def _command(path: Path, db: Path, repeat: int) -> tuple[float, float]:
    """Best CPU and best wall time of ``priffe import PATH`` of a file stored unchanged."""
    cmd = [sys.executable, "-c", "from priffe_records.cli import main; main()",
           "import", "--quiet", "--db", str(db), str(path)]
    cpus, walls = [], []
    for _ in range(max(repeat, 1)):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, check=True, env=dict(os.environ, PRIFFE_LANG="en"))
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return min(cpus), min(walls)


def _grown(tmp: Path, path: Path, shorter: str, text: str, repeat: int) -> tuple[float, int]:
    """Best CPU of importing the whole file into a new archive holding its first 99 %
    (that first import is not timed)."""
    times, new = [], 0
    for run in range(max(repeat, 1)):
        db = open_archive(tmp / f"grown{run}.db")
        ensure_schema(db)
        path.write_text(shorter, "utf-8")
        import_file(db, path)
        path.write_text(text, "utf-8")
        t = time.process_time()
        new = import_file(db, path).new
        times.append(time.process_time() - t)
        db.close()
    return min(times), new


if __name__ == "__main__":
    main()
