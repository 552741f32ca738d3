"""The grouped ``validate`` report holds little per finding and per record (issue 21, point 3).

The grouped report needs a whole file's findings before it prints (its head line counts
the file's errors, "… and N more like this" needs the totals), so what it holds per
finding decides how its memory grows with a long partie. A finding used to keep its
message's parameters (~1 KB) and rich rendered the whole report at once (~1 KB a
finding more); each record's Board was a dict entry of ~100 bytes.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tracemalloc
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from priffe_records import write
from priffe_records.cli import rules as cli_rules
from priffe_records.cli.rules import Boards, validate_command
from priffe_records.format.record import Location
from priffe_records.game.language import msg
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.priffe.generate import iter_records

FORMAT_EXAMPLE = Path(__file__).parent / "data" / "format-example.ppn"
BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _findings(n: int) -> Iterator[Finding]:
    """``n`` findings shaped like R23's (a message with nested parameters), made one at a
    time, so only what the report keeps of them stays."""
    for i in range(n):
        why = msg("{side} made a game, bonus {bonus}", side="EW", bonus=20 + i)
        text = msg("ScoreRubber says {claimed}, but the rubber stands at {totals}{why} ({rule})",
                   claimed=f"NS {i} EW 170", totals=f"NS 0 EW {i}", why=why, rule="R23")
        yield Finding("R23", Severity.ERROR, text, Location("big.ppn", 40 * i + 30, 1),
                      i // 5 + 1)


def _peak_of_report(monkeypatch: pytest.MonkeyPatch, n: int) -> int:
    """Peak traced memory of ``priffe validate`` (grouped report) giving ``n`` findings."""

    def engine(records: Iterable[object], **_: object) -> Iterator[Finding]:
        for _rec in records:  # the records pass, as the engine reads them
            pass
        return _findings(n)

    monkeypatch.setattr(cli_rules, "findings", engine)
    with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
        tracemalloc.start()
        try:
            validate_command.main([str(FORMAT_EXAMPLE)], standalone_mode=False)
        except SystemExit:
            pass
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    return peak


def test_grouped_report_holds_a_few_hundred_bytes_a_finding(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """About 430 bytes now; 1.6 KB before (1.1 KB with only the words rendered early)."""
    _peak_of_report(monkeypatch, 200)  # imports and caches on the first run
    small, big = _peak_of_report(monkeypatch, 1_000), _peak_of_report(monkeypatch, 5_000)
    per_finding = (big - small) / 4_000
    assert per_finding < 600, f"{per_finding:.0f} bytes a finding"


def test_boards_answer_as_the_dict_did() -> None:
    given = ["1", None, "12", "007", "3a", "", "١٢", "99999999999999999999", "-4", "2"]
    boards = Boards()
    for board in given:
        boards.append(board)
    assert dict(boards) == dict(enumerate(given, 1))
    assert boards.get(0) is None and boards.get(len(given) + 1) is None
    assert len(boards) == len(given)


def test_boards_cost_bytes_not_a_dict_entry_a_record() -> None:
    tracemalloc.start()
    boards = Boards()
    for i in range(1, 20_001):
        boards.append(str(i))
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert size < 20_000 * 12, f"{size / 20_000:.0f} bytes a record"


# With --jobs 2, slices of the file shrunk so that a test-sized file is cut as a big one is.
_SMALL_SLICES = ("import sys; from priffe_records.rules import parallel; "
                 "parallel.SLICE = 1 << 16; parallel._MIN_SLICE = 1 << 14; "
                 "from priffe_records.cli import cli; sys.exit(cli())")


@pytest.mark.slow
def test_validate_jobs_2_memory_stays_flat_as_the_file_grows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Peak RSS of ``validate --jobs 2`` (its workers' and the whole tree's) for one partie
    of 1,000 and of 8,000 deals, slices of 64 KiB: a worker holds its slice analysed
    (~15 KB a deal), so slices that were a share of the file (600 KiB for the big one)
    made its peak grow with the file; now within 1.2x, as the issue asks of 10k -> 50k."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    tree_rss = pytest.importorskip("tree_rss", reason="benchmarks/ beside tests/")
    records = list(iter_records(8_000, 3, one_partie=True))
    peaks = []
    for n in (1_000, 8_000):
        path = tmp_path / f"one-{n}.ppn"
        write(records[:n], path)
        res = tree_rss.measure([sys.executable, "-c", _SMALL_SLICES, "validate", "--jobs",
                                "2", str(path)])
        workers = [v for k, v in res.items() if k.startswith("process")][1:]
        assert len(workers) == 2, res  # really checked by two workers
        peaks.append((res["rss"], max(workers)))
    (tree_small, worker_small), (tree_big, worker_big) = peaks
    print(f"tree {tree_small:.1f} -> {tree_big:.1f} MiB, worker {worker_small:.1f} -> "
          f"{worker_big:.1f} MiB")
    assert worker_big <= 1.2 * worker_small, peaks
    assert tree_big <= 1.2 * tree_small, peaks
