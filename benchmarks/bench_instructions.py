"""Instructions per record against endplay (the peer), counted by valgrind in the same run.

    python benchmarks/bench_instructions.py [--n 1000] [--small 200] [--seed 0]
                                            [--steps endplay,read,validate,rows,import,
                                                     pref-read,pref-validate]

CPU seconds on a shared machine swing by ±40 % between runs (the other core's load, the
cache, frequency), so the ratios of bench_read/bench_validate/bench_import move with the
load. Instructions do not: valgrind's cachegrind counts the same total for the same
program and input, whatever else the machine does. Each step runs in a fresh process
under ``valgrind --tool=cachegrind --cache-sim=no`` (``PYTHONHASHSEED=0``) on a file of
``--small`` and one of ``--n`` records; the difference divided by the difference in
records is the cost of one more record, with Python's start-up and imports taken out.

Steps, on the same generated deals (the bridge twin file for endplay, as benchmarks/peer.py
writes it): endplay ``pbn.load``; ``read``; ``read`` + ``validate``; ``rows``: what an
import's worker does (read, the archive's check, canonical text, hash and rows ready to
insert, :func:`~priffe_records.archive.workers.import_piece`), so ``import`` minus ``rows``
is the one writer's share (classification and SQLite); ``import``: ``import_file`` into a
new archive; ``pref-read`` and ``pref-validate`` the same on as many generated Préférence
deals (parties of 12), to compare a Préférence record's cost with a Priffe record's.
Nothing is asserted: the numbers are printed, with the ratios.
Needs valgrind (Debian: ``apt install valgrind``) and the bench extra (endplay).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_preference import preference_records
from peer import endplay_load, twin_file
from timing import generated_file, load

from priffe_records import write

STEPS = ("endplay", "read", "validate", "rows", "import", "pref-read", "pref-validate")
LABELS = {"endplay": "endplay (peer)", "read": "read", "validate": "read + validate",
          "rows": "rows (import, no SQLite)", "import": "import (validate + store)",
          "pref-read": "Préférence read", "pref-validate": "Préférence read + validate"}
PREF = ".pref.ppn"  # the Préférence file beside each Priffe file
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def child(step: str, path: str) -> None:
    """One step on one file: what the counted process does."""
    if step == "endplay":
        endplay_load(Path(path + ".pbn"))
        return
    from priffe_records.format.reader import read

    if step.startswith("pref-"):
        step, path = step.removeprefix("pref-"), path + PREF
    if step == "read":
        for _ in read(path, errors="collect"):
            pass
    elif step == "validate":
        from priffe_records.rules.validate import validate

        validate(read(path, errors="collect"))
    elif step == "rows":
        from priffe_records.archive.workers import ImportState, import_piece
        from priffe_records.rules.parallel import Hand, Piece

        hand = Hand()  # the state a slice before would hand on: a partie's start
        hand.send(ImportState())
        import_piece(Piece(path, 0, os.path.getsize(path), 1, 0), hand, hand, label=path)
    elif step == "import":
        from priffe_records.archive.importing import import_file
        from priffe_records.archive.schema import ensure_schema, open_archive

        db = open_archive(path + ".db")
        ensure_schema(db)
        import_file(db, path)
        db.close()
    else:
        sys.exit(f"unknown step {step!r}; steps: {', '.join(STEPS)}")


def counted(step: str, path: Path) -> int:
    """Instructions of ``step`` on ``path`` in a fresh process under cachegrind."""
    db = Path(str(path) + ".db")
    if db.exists():
        db.unlink()
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--child", step, str(path)]
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    hit = _REFS.search(proc.stderr)
    if proc.returncode != 0 or hit is None:
        sys.exit(f"{step} on {path.name} failed under valgrind:\n{proc.stderr[-2000:]}")
    return int(hit.group(1).replace(",", ""))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="records in the big file")
    ap.add_argument("--small", type=int, default=200, help="records in the small file")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", default=",".join(STEPS),
                    help=f"comma-separated, from {', '.join(STEPS)}")
    args = ap.parse_args()
    steps = [s for s in args.steps.split(",") if s]
    if unknown := [s for s in steps if s not in STEPS]:
        ap.error(f"unknown steps {unknown}; steps: {', '.join(STEPS)}")
    if args.small >= args.n:
        ap.error("--small must be fewer records than --n")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed to count instructions (Debian: apt install valgrind)")
    if "endplay" not in steps:
        steps.insert(0, "endplay")  # the baseline of the ratios
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for n in (args.small, args.n):
            files[n] = Path(tmp) / f"deals-{n}.ppn"
            generated_file(files[n], n, args.seed)
            twin_file(Path(str(files[n]) + ".pbn"), n, args.seed)
            if any(s.startswith("pref-") for s in steps):
                write(preference_records(n, args.seed), str(files[n]) + PREF)
        print(f"{args.small:,} and {args.n:,} records; {load()} (instruction counts do not "
              "depend on it)")
        print(f"{'':28}{'instructions/record':>20}{'× endplay':>12}{'counted in':>12}")
        peer = 0.0
        for step in steps:
            t = time.perf_counter()
            small, big = counted(step, files[args.small]), counted(step, files[args.n])
            per = (big - small) / (args.n - args.small)
            peer = peer or per
            print(f"{LABELS[step]:28}{per:>20,.0f}{peer / per:>11.2f}×"
                  f"{time.perf_counter() - t:>10.0f} s", flush=True)


if __name__ == "__main__":
    main()
