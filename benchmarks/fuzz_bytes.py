"""Byte-level fuzz of the real files the project reads: a damaged file costs only what was damaged.

    python benchmarks/fuzz_bytes.py [--cases 100000] [--seed 0] [--seconds 0] [--show 5] [--jobs 2]
    python benchmarks/fuzz_bytes.py --seed 28 --case 37929   # one case, shown in full

Each case takes one real file (``../shared/pbn/corpus/*.pbn`` when it is beside the
clone, ``examples/*.ppn``, the fixtures ``tests/data/**/*.p?n`` and ``tests/golden``),
damages its bytes once (flip a byte, delete a range, insert bytes, duplicate a range,
truncate) and runs, in this process, what the commands run: ``read`` (collecting), the
validator, the score sheets and ``score --fill``'s filled records, and the writer's round
trip (``dumps`` read back). It counts

* tracebacks: any exception escaping the library (bucketed by type and place);
* internal errors: a message saying "internal error" or "please report it";
* lost records: a record of the undamaged file far from the damage (neither its text,
  the blank lines around it, nor a neighbour record's text touched), that inherits
  nothing (PBN §4.8) and leaves no '{' open, and yet does not read as the same record
  (its tags, values and sections; comments aside) at its shifted line;
* round trips: records written by ``dumps`` that do not read back the same (an
  unreadable record is written as its text, control characters escaped: it may read
  back better, never otherwise).

Nothing here is a test (tests/test_real_files_fuzz.py is the slow test's few hundred
cases): it prints figures for an issue's closing note. Exit status 1 when any case failed.
"""

from __future__ import annotations

import argparse
import collections
import io
import multiprocessing
import random
import re
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from priffe_records import BadRecord, Record, dumps, loads, read, validate
from priffe_records.cli.sheet_page import filled_records, scored
from priffe_records.format.splitter import brace_state, wide_codec

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "pbn" / "corpus"
TROUBLE = [b"{", b"}", b'"', b"[", b"]", b"%", b";", b"#", b"\n", b"\n\n", b"\r", b"\x00",
           b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\\", b"*", b"+", b"=1=",
           b"$3", b"^I", b'[Event "x"]\n', b"[Event ", b'"]\n']
LINE_START = re.compile(rb"\r\n|\r|\n")


def real_files() -> list[Path]:
    """Every real file: the corpus when present, the examples, the fixtures."""
    found = sorted(CORPUS.glob("*.pbn")) if CORPUS.is_dir() else []
    found += sorted((ROOT / "examples").glob("*.ppn"))
    found += sorted((ROOT / "tests" / "data").rglob("*.p?n"))
    found += sorted((ROOT / "tests" / "golden").glob("*.ppn"))
    return [p for p in found if p.stat().st_size]


def read_all(data: bytes) -> list[Record | BadRecord]:
    return list(read(io.BytesIO(data), errors="collect", name="fuzz.ppn"))


def same(item: Record | BadRecord) -> object:
    """What must not change: a record's content, or an unreadable record's text."""
    return item if isinstance(item, Record) else ("unreadable", item.text)


def content(item: Record | BadRecord) -> object:
    """What a record says, its comments left out: the comments ending a file join its last
    record (a comment block after a record damaged into comments joins the one before)."""
    if isinstance(item, BadRecord):
        return ("unreadable", item.text)
    return [{k: v for k, v in tag.items() if k != "comments"}
            | {"tokens": [{k: v for k, v in tok.items() if k != "comments"}
                          for tok in tag.get("tokens", [])]}  # type: ignore[attr-defined]
            for tag in item.to_dict()["tags"]]  # type: ignore[attr-defined]


def independent(item: Record | BadRecord) -> bool:
    """A record that inherits nothing, so damage elsewhere cannot change it."""
    return isinstance(item, Record) and not item.defaults and all(
        t.inherit is None for t in item.tags)


@dataclass
class Original:
    """A real file and, per record, the byte zone whose damage may change it."""

    path: Path
    data: bytes
    records: list[Record | BadRecord]
    zones: list[tuple[int, int]]  # [start, end): after the record before, to the one after
    lines: list[int]  # byte offset of each line's start
    open_brace: list[bool]  # the record leaves a '{' open: where it ends hangs on what follows


def original(path: Path) -> Original:
    data = path.read_bytes()
    records = read_all(data)
    starts = [0] + [m.end() for m in LINE_START.finditer(data)]
    if wide_codec(data[:4]):
        return Original(path, data, records, [], starts, [])  # 2-byte units: no zones kept
    firsts = [r.location.line if r.location else 1 for r in records]
    zones, open_brace = [], []
    for i, first in enumerate(firsts):
        lo = 0 if i == 0 else starts[min(firsts[i - 1], len(starts) - 1)]
        hi = starts[firsts[i + 1] - 1] if i + 1 < len(firsts) else len(data)
        zones.append((lo, hi))
        depth = 0
        for line in data[starts[first - 1]:hi].decode("utf-8", "replace").splitlines():
            depth = brace_state(line, depth)
        open_brace.append(depth > 0)
    return Original(path, data, records, zones, starts, open_brace)


def damage(data: bytes, rng: random.Random) -> tuple[bytes, str, int, int, int]:
    """The damaged bytes, the kind, the damaged range [lo, hi) of the original and the
    shift of every byte after it."""
    n = len(data)
    kind = rng.choice(("flip", "delete", "insert", "duplicate", "truncate"))
    pos = rng.randrange(n)
    if kind == "flip":
        return data[:pos] + bytes([data[pos] ^ rng.randrange(1, 256)]) + data[pos + 1:], \
            kind, pos, pos + 1, 0
    if kind == "delete":
        size = min(rng.choice((1, 1, 2, 5, 20, 200)), n - pos)
        return data[:pos] + data[pos + size:], kind, pos, pos + size, -size
    if kind == "insert":
        ins = rng.choice(TROUBLE) if rng.random() < 0.7 else rng.randbytes(rng.randint(1, 8))
        return data[:pos] + ins + data[pos:], kind, pos, pos + 1, len(ins)
    if kind == "duplicate":
        size = min(rng.choice((1, 3, 10, 80, 400)), n - pos)
        piece = data[pos:pos + size]
        at = rng.randrange(n + 1)
        return data[:at] + piece + data[at:], kind, at, at + 1, len(piece)
    return data[:pos], kind, pos, n, pos - n


def run_case(orig: Original, rng: random.Random) -> tuple[str, list[str]]:
    """Damage one file and run the commands' library path: (kind, failures)."""
    damaged, kind, lo, hi, shift = damage(orig.data, rng)
    failures: list[str] = []
    try:
        out = read_all(damaged)
        messages = [e.message for r in out for e in r.errors]
        messages += [f.message for f in validate(out)]
        by_family = scored(out)
        filled = filled_records([r for r in out if isinstance(r, Record)], by_family)
        back = list(loads(dumps(out), errors="collect"))  # unreadable ones as their text
        if len(back) != len(out) or any(isinstance(r, Record) and same(b) != same(r)
                                        for r, b in zip(out, back, strict=True)):
            failures.append("round trip: written records read back otherwise")
        list(loads(dumps(filled), errors="collect"))
    except Exception as exc:  # what a user would see as a traceback
        frames = [f for f in traceback.extract_tb(exc.__traceback__)
                  if "priffe_records" in f.filename]
        where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
        return kind, [f"traceback: {type(exc).__name__} at {where}: {str(exc)[:80]}"]
    if any("internal error" in m or "please report" in m for m in messages):
        failures.append("internal error: " + next(
            m for m in messages if "internal error" in m or "please report" in m)[:100])
    if orig.zones:
        failures += lost(orig, out, damaged, lo, hi, shift)
    return kind, failures


def lost(orig: Original, out: list[Record | BadRecord], damaged: bytes, lo: int, hi: int,
         shift: int) -> list[str]:
    """The records the damage did not touch that no longer read the same."""
    found = {r.location.line: r for r in out if r.location is not None}
    missing = []
    zones = orig.zones
    for i, (rec, brace) in enumerate(zip(orig.records, orig.open_brace, strict=True)):
        # Near: the record's zone or a neighbour's (the comments ending a file join the
        # record before them; a line appended at the file's end joins the last record).
        start = zones[max(i - 1, 0)][0]
        end = zones[i + 1][1] if i + 1 < len(zones) else len(orig.data) + 1
        if not independent(rec) or brace or (start < hi and lo < end) or lo < 4:
            continue  # near the damage (or the file's first bytes, which say its encoding)
        first = rec.location.line if rec.location else 1
        at = orig.lines[first - 1]
        moved = at if at < lo else at + shift
        line = len(LINE_START.findall(damaged, 0, moved)) + 1
        got = found.get(line)
        if got is None or content(got) != content(rec):
            missing.append(f"lost record: {orig.path.name} line {first} (damage at byte "
                           f"{lo}-{hi})")
    return missing


FILES: list[Original] = []  # set before the workers fork: they share it


def picks(seed: int, count: int, files: int) -> list[int]:
    """The file of each case: one stream per run, so a case is the same whatever --jobs."""
    rng = random.Random(seed)
    return [rng.choice(range(files)) for _ in range(count)]


def one_case(job: tuple[int, int, int]) -> tuple[int, str, str, list[str]]:
    """Case ``case`` of run ``seed`` on file ``pick``: (case, file name, kind, failures)."""
    seed, case, pick = job
    orig = FILES[pick]
    kind, failures = run_case(orig, random.Random(f"{seed}/{case}"))
    return case, orig.path.name, kind, failures


def show_case(seed: int, case: int, pick: int) -> None:
    """One case in full: the damage, the damaged text around it and what failed."""
    orig = FILES[pick]
    damaged, kind, lo, hi, shift = damage(orig.data, random.Random(f"{seed}/{case}"))
    print(f"case {case} of seed {seed}: {orig.path}\n{kind} at bytes {lo}-{hi}, shift {shift}")
    print(damaged[max(0, lo - 200):lo + max(shift, 0) + 200].decode("utf-8", "replace"))
    print("failures:", one_case((seed, case, pick))[3] or "none")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long (0: never)")
    ap.add_argument("--show", type=int, default=5, help="examples printed per failure kind")
    ap.add_argument("--jobs", type=int, default=1, help="processes (the cases are the same)")
    ap.add_argument("--case", type=int, help="run only this case of --seed and show it")
    args = ap.parse_args()
    FILES[:] = [original(p) for p in real_files()]
    if args.case is not None:
        show_case(args.seed, args.case, picks(args.seed, args.case + 1, len(FILES))[-1])
        return
    jobs = [(args.seed, case, pick)
            for case, pick in enumerate(picks(args.seed, args.cases, len(FILES)))]
    kinds: collections.Counter[str] = collections.Counter()
    failed: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    started = time.monotonic()
    cases = 0
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for case, name, kind, failures in pool.imap(one_case, jobs, chunksize=20):
            if args.seconds and time.monotonic() - started > args.seconds:
                break
            cases += 1
            kinds[kind] += 1
            for f in failures:
                bucket = f.split(":")[0] if not f.startswith("traceback") else f[:60]
                failed[bucket] += 1
                if len(examples[bucket]) < args.show:
                    examples[bucket].append(f"case {case} ({name}, {kind}): {f}")
            if cases % 5000 == 0:
                print(f"{cases} cases, {time.monotonic() - started:.0f} s, "
                      f"{sum(failed.values())} failures", file=sys.stderr, flush=True)
    seconds = time.monotonic() - started
    print(f"{cases} cases over {len(FILES)} files in {seconds:.1f} s with {args.jobs} "
          f"process(es) ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})")
    if not failed:
        print("failures: none (0 tracebacks, 0 internal errors, 0 records lost, "
              "0 round trips)")
    for bucket, n in failed.most_common():
        print(f"{n:7d}  {bucket}")
        for line in examples[bucket]:
            print(f"         {line}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
