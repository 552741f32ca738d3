"""Start-up cost of small commands, against ``sqlite-utils --version`` in the same run.

    python benchmarks/bench_startup.py [--repeat 7] [--deals 10000] [--before DIR]

Each command runs in a fresh process; its CPU time (user + system) is the
children's ``getrusage`` before and after, the best of ``--repeat`` runs
(load only ever slows a run down), with bytecode cached as an installed package
has it (``PYTHONDONTWRITEBYTECODE`` is dropped for the runs). Measured:
``priffe --version``, ``priffe validate`` of a one-deal file, the completion
request a shell sends for ``priffe va<TAB>``, and ``priffe import`` of an
unchanged file of ``--deals`` generated deals (imported once first, untimed),
each with its ratio to ``sqlite-utils --version``.
Aims: ``--version`` at most sqlite-utils' cost, a completion at most 0.1 s CPU.

``--before DIR``: a tree of the project's source to compare (say ``git archive main``
unpacked there); each command is then also run from it, in the same run, into the
same archive, and the table gains its CPU and the ratio after / before.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from timing import generated_file, load

from priffe_records import write
from priffe_records.rules.priffe.generate import iter_records

_BIN = Path(sys.executable).parent
_HERE = Path(__file__).resolve().parent.parent
# What the `priffe` console script runs, from the tree on PYTHONPATH (-P: not from the
# current folder, which may be another checkout).
PRIFFE = [sys.executable, "-P", "-c", "import sys; from priffe_records.cli import main; "
           "sys.argv[0] = 'priffe'; sys.exit(main())"]


# Bytecode cached as an installed package has it: without, every run compiles our modules
# (a third of a small command's CPU) and the figures measure the compiler.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def program(name: str) -> str:
    """``name`` from this interpreter's environment, else from PATH."""
    here = _BIN / name
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        sys.exit(f"{name} is not installed")
    return found


def cpu_of(argv: list[str], env: Mapping[str, str] | None = None) -> float:
    """CPU seconds (user + system) one run of ``argv`` costs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(argv, env={**ENV, **(env or {})}, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:  # a failing command's time means nothing
        sys.exit(f"{' '.join(argv)} failed ({run.returncode}): {run.stderr.decode()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best_cpu(argv: list[str], repeat: int, env: Mapping[str, str] | None = None) -> float:
    return min(cpu_of(argv, env) for _ in range(max(repeat, 1)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--before", type=Path, default=None,
                    help="a source tree of the code to compare against")
    args = ap.parse_args()
    trees = {"after": _HERE} | ({"before": args.before.resolve()} if args.before else {})
    sqlite_utils = program("sqlite-utils")
    with tempfile.TemporaryDirectory() as tmp:
        one, many, db = Path(tmp) / "one.ppn", Path(tmp) / "many.ppn", str(Path(tmp) / "a.db")
        write(iter_records(1, 1), one)
        generated_file(many, args.deals, 1)
        for tree in trees.values():  # its bytecode written (and the file imported) once
            subprocess.run([*PRIFFE, "import", "--db", db, str(many)], check=True,
                           env={**ENV, "PYTHONPATH": str(tree)}, stdout=subprocess.DEVNULL)
        print(f"best CPU of {args.repeat} runs ({load()})")
        base = best_cpu([sqlite_utils, "--version"], args.repeat)
        print(f"{'sqlite-utils --version':34} {base:6.3f} s")
        complete = {"_PRIFFE_COMPLETE": "bash_complete", "COMP_WORDS": "priffe va",
                    "COMP_CWORD": "1"}
        for label, argv, env, aim in (
                ("priffe --version", ["--version"], {}, base),
                ("priffe validate (1 deal)", ["validate", str(one)], {}, None),
                ("completion 'priffe va<TAB>'", [], complete, 0.1),
                (f"import unchanged ({args.deals:,} deals)", ["import", "--db", db, str(many)],
                 {}, None)):
            cpu = dict.fromkeys(trees, float("inf"))
            for _ in range(max(args.repeat, 1)):  # the trees in turn: load drifts alike
                for name, tree in trees.items():
                    cpu[name] = min(cpu[name], cpu_of([*PRIFFE, *argv],
                                                      {**env, "PYTHONPATH": str(tree)}))
            now = cpu["after"]
            goal = "" if aim is None else \
                f"   aim ≤ {aim:.3f} s: {'met' if now <= aim else 'NOT met'}"
            then = "" if "before" not in cpu else \
                f"   before {cpu['before']:6.3f} s ({now / cpu['before']:4.2f}× of it)"
            print(f"{label:34} {now:6.3f} s   {now / base:5.2f}× sqlite-utils{then}{goal}")
        print(f"({load()})")


if __name__ == "__main__":
    main()
