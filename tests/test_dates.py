"""Every date goes through one checked conversion (issue 28 item 3).

A ``Date`` whose day or month is a number too big for Python's ``datetime.date``
ended ``priffe replay`` in a traceback (OverflowError) and ``priffe score`` in an
"internal error": now the date is shown as written and the reader's located warning
says what is wrong with it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from priffe_records.cli import cli
from priffe_records.format.values import real_day
from priffe_records.game.dates import calendar_day, pbn_day
from priffe_records.game.language import shown_date

HUGE = "99999999999999999999"
UPPSALA = ROOT / "examples" / "partie-uppsala.ppn"


@pytest.mark.parametrize("date", [f"2026.11.{HUGE}", f"2026.{HUGE}.01", f"{HUGE}.11.01"])
@pytest.mark.parametrize("command", [["replay", "--board", "1"], ["score"],
                                     ["replay", "--html", "r.html"], ["score", "--html", "s.html"]])
def test_a_huge_date_is_shown_as_written_with_a_located_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, date: str, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path("d.ppn").write_text(UPPSALA.read_text("utf-8").replace("2026.10.17", date), "utf-8")
    result = CliRunner().invoke(cli, [*command, "--lang", "en", "d.ppn"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "internal error" not in result.output and result.exit_code == 0, result.output
    shown = result.output + "".join(p.read_text("utf-8") for p in Path().glob("*.html"))
    assert date in shown.replace("\n", " ").replace(" ", "") or date[:20] in shown
    if command == ["replay", "--board", "1"]:
        assert "warning PPN: d.ppn:6:8: Date" in result.output


def test_validate_warns_of_it_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "d.ppn"
    path.write_text(UPPSALA.read_text("utf-8").replace("2026.10.17", f"2026.11.{HUGE}"), "utf-8")
    result = CliRunner().invoke(cli, ["validate", "--lang", "sv", str(path)])
    assert result.exit_code == 0 and "PPN     6:8  datumet '2026.11." in result.output


def test_the_one_conversion_never_raises() -> None:
    assert calendar_day(2026, 11, int(HUGE)) is None and calendar_day("2026", HUGE, "1") is None
    assert calendar_day("2026", "1" * 5000, "1") is None  # past Python's digit limit
    assert pbn_day(f"2026.11.{HUGE}") is None and shown_date(f"2026.11.{HUGE}") == f"2026.11.{HUGE}"
    assert not real_day("2026", "11", HUGE) and real_day("0000", "??", "31")
