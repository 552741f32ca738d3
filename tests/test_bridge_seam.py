"""The family seam, proven by contract bridge: shared code validates, replays, scores,
deals and archives a family's records untouched, and refuses what a family does not answer
with one located message. That the family is found by its entry point alone, installed
from outside the package, is tests/test_family_plugin.py's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from priffe_records import loads
from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import ensure_schema, open_archive
from priffe_records.cli import cli
from priffe_records.cli.sheet_page import filled_records, scored
from priffe_records.format.record import Record, Tag
from priffe_records.rules.blank import random_deals, skeleton
from priffe_records.rules.checks import present
from priffe_records.rules.entry import new_deal
from priffe_records.rules.partie import parties
from priffe_records.rules.spreadsheet import import_rows
from priffe_records.rules.validate import validate

# Two boards of one evening: 4S made with an overtrick by E (NS vulnerable only), and
# 3NT by S two down, the Score tag wrong (it says 100, the deal gives EW 200).
TWO_DEALS = """[Event "Klubb"]
[Site "Lund"]
[Date "2026.11.03"]
[Board "1"]
[Dealer "N"]
[Vulnerable "NS"]
[Scoring "IMP"]
[Declarer "E"]
[Contract "4S"]
[Result "11"]

[Event "Klubb"]
[Site "Lund"]
[Date "2026.11.03"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Scoring "IMP"]
[Declarer "S"]
[Contract "3NT"]
[Result "7"]
[Score "NS -100"]
"""


def test_validate_lists_the_checks_of_the_records_family() -> None:
    [bridge] = loads('[Scoring "MP"]\n[Result "9"]\n')
    [priffe] = loads('[Result "NS 7 EW 6"]\n')
    assert [c.rules for c in present(bridge)] == ["B9"]
    assert [c.name for c in present(priffe)] == ["score"]


def test_bridge_keeps_its_books_and_sheet() -> None:
    records = list(loads(TWO_DEALS))
    (partie,) = parties(records)
    assert [(ln.outcome.index, ln.outcome.score) for ln in partie.lines] == [(1, -450),
                                                                             (2, -200)]
    [b10] = partie.findings
    assert (b10.rule, b10.record) == ("B10", 2)
    filled = filled_records(records, scored(records))
    assert [r.get("Score") for r in filled] == ["NS -450", "NS -200"]


def test_bridge_deals_an_evening() -> None:
    assert [r.get("Dealer") for r in skeleton("bridge", deals=3, dealer="S")] == [
        "S", "W", "N"]
    dealt = random_deals("bridge", 2, seed=3)
    assert [r.get("Scoring") for r in dealt] == ["IMP", "IMP"]
    assert validate(dealt) == []


def test_bridge_is_archived(tmp_path: Path) -> None:
    """The archive stores a bridge deal's rows from the family's archive hooks."""
    src = tmp_path / "bridge.pbn"
    src.write_text(TWO_DEALS, "utf-8")
    db = open_archive(str(tmp_path / "a.db"))
    ensure_schema(db)
    import_file(db, str(src))
    rows = db.execute("SELECT board, game, contract, declarer, tricks_ns, made, score_ns, "
                      "claimed_score_ns FROM deals ORDER BY board").fetchall()
    assert rows == [("1", "Bridge", "4S", "E", 2, 1, -450, None),
                    ("2", "Bridge", "3NT", "S", 7, 0, -200, -100)]


@pytest.mark.parametrize(("scoring", "dealer", "then"), [
    ("Priffe", "W", "N"), ("Preference", "S", "N"), ("Preference", "E", "S"),
    ("IMP", "W", "N")])
def test_the_next_deal_is_dealt_as_its_family_says(scoring: str, dealer: str,
                                                   then: str) -> None:
    """priffe add's next deal: the family's next_dealer (R3 left; Préférence skips W)."""
    previous = Record((Tag("Event", "Kväll"), Tag("Board", "4"), Tag("Dealer", dealer),
                       Tag("Scoring", scoring)))
    after = new_deal(previous)
    assert (after.get("Board"), after.get("Dealer")) == ("5", then)


def test_a_game_without_entry_hooks_is_not_typed(tmp_path: Path) -> None:
    """priffe add on a bridge evening: one located error at its Scoring tag, nothing written."""
    src = tmp_path / "bridge.pbn"
    open_deal = '[Declarer "S"]\n[Contract "3NT"]\n[Result "7"]\n[Score "NS -100"]\n'
    src.write_text(TWO_DEALS.replace(open_deal, ""), "utf-8")
    before = src.read_bytes()
    res = CliRunner().invoke(cli, ["--lang", "en", "add", str(src)], input="4S E 10\n")
    assert res.exit_code == 2
    assert f"{src}:18:1: Bridge has no typed entry" in res.stderr
    assert "Traceback" not in res.output + res.stderr
    assert src.read_bytes() == before


def test_a_sheet_of_a_game_without_entry_hooks_is_one_problem() -> None:
    rows = [(1, ["Scoring", "IMP"]), (2, ["Contract", "Declarer", "Tricks"]),
            (3, ["4S", "N", "10"])]
    got = import_rows(rows, "bridge.csv")
    assert got.records == []
    assert [str(p) for p in got.problems] == [
        "bridge.csv:2: error: Bridge has no typed entry: write its records as PPN text"]


def test_score_prints_the_bridge_sheet(tmp_path: Path) -> None:
    """priffe score on a bridge file: the family's sheet drawn by the shared view."""
    src = tmp_path / "bridge.pbn"
    src.write_text(TWO_DEALS, "utf-8")
    res = CliRunner().invoke(cli, ["--lang", "en", "score", str(src)])
    assert "Traceback" not in res.output + res.stderr
    lines = [line.split() for line in res.stdout.splitlines()]
    assert ["1", "4S", "E", "11", "-450", "450"] in lines
    assert ["2", "3NT", "S", "7", "-200", "200"] in lines
    assert "B10" in res.stdout + res.stderr and res.exit_code == 1


def test_score_csv_of_a_game_without_entry_hooks_is_one_located_error(tmp_path: Path) -> None:
    """score --csv on a bridge file: no spreadsheet columns, one message; --html draws."""
    src = tmp_path / "bridge.pbn"
    src.write_text(TWO_DEALS, "utf-8")
    out = tmp_path / "bridge.csv"
    res = CliRunner().invoke(cli, ["--lang", "en", "score", str(src), "--csv", str(out)])
    assert res.exit_code == 2 and not out.exists()
    assert res.stderr.startswith(f"priffe: {src}:7:1: Bridge has no spreadsheet columns")
    page = tmp_path / "bridge.html"
    CliRunner().invoke(cli, ["--lang", "en", "score", str(src), "--html", str(page)])
    assert '<td class="n">-450</td><td class="n">450</td>' in page.read_text()


def test_the_served_sheet_of_a_bridge_partie(tmp_path: Path) -> None:
    """priffe serve's sheet page draws a bridge partie."""
    app = pytest.importorskip("datasette.app", reason="Datasette (the serve extra) is absent")
    src = tmp_path / "bridge.pbn"
    src.write_text(TWO_DEALS, "utf-8")
    db = open_archive(str(tmp_path / "a.db"))
    ensure_schema(db)
    import_file(db, str(src))

    async def sheet() -> tuple[int, str]:
        got = await app.Datasette([str(tmp_path / "a.db")]).client.get("/a/parties/1/sheet")
        return got.status_code, got.text

    status, text = asyncio.run(sheet())
    assert status == 200 and '<td class="n">-450</td>' in text


def test_a_file_mixing_a_record_of_no_family_replays_the_others(tmp_path: Path) -> None:
    """The bridge deal is replayed; the record no family claims is shown refused, with its
    error and place (exit 1); alone, it is one located error (exit 2)."""
    src = tmp_path / "mixed.pbn"
    src.write_text(TWO_DEALS.split("\n\n")[0] + '\n\n[Board "3"]\n[Scoring "Whist"]\n'
                   '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. '
                   '...AKQJT98765432"]\n', "utf-8")
    res = CliRunner().invoke(cli, ["--lang", "en", "replay", str(src)])
    assert res.exit_code == 1, res.output + res.stderr
    assert "4 spades by East" in res.stdout
    assert f"Board 3 — cannot be replayed:\n  error Presets: {src}:13:11: not a Priffe " \
           "record" in res.stdout


HAND_RECORD = ('[Event "Klubb"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
               '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n')


def test_a_dealers_hand_record_is_bridge_s() -> None:
    """Deal, Dealer and Vulnerable, nothing played (what dealing programs write): the
    Vulnerable tag makes it bridge's, since neither Priffe nor Préférence has vulnerability.
    It used to be read as a Priffe deal: hand strength in hs, East as forehand, and R8's
    "names no contract" warning."""
    res = CliRunner().invoke(cli, ["--lang", "en", "validate", "-"], input=HAND_RECORD)
    assert res.exit_code == 0 and "0 errors, 0 warnings" in res.output, res.output
    shown = CliRunner().invoke(cli, ["--lang", "en", "replay", "-"], input=HAND_RECORD)
    assert shown.exit_code == 0 and " hs" not in shown.output, shown.output
    # bridge's dealer calls first: no forehand named beside the dealer, nor at the table
    assert "Dealer: North\n" in shown.output and "Forehand" not in shown.output
