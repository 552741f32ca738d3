"""Start-up cost of small commands, against ``sqlite-utils --version`` in the same run.

    python benchmarks/bench_startup.py [--repeat 7]

Each command runs in a fresh process; its CPU time (user + system) is the
children's ``getrusage`` before and after, the best of ``--repeat`` runs
(load only ever slows a run down). Measured: ``priffe --version``,
``priffe validate`` of a one-deal file, and the completion request a shell
sends for ``priffe va<TAB>``, each with its ratio to ``sqlite-utils --version``.
Aims: ``--version`` at most sqlite-utils' cost, a completion at most 0.1 s CPU.
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

from timing import load

from priffe_records import write
from priffe_records.rules.priffe.generate import iter_records

_BIN = Path(sys.executable).parent


def _program(name: str) -> str:
    """``name`` from this interpreter's environment, else from PATH."""
    here = _BIN / name
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        sys.exit(f"{name} is not installed")
    return found


def cpu_of(argv: list[str], env: Mapping[str, str] | None = None) -> float:
    """CPU seconds (user + system) one run of ``argv`` costs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best_cpu(argv: list[str], repeat: int, env: Mapping[str, str] | None = None) -> float:
    return min(cpu_of(argv, env) for _ in range(max(repeat, 1)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    priffe, sqlite_utils = _program("priffe"), _program("sqlite-utils")
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one.ppn"
        write(iter_records(1, 1), one)
        print(f"best CPU of {args.repeat} runs ({load()})")
        base = best_cpu([sqlite_utils, "--version"], args.repeat)
        print(f"{'sqlite-utils --version':34} {base:6.3f} s")
        complete = {"_PRIFFE_COMPLETE": "bash_complete", "COMP_WORDS": "priffe va",
                    "COMP_CWORD": "1"}
        for label, argv, env, aim in (
                ("priffe --version", [priffe, "--version"], None, base),
                ("priffe validate (1 deal)", [priffe, "validate", str(one)], None, None),
                ("completion 'priffe va<TAB>'", [priffe], complete, 0.1)):
            cpu = best_cpu(argv, args.repeat, env)
            goal = "" if aim is None else \
                f"   aim ≤ {aim:.3f} s: {'met' if cpu <= aim else 'NOT met'}"
            print(f"{label:34} {cpu:6.3f} s   {cpu / base:5.2f}× sqlite-utils{goal}")
        print(f"({load()})")


if __name__ == "__main__":
    main()
