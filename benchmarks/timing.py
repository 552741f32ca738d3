"""What the benchmark scripts share: a generated input file and best-of-N CPU timing."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from priffe_records import write
from priffe_records.rules.priffe.generate import iter_records


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """Fastest CPU time of ``repeat`` runs (other load on the machine inflates wall time)."""
    times, count = [], 0
    for _ in range(max(repeat, 1)):
        start = time.process_time()
        count = fn()
        times.append(time.process_time() - start)
    return min(times), count


def generated_file(path: Path, n: int, seed: int) -> None:
    """Write ``n`` legal generated records (with comments) to ``path`` and say so."""
    t0 = time.perf_counter()
    write(iter_records(n, seed, comments=True), path)
    print(f"generated {n:,} records, {path.stat().st_size / 1e6:.1f} MB "
          f"in {time.perf_counter() - t0:.1f} s")
