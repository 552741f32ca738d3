"""After a record of a partie that could not be read, the totals are unverifiable (issue 28, 1b).

Record 1 of the Uppsala partie is damaged so that the reader cannot read it. Deals 2–4
are correct, but their ScoreRubber and Settlement claims count deal 1: computed without
it they look wrong. Every consumer of the driver must say the totals after it are not
known (unverifiable), never an error or a warning: ``validate``, ``score`` (the sheet, and
what ``--fill`` would write), the replay (terminal and page) and what ``import`` stores.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from priffe_records.cli import cli
from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import loads
from priffe_records.rules.priffe.sheet import (
    DealRow,
    RubberRow,
    fill_records,
    score_partie,
    score_parties,
)
from priffe_records.rules.validate import validate

UPPSALA = ROOT / "examples" / "partie-uppsala.ppn"
PREFERENCE = ROOT / "examples" / "preference-graz.ppn"


def _damaged(source: Path = UPPSALA) -> str:
    """The file with its first record's structure broken: stray brackets after Board."""
    text = source.read_text("utf-8")
    at = text.index("]", text.index("[Board ")) + 1
    text = text[:at] + " ]]][[" + text[at:]
    assert isinstance(next(iter(loads(text, errors="collect"))), BadRecord)  # the premise
    return text


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The damaged file as ``uppsala.ppn`` in the current folder (messages name it short)."""
    monkeypatch.chdir(tmp_path)
    out = Path("uppsala.ppn")
    out.write_text(_damaged(), "utf-8")
    return out


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "record 1 (uppsala.ppn:3:1) could not be read"),
    ("sv", "giv 1 (uppsala.ppn:3:1) kunde inte läsas")])
def test_validate_finds_no_error_after_a_first_record_that_could_not_be_read(
        path: Path, lang: str, words: str) -> None:
    code, out = _run("validate", "--lang", lang, str(path))
    assert code == 1  # the damaged record's own error
    flat = " ".join(out.split())
    assert "R22" not in out and "R23" in out and words in flat
    assert flat.endswith(("1 error, 0 warnings, 1 unverifiable in 1 file (11 records)",
                          "1 fel, 0 varningar, 1 ej kontrollerbar i 1 fil (11 givar)"))


def test_only_the_partie_the_unread_record_may_belong_to_is_unverifiable() -> None:
    """Between two parties, a damaged first record of the second costs the second only:
    the first partie's totals, read before it, are still checked and known."""
    good = UPPSALA.read_text("utf-8")
    other = good.replace("2026.10.17", "2026.10.10")
    items = list(loads(other + "\n" + _damaged(), errors="collect"))
    assert [(f.rule, f.severity.value, f.record) for f in validate(items)] == [
        ("PPN", "error", 12), ("R23", "unverifiable", 13)]
    first, second = score_parties(items)
    assert [r.totals is not None for r in first.rows if isinstance(r, RubberRow)] == [True] * 3
    assert [r.totals is not None for r in second.rows if isinstance(r, RubberRow)] == [
        False, True, True]


def test_a_last_unread_record_of_another_partie_costs_the_partie_before_nothing() -> None:
    good = UPPSALA.read_text("utf-8")
    stray = _damaged().replace("2026.10.17", "2026.10.24").split("\n\n")[0]
    items = list(loads(good + "\n" + stray + "\n", errors="collect"))
    assert isinstance(items[-1], BadRecord)
    [sheet] = score_parties(items)
    assert [r.totals is not None for r in sheet.rows if isinstance(r, RubberRow)] == [True] * 3


def test_the_preference_pot_after_an_unread_first_record_is_unverifiable() -> None:
    found = validate(loads(_damaged(PREFERENCE), errors="collect"))
    assert [f.rule for f in found if f.is_error] == ["PPN"]
    assert not any(f.severity.value == "warning" for f in found)


def test_the_sheet_knows_no_totals_after_it_and_fill_writes_none() -> None:
    items = list(loads(_damaged(), errors="collect"))
    sheet = score_partie(items)
    deals = {r.board: r for r in sheet.rows if isinstance(r, DealRow)}
    assert [deals[b].totals for b in ("2", "3")] == [None, None]
    assert str(deals["4"].totals) == "NS 0 EW 20"  # rubber 2 starts afresh
    good = [r if isinstance(r, BadRecord) else r.without_tag("ScoreRubber")
            .without_tag("Settlement") for r in items]
    filled = fill_records([r for r in good if not isinstance(r, BadRecord)], [sheet])
    by_board = {r.get("Board"): r for r in filled}  # the good records keep their places
    assert by_board["2"].get("ScoreRubber") is None and by_board["3"].get("Settlement") is None


def test_score_shows_the_totals_after_it_as_unknown(path: Path) -> None:
    code, out = _run("score", "--lang", "en", str(path))
    assert code == 1
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.strip()[:1].isdigit()}
    assert rows["2"][-3:] == ["?", "?", "?"] and rows["3"][-3:] == ["?", "?", "?"]
    assert "R23" not in out


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Rubber so far: unknown, as record 1 (uppsala.ppn:3:1) could not be read"),
    ("sv", "Robbert hittills: okänd, eftersom giv 1 (uppsala.ppn:3:1) kunde inte läsas")])
def test_the_replay_says_the_rubber_is_unknown(path: Path, lang: str, words: str) -> None:
    code, out = _run("replay", "--lang", lang, "--board", "2", str(path))
    assert words in " ".join(out.split())
    assert "R23" not in out and "ScoreRubber" not in out and code == 0
    page = Path("r.html")
    code, _ = _run("replay", "--lang", lang, "--html", str(page), str(path))
    html = page.read_text("utf-8")
    assert words.split(": ", 1)[1] in html and "ScoreRubber" not in html


def test_import_stores_unknown_totals_and_no_false_error(path: Path) -> None:
    db = Path("a.db")
    code, out = _run("import", "--db", str(db), str(path))
    assert code in (0, 1), out
    with sqlite3.connect(db) as con:
        deals = con.execute("SELECT board, rubber_ns, errors, warnings, unverifiable FROM deals"
                            " WHERE board IN ('2', '3', '4') ORDER BY id").fetchall()
        first = con.execute("SELECT complete, total_ns FROM rubbers WHERE number = 1").fetchone()
    assert deals == [("2", None, 0, 0, 1), ("3", None, 0, 0, 0), ("4", 0, 0, 0, 0)]
    assert first == (0, None)


def test_import_keeps_the_unread_first_record_with_its_own_partie(path: Path) -> None:
    """Between two parties, the archive groups the damaged record with the partie it was
    read with, so that partie's books hear of it, as validate's do."""
    other = UPPSALA.read_text("utf-8").replace("2026.10.17", "2026.10.10")
    path.write_text(other + "\n" + path.read_text("utf-8"), "utf-8")
    _run("import", "--db", "b.db", str(path))
    with sqlite3.connect("b.db") as con:
        found = con.execute("SELECT d.line, f.rule, f.severity FROM findings f JOIN deals d"
                            " ON d.id = f.deal_id ORDER BY d.line").fetchall()
        sizes = con.execute("SELECT count(*) FROM deals GROUP BY partie_id").fetchall()
    assert [(rule, severity) for _, rule, severity in found] == [
        ("PPN", "error"), ("R23", "unverifiable")]
    assert sizes == [(11,), (11,)]
