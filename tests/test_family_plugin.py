"""A third family is a folder plus one entry point: a toy family (tests/toy_family.py)
installed as a package would be, then validated, scored and dealt by the shared code
untouched."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from priffe_records import dumps, loads
from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import ensure_schema, open_archive
from priffe_records.cli import cli
from priffe_records.cli.sheet_page import filled_records, scored
from priffe_records.format import vocabulary
from priffe_records.format.record import Record, Tag
from priffe_records.rules import family
from priffe_records.rules.blank import random_deals, skeleton
from priffe_records.rules.checks import present
from priffe_records.rules.entry import new_deal
from priffe_records.rules.partie import parties
from priffe_records.rules.spreadsheet import import_rows
from priffe_records.rules.validate import validate

TOY_ENTRY = "toy_family:WORDS"  # tests/ is on sys.path, as conftest is


def install_family(monkeypatch: pytest.MonkeyPatch, where: Path, name: str, words: str
                   ) -> None:
    """A package that registers a family as an installed one does: a ``dist-info`` folder
    with its entry point, on ``sys.path``; the loaded families forgotten."""
    info = where / f"{name}-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[priffe_records]\n{name} = {words}\n")
    monkeypatch.syspath_prepend(str(where))
    family.forget_families()


@pytest.fixture
def with_duel(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
              ) -> Iterator[None]:
    """The toy family installed, and the loaded families and vocabularies forgotten
    before and after."""
    install_family(monkeypatch, tmp_path_factory.mktemp("site"), "duel", TOY_ENTRY)
    yield
    monkeypatch.undo()
    family.forget_families()


TWO_DEALS = """[Event "Kväll"]
[Board "1"]
[Scoring "Duel"]
[Result "N 3 S 1"]

[Event "Kväll"]
[Board "2"]
[Scoring "Duel"]
[Result "N 3 S 3"]
"""


def test_an_unregistered_game_is_not_claimed() -> None:
    assert family.family_for("Duel").name == "Priffe"  # which says: not a Priffe record


def test_registered_by_one_line_the_toy_family_is_validated(with_duel: None) -> None:
    assert family.family_for("Duel").name == "Duel"
    found = validate(loads(TWO_DEALS))
    assert [(f.rule, f.record, str(f.location)) for f in found] == [
        ("D1", 2, "<string>:9:10")]
    assert found[0].message == "Result must give N's and S's tricks, 4 in all (D1)"


DUEL_PLAYED = """[Event "Kväll"]
[Scoring "Duel"]
[Contract "BET"]
[Auction "N"]
raise fold
[Play "N"]
SA SK
HA HK
"""


def _calls(record: Record) -> list[tuple[str, str]]:
    assert record.auction is not None
    return [(t.kind.name, t.text) for t in record.auction.tokens]


def test_the_reader_knows_the_toy_familys_words_only_once_registered() -> None:
    """Unregistered, Duel's calls are no calls: the reader says so with Priffe's calls."""
    [bad] = loads(DUEL_PLAYED, errors="collect")
    assert [e.message for e in bad.errors] == [
        "unknown call 'raise' (calls: Pass Klöver Spader Ruter Hjärter Noll Spela)"]


def test_the_toy_family_reads_its_own_call_words(with_duel: None) -> None:
    """Registered by its line, Duel's vocabulary is the reader's for a record whose Scoring
    names it: its calls and contract in their canonical words, its trick as a Play row."""
    assert vocabulary.lexicon_for("duel;x=1").own.name == "Duel"
    assert family.family_for("duel").vocabulary is vocabulary.lexicon_for("Duel").own
    [record] = loads(DUEL_PLAYED)
    assert _calls(record) == [("CALL", "Bet"), ("CALL", "Fold")]
    assert record.get("Contract") == "Bet"
    assert dumps([record]).endswith('[Auction "N"]\nBet Fold\n[Play "N"]\nSA SK\nHA HK\n')
    # Another game's record keeps Duel's words as foreign calls, as it keeps bridge's.
    [priffe] = loads('[Scoring "Priffe"]\n[Auction "N"]\nPass bet\n')
    assert _calls(priffe) == [("CALL", "Pass"), ("FOREIGN", "Bet")]


def test_the_toy_familys_errors_are_worded_by_its_vocabulary(with_duel: None) -> None:
    """An unknown call lists Duel's calls; a row longer than a Duel trick is Duel's error."""
    text = DUEL_PLAYED.replace("raise", "rasie").replace("HA HK", "HA HK HQ")
    [bad] = loads(text, errors="collect")
    assert [(str(e.location), e.message) for e in bad.errors] == [
        ("<string>:5:1", "unknown call 'rasie' (Duel calls: Bet Fold)"),
        ("<string>:8:7", "Play row has 3 cards: a Duel trick is two (D2)")]


def test_validate_lists_the_checks_the_records_family_lists(with_duel: None) -> None:
    """validate -v's passed checks are the family's own (its checks hook): none of Duel's,
    not Priffe's score check for a Duel record's Result."""
    [duel] = loads('[Scoring "Duel"]\n[Result "N 3 S 1"]\n')
    [priffe] = loads('[Result "NS 7 EW 6"]\n')
    assert present(duel) == ()
    assert [c.name for c in present(priffe)] == ["score"]


def test_the_toy_family_keeps_its_books_and_sheet(with_duel: None) -> None:
    records = list(loads(TWO_DEALS))
    (partie,) = parties(records)
    assert (partie.event, partie.won) == ("Kväll", (3, 1))
    assert [(ln.outcome.index, ln.n, ln.s) for ln in partie.lines] == [(1, 3, 1)]
    filled = filled_records(records, scored(records))
    assert [r.get("Score") for r in filled] == ["N 3 S 1", None]


def test_the_toy_family_deals_and_lays_out_an_evening(with_duel: None) -> None:
    assert [r.get("Dealer") for r in skeleton("duel", deals=3, dealer="S")] == ["S", "N", "S"]
    dealt = random_deals("duel", 2, seed=3)
    assert [r.get("Scoring") for r in dealt] == ["Duel", "Duel"]
    assert len(dealt[0].get("Hands", "").split()) == 10  # N, four cards, S, four cards
    assert validate(random_deals("duel", 5, seed=1, played=True)) == []


def test_the_toy_family_is_archived(with_duel: None, tmp_path: Path) -> None:
    """The archive stores a toy deal's rows from the family's archive hooks."""
    src = tmp_path / "duel.ppn"
    src.write_text(TWO_DEALS, "utf-8")
    db = open_archive(str(tmp_path / "a.db"))
    ensure_schema(db)
    import_file(db, str(src))
    rows = db.execute("SELECT board, game, tricks_ns, tricks_ew FROM deals ORDER BY board"
                      ).fetchall()
    assert rows == [("1", "Duel", 3, 1), ("2", "Duel", None, None)]


@pytest.mark.parametrize(("scoring", "dealer", "then"), [
    ("Priffe", "W", "N"), ("Preference", "S", "N"), ("Preference", "E", "S"),
    ("Duel", "N", "S")])
def test_the_next_deal_is_dealt_as_its_family_says(with_duel: None, scoring: str,
                                                   dealer: str, then: str) -> None:
    """priffe add's next deal: the family's next_dealer (R3 left; Préférence skips W)."""
    previous = Record((Tag("Event", "Kväll"), Tag("Board", "4"), Tag("Dealer", dealer),
                       Tag("Scoring", scoring)))
    after = new_deal(previous)
    assert (after.get("Board"), after.get("Dealer")) == ("5", then)


def test_a_game_without_entry_hooks_is_not_typed(with_duel: None, tmp_path: Path) -> None:
    """priffe add on a Duel evening: one located error at its Scoring tag, nothing written."""
    src = tmp_path / "duel.ppn"
    src.write_text(TWO_DEALS.replace('[Result "N 3 S 3"]\n', ""), "utf-8")
    before = src.read_bytes()
    res = CliRunner().invoke(cli, ["--lang", "en", "add", str(src)], input="N 2 S 2\n")
    assert res.exit_code == 2
    assert f"{src}:8:1: Duel has no typed entry" in res.stderr
    assert "Traceback" not in res.output + res.stderr
    assert src.read_bytes() == before


def test_a_sheet_of_a_game_without_entry_hooks_is_one_problem(with_duel: None) -> None:
    """sheet-import of a Duel sheet: the problem is at the heading row, no record made."""
    rows = [(1, ["Scoring", "Duel"]), (2, ["Contract", "Declarer", "Tricks"]),
            (3, ["Hjärter", "N", "10"])]
    got = import_rows(rows, "duel.csv")
    assert got.records == []
    assert [str(p) for p in got.problems] == [
        "duel.csv:2: error: Duel has no typed entry: write its records as PPN text"]


def test_score_prints_the_sheet_of_a_game_the_cli_does_not_know(with_duel: None,
                                                                 tmp_path: Path) -> None:
    """priffe score on a Duel file: the family's sheet drawn by the shared view, exit 0."""
    src = tmp_path / "duel.ppn"
    src.write_text(TWO_DEALS.replace("N 3 S 3", "N 0 S 4"), "utf-8")
    res = CliRunner().invoke(cli, ["--lang", "en", "score", str(src)])
    assert res.exit_code == 0, res.output + res.stderr
    lines = [line.split() for line in res.stdout.splitlines()]
    assert " ".join(res.stdout.split()).startswith("Kväll · Duel Board N S ─")
    assert ["1", "3", "1"] in lines and ["2", "0", "4"] in lines
    assert "Tricks" in res.stdout and "Traceback" not in res.output + res.stderr


def test_score_csv_of_a_game_without_entry_hooks_is_one_located_error(
        with_duel: None, tmp_path: Path) -> None:
    """score --csv on a Duel file: its sheet has no spreadsheet columns; one message at the
    partie's first Scoring tag, exit 2, nothing written; --html draws the sheet."""
    src = tmp_path / "duel.ppn"
    src.write_text(TWO_DEALS.replace("N 3 S 3", "N 0 S 4"), "utf-8")
    out = tmp_path / "duel.csv"
    res = CliRunner().invoke(cli, ["--lang", "en", "score", str(src), "--csv", str(out)])
    assert res.exit_code == 2 and not out.exists()
    assert res.stderr.startswith(f"priffe: {src}:3:1: Duel has no spreadsheet columns")
    assert "Traceback" not in res.output + res.stderr
    page = tmp_path / "duel.html"
    res = CliRunner().invoke(cli, ["--lang", "en", "score", str(src), "--html", str(page)])
    assert res.exit_code == 0 and '<td class="n">3</td><td class="n">1</td>' in page.read_text()


def test_the_served_sheet_of_a_toy_partie(with_duel: None, tmp_path: Path) -> None:
    """priffe serve's sheet page draws a Duel partie."""
    app = pytest.importorskip("datasette.app", reason="Datasette (the serve extra) is absent")
    src = tmp_path / "duel.ppn"
    src.write_text(TWO_DEALS.replace("N 3 S 3", "N 0 S 4"), "utf-8")
    db = open_archive(str(tmp_path / "a.db"))
    ensure_schema(db)
    import_file(db, str(src))

    async def sheet() -> tuple[int, str]:
        got = await app.Datasette([str(tmp_path / "a.db")]).client.get("/a/parties/1/sheet")
        return got.status_code, got.text

    status, text = asyncio.run(sheet())
    assert status == 200
    assert '<tr><td class="n">2</td><td class="n">0</td><td class="n">4</td></tr>' in text
