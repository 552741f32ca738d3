"""The reader's two first steps: cutting a file into records, and tokenizing them.

    python benchmarks/bench_lex.py [--n 2000] [--seed 0] [--repeat 5] [--file F]

* split: the file's bytes decoded and cut into records (``split(Decoded(…))``);
* tokens: the tokenizer compiled from the grammar (``format/scanner.py``) against Lark's
  own parser of the same grammar (which the reader runs only to explain an error), per
  record of the file already cut into records.

CPU µs per record, best of ``--repeat``, with the load average. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import io
import tempfile
from pathlib import Path

from timing import generated_file, load, measure

from priffe_records.format.parser import get_parser
from priffe_records.format.scanner import scanner
from priffe_records.format.splitter import Decoded, split


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--file", type=Path, default=None, help="a file instead of generated deals")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.file
        if path is None:
            path = Path(tmp) / "bench.ppn"
            generated_file(path, args.n, args.seed)
        data = path.read_bytes()
    lark = get_parser()
    scan = scanner(lark)
    texts = ["\n".join(c.lines) + "\n" for c in split(Decoded(io.BytesIO(data)))]
    n = len(texts)
    before = load()

    def split_all() -> int:
        return sum(1 for _ in split(Decoded(io.BytesIO(data))))

    def lark_all() -> int:
        for t in texts:
            lark.parse(t)
        return n

    def scan_all() -> int:
        for t in texts:
            scan.parse(t)
        return n

    rows = [("split", measure(split_all, args.repeat)),
            ("tokens: Lark's parser", measure(lark_all, args.repeat)),
            ("tokens: the scanner", measure(scan_all, args.repeat))]
    print(f"{n:,} records, best of {args.repeat}; before: {before}; after: {load()}")
    print(f"{'':24} {'CPU µs/rec':>10} {'wall µs/rec':>11}")
    for label, t in rows:
        print(f"{label:24} {t.cpu / n * 1e6:10.1f} {t.wall / n * 1e6:11.1f}")
    print(f"the scanner: {rows[1][1].cpu / rows[2][1].cpu:.2f}× Lark's parser (CPU)")


if __name__ == "__main__":
    main()
