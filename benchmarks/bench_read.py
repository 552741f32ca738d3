"""Reader and writer speed against endplay (the peer) and a plain ``re`` tag scan.

    python benchmarks/bench_read.py [--n 20000] [--seed 0] [--repeat 3] [--rss 20000,100000]

Generates N legal records deterministically (priffe_records.rules.priffe.generate),
writes them to a temporary export-format file and their bridge twins (benchmarks/peer.py:
same deals, same tricks, contract 1H) to another, then measures on one core, in the same
run, best of ``--repeat``:

* re tag scan — a compiled regex that only finds the tag pairs: the floor any reader
  pays for touching every byte;
* endplay — ``endplay.parsers.pbn.load`` of the twin file: the peer, and the baseline
  of the ``× endplay`` column (how many times endplay's time ours is: > 1 is faster);
* read — ``priffe_records.read`` (full parse into the record model);
* read + write — ``read`` then ``dumps`` of every record.

``--rss`` reads one-partie files of those sizes in fresh processes and prints each
reader's peak RSS. Nothing here is a test: the numbers are printed, not asserted.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from peer import endplay_load, twin_file
from timing import (
    HEADER,
    generated_file,
    load,
    measure,
    peak_rss_mib,
    ratio_line,
    rss_table,
)

from priffe_records import dumps, read
from priffe_records.format.parser import get_parser

TAG = re.compile(rb'^\[([A-Z][A-Za-z0-9_]*) "((?:\\.|[^"\\])*)"\]', re.M)


def _child(step: str, path: str) -> None:
    get_parser()
    n = endplay_load(Path(path)) if step == "endplay" else sum(1 for _ in read(path))
    print(json.dumps({"records": n, "peak_rss_mib": peak_rss_mib()}))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="records to generate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rss", default="", help="comma-separated one-partie sizes to measure")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path, twin = Path(tmp) / "bench.ppn", Path(tmp) / "bench.pbn"
        generated_file(path, args.n, args.seed)
        twin_file(twin, args.n, args.seed)
        get_parser()  # built once per process, like every real run

        def scan() -> int:
            return len(TAG.findall(path.read_bytes())) and args.n

        def peer() -> int:
            return endplay_load(twin)

        def read_all() -> int:
            return sum(1 for _ in read(path))

        def read_write() -> int:
            n = 0
            for rec in read(path):
                dumps([rec], header=False)
                n += 1
            return n

        before = load()
        base = measure(peer, args.repeat)
        assert base.count == args.n, f"endplay read {base.count} boards, expected {args.n}"
        rows = [("re tag scan (floor)", measure(scan, args.repeat)), ("endplay (peer)", base)]
        for label, fn in (("read", read_all), ("read + write", read_write)):
            t = measure(fn, args.repeat)
            assert t.count == args.n, f"{label} saw {t.count} records, expected {args.n}"
            rows.append((label, t))

    print(f"{args.n:,} records, best of {args.repeat}; before: {before}; after: {load()}")
    print(HEADER)
    for label, t in rows:
        print(ratio_line(label, args.n, t, base))
    if args.rss:
        rss_table(__file__, "read", "read",
                  [int(s) for s in args.rss.split(",") if s.strip()], args.seed)


if __name__ == "__main__":
    main()
