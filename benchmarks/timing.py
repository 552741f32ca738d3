"""What the benchmark scripts share: generated input files, best-of-N timing, peak memory.

Every script measures CPU time (what this process spent; other engineers' load on the
shared machine inflates wall time but hardly CPU time) and wall time, and prints the
machine's load average with the figures, so a number is never quoted without it.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from priffe_records import write
from priffe_records.rules.priffe.generate import iter_records


@dataclass(frozen=True)
class Timing:
    """The best CPU and the best wall time of N runs, and what the function counted."""

    cpu: float
    wall: float
    count: int


def measure(fn: Callable[[], int], repeat: int) -> Timing:
    """Best CPU and best wall time of ``repeat`` runs (load only ever slows a run down)."""
    cpus, walls, count = [], [], 0
    for _ in range(max(repeat, 1)):
        c, w = time.process_time(), time.perf_counter()
        count = fn()
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return Timing(min(cpus), min(walls), count)


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """Fastest CPU time of ``repeat`` runs."""
    t = measure(fn, repeat)
    return t.cpu, t.count


def load() -> str:
    """The load average now, as ``uptime`` prints it (1, 5, 15 minutes)."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} CPUs"


def cached(path: Path, kind: str, n: int, seed: int, one_partie: bool,
           make: Callable[[], None]) -> None:
    """``make()`` writes ``path``; with ``PRIFFE_BENCH_CACHE=DIR`` a copy is kept there and
    reused (generating 100,000 deals takes minutes; the same seed gives the same file)."""
    folder = os.environ.get("PRIFFE_BENCH_CACHE")
    if not folder:
        make()
        return
    keep = Path(folder) / f"{kind}-{n}-{seed}-{'one' if one_partie else 'many'}{path.suffix}"
    if not keep.exists():
        make()
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, keep)
    else:
        shutil.copyfile(keep, path)


def generated_file(path: Path, n: int, seed: int, *, one_partie: bool = False,
                   quiet: bool = False) -> None:
    """Write ``n`` legal generated records (with comments) to ``path`` and say so."""
    t0 = time.perf_counter()
    cached(path, "ppn", n, seed, one_partie,
           lambda: write(iter_records(n, seed, comments=True, one_partie=one_partie), path))
    if not quiet:
        print(f"generated {n:,} records{' in one partie' if one_partie else ''}, "
              f"{path.stat().st_size / 1e6:.1f} MB in {time.perf_counter() - t0:.1f} s")


_SCORE_RUBBER = re.compile(r'(\[ScoreRubber "NS )(\d+)')


def finding_every_rubber(path: Path) -> int:
    """Make every rubber's last ScoreRubber one point off (an R23 error at each rubber's
    end, the text otherwise as generated), so a run has a finding in every rubber; the
    number of rubbers changed."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    changed = 0
    for i, block in enumerate(blocks):
        if "[Settlement " in block:
            blocks[i] = _SCORE_RUBBER.sub(lambda m: m.group(1) + str(int(m.group(2)) + 1),
                                          block, count=1)
            changed += 1
    path.write_text("\n\n".join(blocks), encoding="utf-8")
    return changed


def peak_rss_mib() -> float:
    """This process's peak resident memory.

    On Linux ``VmHWM`` of /proc/self/status: ``getrusage``'s ``ru_maxrss`` survives
    ``exec``, so a child started from a big parent would report the parent's peak.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # Linux kB, macOS bytes
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def run_child(script: str, *args: str) -> dict[str, Any]:
    """Run ``script --child ARGS`` in a fresh process; its last stdout line is JSON.

    A fresh process per step, so one step's heap never counts in another's peak RSS.
    """
    proc = subprocess.run([sys.executable, script, "--child", *args], capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"benchmark step {' '.join(args)} failed:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def rss_table(script: str, step: str, label: str, sizes: list[int], seed: int) -> None:
    """Peak RSS of ``script --child STEP file`` and of endplay on one partie of each size."""
    from peer import twin_file

    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            ppn, pbn = Path(tmp) / f"{size}.ppn", Path(tmp) / f"{size}.pbn"
            generated_file(ppn, size, seed, one_partie=True)
            twin_file(pbn, size, seed, one_partie=True)
            ours = run_child(script, step, str(ppn))
            peer = run_child(script, "endplay", str(pbn))
            print(f"peak RSS, {size:>7,} deals in one partie: {label} "
                  f"{ours['peak_rss_mib']:7.1f} MiB   endplay {peer['peak_rss_mib']:7.1f} MiB"
                  f"   ({load()})")
            ppn.unlink()
            pbn.unlink()


def ratio_line(label: str, n: int, t: Timing, peer: Timing | None) -> str:
    """One table row: records/s by CPU and wall time, and the ratio to endplay's rate."""
    versus = f"{peer.cpu / t.cpu:9.2f}× {peer.wall / t.wall:7.2f}×" if peer else f"{'':19}"
    return (f"{label:26} {t.cpu:8.2f} {t.wall:8.2f} {n / t.cpu:11,.0f} {n / t.wall:11,.0f}"
            f" {versus}")


HEADER = (f"{'':26} {'CPU s':>8} {'wall s':>8} {'rec/CPU-s':>11} {'rec/wall-s':>11}"
          f" {'× endplay CPU':>10} {'wall':>7}")
