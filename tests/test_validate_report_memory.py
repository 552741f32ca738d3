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
import tracemalloc
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from priffe_records.cli import rules as cli_rules
from priffe_records.cli.rules import Boards, validate_command
from priffe_records.format.record import Location
from priffe_records.game.language import msg
from priffe_records.rules.findings import Finding, Severity

FORMAT_EXAMPLE = Path(__file__).parent / "data" / "format-example.ppn"


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
