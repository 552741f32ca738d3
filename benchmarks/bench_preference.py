"""Préférence beside Priffe: generate, read and read+validate, measured in the same run.

    python benchmarks/bench_preference.py [--n 5000] [--seed 0] [--repeat 1]

Generates N legal Préférence deals (priffe_records.rules.preference.generate,
parties of 12 deals) and N Priffe deals (the baseline), writes each to a
temporary export-format file, and prints records/s on one core (CPU time of
this process, best of ``--repeat``) with the Préférence/Priffe ratio.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import datetime
import tempfile
from pathlib import Path

from timing import best

from priffe_records import read, validate, write
from priffe_records.format.parser import get_parser
from priffe_records.format.record import Record
from priffe_records.rules.preference.generate import PrefSpec, generate_partie
from priffe_records.rules.priffe.generate import iter_records


def preference_records(n: int, seed: int) -> list[Record]:
    """``n`` legal deals, parties of 12, each partie on a day of its own: parties sharing
    Event, Site and Date would be one partie to the books, whose pot then fails its
    claims at nearly every deal (a finding worded per deal, not what a file holds)."""
    out: list[Record] = []
    k = seed
    while len(out) < n:
        day = (datetime.date(1911, 1, 1) + datetime.timedelta(days=k)).strftime("%Y.%m.%d")
        out.extend(generate_partie(k, spec=PrefSpec(date=day)))
        k += 1
    return out[:n]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--n", type=int, default=5_000, help="deals of each game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    get_parser()
    gen_pref, _ = best(lambda: len(preference_records(args.n, args.seed)), args.repeat)
    gen_priffe, _ = best(lambda: sum(1 for _ in iter_records(args.n, args.seed)), args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        rows = [("generate", gen_pref, gen_priffe)]
        paths = {}
        for game, records in (("pref", preference_records(args.n, args.seed)),
                              ("priffe", list(iter_records(args.n, args.seed)))):
            paths[game] = Path(tmp) / f"{game}.ppn"
            write(records, paths[game])
        for label, fn in (("read", lambda p: sum(1 for _ in read(p))),
                          ("read + validate", lambda p: len(validate(read(p))) + 1)):
            t_pref, _ = best(lambda f=fn: f(paths["pref"]), args.repeat)  # type: ignore[misc]
            t_priffe, _ = best(lambda f=fn: f(paths["priffe"]), args.repeat)  # type: ignore[misc]
            rows.append((label, t_pref, t_priffe))
    print(f"{'step':18} {'Préférence rec/s':>17} {'Priffe rec/s':>13} {'ratio':>6}")
    for label, t_pref, t_priffe in rows:
        pref, priffe = args.n / t_pref, args.n / t_priffe
        print(f"{label:18} {pref:17,.0f} {priffe:13,.0f} {pref / priffe:6.2f}")


if __name__ == "__main__":
    main()
