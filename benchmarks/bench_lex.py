"""The reader's two first steps, each against its reference in the same run.

    python benchmarks/bench_lex.py [--n 2000] [--seed 0] [--repeat 5]

* parse: ``parser.parse_lark`` (Lark, lark-cython when installed) against the fast path
  derived from the grammar (``format/fastlex.py``), per record of a generated file
  already cut into records, and the share of records the fast path takes;
* split: the file's bytes decoded and cut into records by the reader
  (``reader._split(_Decoded(…))``) against the reference splitter kept in
  ``benchmarks/split_reference.py`` (the splitter before issue 9).

CPU µs per record, best of ``--repeat``, with the load average. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

from timing import generated_file, load, measure

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from split_reference import reference_split

from priffe_records.format.fastlex import machine
from priffe_records.format.parser import get_parser, parse_lark
from priffe_records.format.reader import _Decoded, _split


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
    fast = machine(get_parser())
    assert fast is not None, "the grammar is outside the fast path's model"
    texts = ["\n".join(c.lines) + "\n" for c in _split(_Decoded(io.BytesIO(data)))]
    n = len(texts)
    taken = sum(fast.parse(t) is not None for t in texts)
    before = load()

    def lark_all() -> int:
        for t in texts:
            parse_lark(t)
        return n

    def fast_all() -> int:
        for t in texts:
            if fast.parse(t) is None:
                parse_lark(t)
        return n

    def split_new() -> int:
        return sum(1 for _ in _split(_Decoded(io.BytesIO(data))))

    def split_old() -> int:
        return sum(1 for _ in reference_split(io.BytesIO(data)))

    rows = [("parse: Lark", measure(lark_all, args.repeat)),
            ("parse: fast path (+ Lark when it gives up)", measure(fast_all, args.repeat)),
            ("split: reference (before)", measure(split_old, args.repeat)),
            ("split: reader now", measure(split_new, args.repeat))]
    print(f"{n:,} records, best of {args.repeat}; before: {before}; after: {load()}")
    print(f"fast path takes {taken:,} of {n:,} records ({100 * taken / max(n, 1):.1f}%)")
    print(f"{'':44} {'CPU µs/rec':>10} {'wall µs/rec':>11} {'× reference CPU':>16}")
    for k, (label, t) in enumerate(rows):
        base = rows[k - k % 2][1].cpu
        print(f"{label:44} {t.cpu / n * 1e6:10.1f} {t.wall / n * 1e6:11.1f} "
              f"{base / t.cpu if t.cpu else 0:15.2f}×")


if __name__ == "__main__":
    main()
