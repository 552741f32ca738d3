"""Archive import benchmark against endplay: records/s, peak memory, query times and plans.

    python benchmarks/bench_import.py                 # 20,000 records, best of 3
    python benchmarks/bench_import.py -n 5000 --rss 20000,100000 --jobs 2

Each measured step runs in its own process, which reports its own peak RSS
(``VmHWM``), so one step's memory never hides another's. The import is compared
with baselines measured in the same run, each the best of ``--repeat`` (CPU and wall):

* ``endplay``: ``endplay.parsers.pbn.load`` of the bridge twin of the same deals
  (benchmarks/peer.py): the peer, and the baseline of the ``× endplay`` column;
* ``read+validate``: the reader and the rules engine on the same file, no
  SQLite (what any import must do at least);
* ``executemany``: a raw ``executemany`` of the same number of rows (canonical
  text and hash) into a bare table (what SQLite itself costs).

``--rss`` imports one-partie files of those sizes and prints their peak RSS: it must
not grow with the file (the import streams).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from peer import endplay_load, twin_file
from timing import generated_file, load, peak_rss_mib, run_child

# ---------------------------------------------------------------- child steps


def child_generate(path: str, n: int, seed: int, one_partie: bool = False) -> dict[str, Any]:
    """The PPN file and, beside it (``path + '.pbn'``), its bridge twin for endplay."""
    t = time.perf_counter()
    generated_file(Path(path), n, seed, one_partie=one_partie, quiet=True)
    twin_file(Path(path + ".pbn"), n, seed, one_partie=one_partie)
    return {"seconds": time.perf_counter() - t, "bytes": os.path.getsize(path)}


def child_endplay(path: str) -> dict[str, Any]:
    # endplay imported before the clock starts, as our steps import theirs (importing it
    # costs ~0.5 CPU s: on a small file it was most of endplay's time).
    with contextlib.suppress(ImportError):
        import endplay.parsers.pbn  # noqa: F401
    t, c = time.perf_counter(), time.process_time()
    n = endplay_load(Path(path + ".pbn"))
    return {"seconds": time.perf_counter() - t, "cpu_seconds": time.process_time() - c,
            "records": n}


def child_read(path: str) -> dict[str, Any]:
    from priffe_records.format.reader import read

    t, c = time.perf_counter(), time.process_time()
    n = sum(1 for _ in read(path, errors="collect"))
    return {"seconds": time.perf_counter() - t, "cpu_seconds": time.process_time() - c,
            "records": n}


def child_validate(path: str) -> dict[str, Any]:
    from priffe_records.format.reader import read
    from priffe_records.rules.validate import validate

    t, c = time.perf_counter(), time.process_time()
    n = 0

    def counted() -> Any:
        nonlocal n
        for rec in read(path, errors="collect"):
            n += 1
            yield rec

    findings = len(validate(counted()))
    return {"seconds": time.perf_counter() - t, "cpu_seconds": time.process_time() - c,
            "records": n, "findings": findings}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def child_import(path: str, db_path: str, jobs: int = 0) -> dict[str, Any]:
    from priffe_records.archive.importing import import_file
    from priffe_records.archive.schema import ensure_schema, open_archive

    db = open_archive(db_path)
    ensure_schema(db)
    # CPU of this process and of the worker processes it waited for (--jobs):
    # the parent's CPU alone would make a parallel import look free.
    t, c, k = time.perf_counter(), time.process_time(), _children_cpu()
    s = import_file(db, path, jobs=jobs) if jobs else import_file(db, path)
    seconds = time.perf_counter() - t
    parent = time.process_time() - c
    cpu = parent + _children_cpu() - k
    db.close()
    return {"seconds": seconds, "cpu_seconds": cpu, "parent_cpu_seconds": parent,
            "records": s.records, "new": s.new, "db_bytes": os.path.getsize(db_path)}


def child_executemany(path: str, db_path: str) -> dict[str, Any]:
    from priffe_records.archive.classify import canonical_text, content_hash
    from priffe_records.format.errors import BadRecord
    from priffe_records.format.reader import read

    rows = []
    for rec in read(path, errors="collect"):
        text = rec.text if isinstance(rec, BadRecord) else canonical_text(rec)
        rows.append((text, content_hash(text)))
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("CREATE TABLE deals (id INTEGER PRIMARY KEY, ppn TEXT, hash TEXT UNIQUE)")
    t, c = time.perf_counter(), time.process_time()
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO deals (ppn, hash) VALUES (?, ?)", rows)
    conn.execute("COMMIT")
    seconds, cpu = time.perf_counter() - t, time.process_time() - c
    conn.close()
    return {"seconds": seconds, "cpu_seconds": cpu, "records": len(rows)}


def child_queries(db_path: str) -> dict[str, Any]:
    from priffe_records.archive.query import Filters, deals_sql, find_deals
    from priffe_records.archive.schema import open_archive

    db = open_archive(db_path, readonly=True)
    out: dict[str, Any] = {}
    for label, filters in (("player", Filters(player="Anna")),
                           ("text", Filters(text="Uppsala snyggt")),
                           ("player+text", Filters(player="Anna", text="Lund"))):
        best = float("inf")
        rows = 0
        for _ in range(3):
            t = time.perf_counter()
            _, it = find_deals(db, filters)
            rows = sum(1 for _ in it)
            best = min(best, time.perf_counter() - t)
        sql, params = deals_sql(filters, ("id",))  # the filter's plan, without the columns'
        plan = [r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, params)]
        out[label] = {"seconds": best, "rows": rows, "plan": plan}
    return out


def _child(argv: list[str]) -> None:
    from priffe_records.rules.gcscope import collector_tuned

    step, *args = argv
    with contextlib.ExitStack() as scope:
        if step != "endplay":  # as `priffe import` runs, for every step of ours alike
            scope.enter_context(collector_tuned())
        result = _step(step, args)
    result["peak_rss_mib"] = peak_rss_mib()
    print(json.dumps(result))


def _step(step: str, args: list[str]) -> dict[str, Any]:
    if step == "generate":
        result = child_generate(args[0], int(args[1]), int(args[2]), args[3:] == ["one"])
    elif step == "endplay":
        result = child_endplay(args[0])
    elif step == "read":
        result = child_read(args[0])
    elif step == "validate":
        result = child_validate(args[0])
    elif step == "import":
        result = child_import(args[0], args[1], *map(int, args[2:]))
    elif step == "executemany":
        result = child_executemany(args[0], args[1])
    else:
        result = child_queries(args[0])
    return result


# ---------------------------------------------------------------- driver


def run_step(*args: str) -> dict[str, Any]:
    return run_child(__file__, *args)


def best(repeat: int, *args: str) -> dict[str, Any]:
    """The best CPU and the best wall time of ``repeat`` runs (a fresh database each time
    for an import); the rest of the fields from the run with the best CPU time."""
    runs = []
    for _ in range(max(1, repeat)):
        if args[0] == "import":
            for suffix in ("", "-wal", "-shm"):
                Path(args[2] + suffix).unlink(missing_ok=True)
        runs.append(run_step(*args))
    out = dict(min(runs, key=lambda r: float(r["cpu_seconds"])))
    out["seconds"] = min(float(r["seconds"]) for r in runs)
    return out


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("-n", "--n", "--records", dest="records", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rss", default="",
                    help="comma-separated one-partie sizes whose import peak RSS to report")
    ap.add_argument("--repeat", type=int, default=3,
                    help="run each timed step this many times, keep the fastest (a shared "
                         "machine's load only ever slows a run down)")
    ap.add_argument("--jobs", type=int, default=0, help="also time the import with N jobs")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    opts = ap.parse_args()
    n = opts.records
    results: dict[str, Any] = {"records": n, "load_before": load()}
    with tempfile.TemporaryDirectory(prefix="priffe-bench-") as tmp:
        src = str(Path(tmp) / "bench.ppn")
        db = str(Path(tmp) / "bench.db")
        results["generate"] = run_step("generate", src, str(n), str(opts.seed))
        results["endplay"] = best(opts.repeat, "endplay", src)
        results["read+validate"] = best(opts.repeat, "validate", src)
        results["import"] = best(opts.repeat, "import", src, db)
        results["executemany"] = run_step("executemany", src, str(Path(tmp) / "raw.db"))
        results["queries"] = run_step("queries", db)
        if opts.jobs:
            results["import --jobs"] = best(opts.repeat, "import", src, db, str(opts.jobs))
        results["load_after"] = load()
        results["rss"] = {}
        for size in (int(s) for s in opts.rss.split(",") if s.strip()):
            f = str(Path(tmp) / f"rss-{size}.ppn")
            run_step("generate", f, str(size), str(opts.seed), "one")
            step = run_step("import", f, str(Path(tmp) / f"rss-{size}.db"))
            peer = run_step("endplay", f)
            results["rss"][size] = {"peak_rss_mib": step["peak_rss_mib"],
                                    "records_per_s": size / step["seconds"],
                                    "endplay_peak_rss_mib": peer["peak_rss_mib"],
                                    "load": load()}
            for name in (f, f + ".pbn"):
                os.unlink(name)
    if opts.json:
        print(json.dumps(results, indent=2))
        return
    report(results, opts.repeat, opts.jobs)


def report(r: dict[str, Any], repeat: int, jobs: int) -> None:
    n = r["records"]
    imp, base, raw, peer = r["import"], r["read+validate"], r["executemany"], r["endplay"]
    print(f"records: {n:,}  file: {r['generate']['bytes'] / 2**20:.1f} MiB  "
          f"database: {imp['db_bytes'] / 2**20:.1f} MiB  best of {repeat}")
    print(f"before: {r['load_before']}; after: {r['load_after']}")
    print(f"{'step':<16}{'CPU s':>8}{'wall s':>8}{'rec/CPU-s':>11}{'rec/wall-s':>12}"
          f"{'× endplay CPU':>15}{'wall':>7}{'peak RSS MiB':>14}")
    steps = [("endplay", peer), ("read+validate", base), ("import", imp)]
    if "import --jobs" in r:
        steps.append((f"import --jobs {jobs}", r["import --jobs"]))
    steps.append(("executemany", raw))
    for name, step in steps:
        print(f"{name:<16}{step['cpu_seconds']:>8.2f}{step['seconds']:>8.2f}"
              f"{n / step['cpu_seconds']:>11,.0f}{n / step['seconds']:>12,.0f}"
              f"{peer['cpu_seconds'] / step['cpu_seconds']:>14.2f}×"
              f"{peer['seconds'] / step['seconds']:>6.2f}×{step['peak_rss_mib']:>14.1f}")
    ratio = imp["cpu_seconds"] / base["cpu_seconds"]
    print(f"import / read+validate: {ratio:.2f}x CPU time (the archive's own share: "
          f"{100 * (1 - 1 / ratio):.0f}% of the import), "
          f"{imp['seconds'] / base['seconds']:.2f}x wall time")
    print(f"import / executemany:   {imp['cpu_seconds'] / raw['cpu_seconds']:.0f}x CPU time")
    if "import --jobs" in r:
        par = r["import --jobs"]
        print(f"import --jobs {jobs} speed-up: {imp['seconds'] / par['seconds']:.2f}"
              "× wall time")
        # The model for an idle machine: the one writer's CPU (serial) and the workers'.
        own, workers = par["parent_cpu_seconds"], par["cpu_seconds"] - par["parent_cpu_seconds"]
        print(f"import --jobs {jobs} CPU: parent (the one writer) {own:.2f} s, workers "
              f"{workers:.2f} s; one job {imp['cpu_seconds']:.2f} s; on {jobs} idle cores at "
              f"best {imp['cpu_seconds'] / max(own, (own + workers) / jobs):.2f}× wall")
    for label, q in r["queries"].items():
        if not isinstance(q, dict):
            continue
        print(f"query {label:<12} {1000 * q['seconds']:8.2f} ms  {q['rows']:>6} rows")
        for line in q["plan"]:
            print(f"    {line}")
    for size, step in r["rss"].items():
        print(f"peak RSS importing {int(size):>7,} deals in one partie: "
              f"{step['peak_rss_mib']:6.1f} MiB ({step['records_per_s']:,.0f} records/s; "
              f"endplay reading them: {step['endplay_peak_rss_mib']:.1f} MiB; {step['load']})")


if __name__ == "__main__":
    main()
