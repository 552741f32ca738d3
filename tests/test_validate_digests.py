"""The validator's output frozen before the lean rules check (issue 9 point 3).

Every finding ``validate()`` gives (record, rule, severity, English and Swedish text,
file, line, column) and every fact ``parties()`` keeps for a Priffe deal (dealer,
players, deal, auction calls, play result and trick rows, contract, declarer, tricks,
honours, score, the rubber's totals and step, rubber results and standings) is hashed
per input: every example, tests/data, golden and corpus file, and seeded generated
parties with random damage (built in code, and read back from text with the English
preset and the R9 conventions). ``tests/data/validate-digests.json`` holds the hashes
taken with the engine as it was before; a faster engine must give them byte for byte.
Files are read under their short name (``examples/x.ppn``), so the hashes do not depend
on where the checkout lives (the clean-clone CI runs it from another folder).

``PRIFFE_UPDATE_GOLDEN=1`` rewrites them: only when a change of wording or of a rule
is meant, never to make a speed change pass. A generated input is kept with its own
hash, so a changed generator or file is left out (at least 40 inputs must be checked),
not a false failure.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS_FILES, DATA, PPN_FILES
from test_engine_equivalence import damaged, several_parties

from priffe_records import dumps, loads, read, validate
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.game.language import render
from priffe_records.rules.findings import Finding
from priffe_records.rules.partie import parties
from priffe_records.rules.priffe.analysis import DealOutcome
from priffe_records.rules.priffe.options import PRESETS
from priffe_records.rules.priffe.rubber import PartieResult

DIGESTS = DATA / "validate-digests.json"
UPDATE = os.environ.get("PRIFFE_UPDATE_GOLDEN") == "1"
SEEDS = range(16)


def _finding(f: Finding) -> list[object]:
    loc = f.location
    return [f.record, f.rule, f.severity.value, render(f.text, "en"), render(f.text, "sv"),
            loc.file if loc else None, loc.line if loc else None, loc.column if loc else None]


def _s(value: object) -> object:
    return None if value is None else str(value)


def _outcome(o: DealOutcome) -> list[object]:
    a, p, ds = o.auction, o.play, o.score
    return [
        o.index, o.priffe, o.options.preset, repr(o.options), _s(o.dealer), list(o.players),
        o.deal.pbn() if o.deal is not None else None,
        None if a is None else [[str(c.seat), _s(c.call), c.text, c.index, c.legal]
                                for c in a.calls] + [a.complete, _s(a.contract),
                                                     _s(a.declarer)],
        None if p is None else [str(p.won), p.undecided, p.claimed, p.complete, p.played,
                                [[n, _s(lead), _s(win), list(cards)]
                                 for n, lead, win, cards in p.rows()]],
        _s(o.contract), _s(o.declarer), _s(o.tricks), _s(o.honours), o.honours_known,
        None if ds is None else [repr(ds), str(ds.total), str(ds.game)],
        [_finding(f) for f in o.findings],
    ]


def dump(records: list[Record | BadRecord], **kw: Any) -> list[object]:
    """What the validator says of the records, and what the books keep of them."""
    out: list[object] = [_finding(f) for f in validate(records, **kw)]
    for res in parties(records, **kw):
        if not isinstance(res, PartieResult):
            out.append([_finding(f) for f in res.findings])  # another family's partie
            continue
        out.append([res.event, res.site, res.date, [list(map(_s, r)) for r in res.standings],
                    [[r.rubber, _s(r.totals), r.finished, _s(r.winner),
                      [list(map(_s, s)) for s in r.settlement]] for r in res.rubbers]])
        for line in res.lines:
            step = line.step
            out.append([line.rubber, line.seq, _s(line.totals), _s(line.games),
                        None if step is None else [_s(step.game_made), str(step.bonus),
                                                   str(step.forfeit), step.ended],
                        _outcome(line.outcome)])
    return out


def _hash(data: object) -> str:
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _files() -> list[Path]:
    return PPN_FILES + CORPUS_FILES


def _generated() -> Iterator[tuple[str, str, list[object]]]:
    """(case, hash of its input, its dump) for each seeded damaged partie."""
    for seed in SEEDS:
        preset = "en" if seed % 2 else "sv"
        recs = damaged(seed, preset, 1 + seed % 6)
        text = dumps(recs)
        yield (f"built/{seed}", _hash(text), dump(list(recs)))
        yield (f"read/{seed}", _hash(text),
               dump(list(loads(text, errors="collect")), options=PRESETS[preset],
                    conventions=True))
    for seed in range(4):
        text = several_parties(seed, random.Random(seed))
        yield (f"several/{seed}", _hash(text), dump(list(loads(text, errors="collect"))))


def _actual() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for path in _files():
        key = f"{path.parent.name}/{path.name}"
        out[key] = {"input": hashlib.sha256(path.read_bytes()).hexdigest(),
                    "output": _hash(dump(list(read(path, errors="collect", name=key))))}
    for case, given, data in _generated():
        out[case] = {"input": given, "output": _hash(data)}
    return out


@pytest.mark.slow  # long: every file validated
def test_validator_output_is_frozen() -> None:
    actual = _actual()
    if UPDATE:
        golden = json.loads(DIGESTS.read_text("utf-8")) if DIGESTS.exists() else {}
        golden.update(actual)
        DIGESTS.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n", "utf-8")
    golden = json.loads(DIGESTS.read_text("utf-8"))
    assert golden, f"{DIGESTS} is missing: run with PRIFFE_UPDATE_GOLDEN=1 once"
    changed, skipped = [], []
    for key, got in actual.items():
        want = golden.get(key)
        if want is None or want["input"] != got["input"]:
            skipped.append(key)  # a file or a generator that changed: not ours to judge
        elif want["output"] != got["output"]:
            changed.append(key)
    assert not changed, f"the validator's output changed for {changed}"
    checked = len(actual) - len(skipped)
    assert checked >= 40, f"only {checked} inputs checked; changed inputs: {skipped}"
