"""One bad record costs only itself: in every command, every served page and the sheet.

Two ten-deal evenings, each with one bad value (``Contract "Nol"`` on board 3) and one
bad record on board 10: the hand-written evening of ``tests/data/evening-hand.ppn``
(no hands: what ``priffe score`` and ``validate`` read) and ten generated whole deals
(``random_deals``, as ``priffe deal 10 --play`` writes them: what replay and the archive
show). Board 10 is either unreadable (a Result tag with a stray quote in its value, so the
reader cannot read the record) or has a misspelt call (its section cannot be read).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from archive_support import by_table
from click.testing import CliRunner
from conftest import ROOT

from priffe_records.cli import cli
from priffe_records.format.reader import loads
from priffe_records.format.writer import dumps
from priffe_records.rules.blank import random_deals
from priffe_records.rules.preference.sheet import score_preference
from priffe_records.rules.priffe.sheet import DealRow, RubberRow, score_partie

HAND = ROOT / "tests" / "data" / "evening-hand.ppn"
BAD10 = ("unreadable", "call")


def _swap(text: str, board: str, old: str, new: str) -> str:
    """``old`` replaced by ``new`` in the record of ``board`` only."""
    start = text.index(f'[Board "{board}"]')
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old):]


def _line(text: str, part: str) -> int:
    return text[:text.index(part)].count("\n") + 1


def _broken(text: str) -> int:
    """The line of the Result tag with a stray quote in its value."""
    found = re.search(r'\[Result "[^"\n]*"[^"\n]*"\]\n', text)
    assert found is not None
    return text[:found.start()].count("\n") + 1


def _hand_evening(tmp_path: Path, bad10: str) -> tuple[Path, str]:
    text = _swap(HAND.read_text(encoding="utf-8"), "3", '[Contract "Noll"]', '[Contract "Nol"]')
    if bad10 == "unreadable":
        text = _swap(text, "10", '[Result "NS 10 EW 3"]', '[Result "NS 10 "EW 3"]')
    else:
        text = _swap(text, "10", '[Result "NS 10 EW 3"]',
                     '[Result "NS 10 EW 3"]\n[Auction "S"]\nHjärterr Pass Pass Pass')
    path = tmp_path / "kvall.ppn"
    path.write_text(text, encoding="utf-8")
    return path, text


def _played_evening(tmp_path: Path, bad10: str) -> tuple[Path, str]:
    text = dumps(random_deals("priffe", 10, seed=7, played=True))
    start = text.index('[Board "3"]')
    contract = re.compile(r'\[Contract "[^"]*"\]').search(text, start)
    assert contract is not None
    text = text[:contract.start()] + '[Contract "Nol"]' + text[contract.end():]
    if bad10 == "unreadable":
        result = re.compile(r'\[Result "[^"]*"\]').search(text, text.index('[Board "10"]'))
        assert result is not None
        space = text.index(" ", result.start() + len('[Result "'))
        text = text[:space + 1] + '"' + text[space + 1:]  # '[Result "NS "7 EW 6"]'
    else:
        auction = text.index('[Auction "', text.index('[Board "10"]'))
        first = text.index("\n", auction) + 1
        end = text.index(" ", first)
        text = text[:first] + "Hjärterr" + text[end:]
    path = tmp_path / "spelat.ppn"
    path.write_text(text, encoding="utf-8")
    return path, text


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.stdout + res.stderr
    return res.exit_code, res.stdout, res.stderr


@pytest.mark.parametrize("bad10", BAD10)
def test_score_partie_keeps_every_deal_and_says_which_were_not_scored(
        tmp_path: Path, bad10: str) -> None:
    path, text = _hand_evening(tmp_path, bad10)
    sheet = score_partie(loads(text, errors="collect", name=str(path)))
    deals = [r for r in sheet.rows if isinstance(r, DealRow)]
    assert f"({path}:{_line(text, 'Nol')}:12)" in deals[2].note
    assert [r.board for r in deals] == [str(n) for n in range(1, 11)]
    # A misspelt call costs the auction: board 10 is scored from its Contract tag.
    assert [u.board for u in sheet.unscored] == (["3", "10"] if bad10 == "unreadable"
                                                 else ["3"])
    assert deals[9].errors
    where3 = sheet.unscored[0].location
    assert where3 is not None and (where3.file, where3.line) == (str(path), _line(text, "Nol"))
    assert deals[2].errors and deals[2].score is None and deals[2].dealer is not None
    ends = [r for r in sheet.rows if isinstance(r, RubberRow) and r.totals is None]
    assert ends and all(r.unknown for r in ends)


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("bad10", BAD10)
def test_score_and_validate_name_the_bad_deals_with_file_and_line(
        tmp_path: Path, bad10: str, lang: str) -> None:
    path, text = _hand_evening(tmp_path, bad10)
    code, out, err = _run("score", "--lang", lang, str(path))
    assert code == 1
    flat = " ".join(out.split())
    for board in range(1, 11):
        assert re.search(rf"^\s*{board} ", out, re.M), board  # a row per board
    unscored = "could not be scored" if lang == "en" else "kunde inte räknas"
    assert flat.count(unscored) >= (2 if bad10 == "unreadable" else 1)
    standings = ("the standings count only the rubbers whose totals are known" if lang == "en"
                 else "ställningen räknar bara de robbertar vars summor är kända")
    assert standings in flat
    assert f"{path}:{_line(text, 'Nol')}:12:" in err
    code, out, _ = _run("validate", "--lang", lang, str(path))
    assert code == 1
    assert f"{_line(text, 'Nol')}:12" in out
    # No follow-on findings: the dealer order goes on from board 3, the rubber's
    # unknown end is where the players change seats.
    assert "R3 " not in out and "R24" not in out


@pytest.mark.parametrize("bad10", BAD10)
def test_replay_every_board(tmp_path: Path, bad10: str) -> None:
    path, text = _played_evening(tmp_path, bad10)
    for board in range(1, 10):
        code, out, err = _run("replay", str(path), "--board", str(board))
        assert code == (1 if board == 3 else 0), (board, err)  # board 3's Contract "Nol"
        assert f"Board {board}\n" in out
    code, out, err = _run("replay", str(path), "--board", "10")
    assert code == 1
    # A long temporary path folds at the console's width: compare without the folds.
    unfolded = "".join((out + err).split())
    if bad10 == "unreadable":
        assert f"{path}:{_broken(text)}:" in unfolded
    else:
        assert f"{path}:{_line(text, 'Hjärterr')}:" in "".join(out.split())
    code, out, _ = _run("replay", str(path))
    assert code == 1
    assert all(f"Board {b}\n" in out for b in range(1, 10))


@pytest.mark.parametrize("bad10", BAD10)
def test_replay_html_has_the_good_deals(tmp_path: Path, bad10: str) -> None:
    path, text = _played_evening(tmp_path, bad10)
    page = tmp_path / "kvall.html"
    code, _, err = _run("replay", str(path), "--html", str(page))
    assert code == 1
    good = 9 if bad10 == "unreadable" else 10
    assert f"({good} deals)" in err
    if bad10 == "unreadable":
        assert f"{path}:{_broken(text)}:" in err


def _import(tmp_path: Path, bad10: str) -> tuple[Path, Path, str]:
    path, text = _played_evening(tmp_path, bad10)
    db = tmp_path / "a.db"
    code, _, err = _run("import", "--db", str(db), str(path))
    assert code == 0, err
    return db, path, text


@pytest.mark.parametrize("bad10", BAD10)
def test_archive_commands(tmp_path: Path, bad10: str) -> None:
    db, path, text = _import(tmp_path, bad10)
    with sqlite3.connect(db) as conn:
        ids = [int(i) for (i,) in conn.execute("SELECT id FROM deals ORDER BY line")]
    assert len(ids) == 10
    for n, ident in enumerate(ids, 1):
        code, out, err = _run("replay", "--db", str(db), "--id", str(ident))
        if n < 10:
            assert code == (1 if n == 3 else 0), (n, err)  # board 3 is shown with its error
            assert f"Board {n}\n" in out
    if bad10 == "unreadable":
        assert code == 1
        assert f"{path.name}:{_broken(text)}:" in out
    code, out, _ = _run("query", "--db", str(db), "--csv")
    assert code == 0 and len(out.strip().splitlines()) == 11
    code, _, _ = _run("stats", "--db", str(db))
    assert code == 0
    out_file = tmp_path / "export.ppn"
    code, _, err = _run("export", "--db", str(db), "-o", str(out_file))
    assert code == 0, err
    assert out_file.read_text(encoding="utf-8").count("[Event ") == 10


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("bad10", BAD10)
def test_serve_pages(tmp_path: Path, bad10: str, lang: str,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    app = pytest.importorskip("datasette.app", reason="Datasette (the serve extra) is missing")
    monkeypatch.setenv("PRIFFE_LANG", lang)
    from priffe_records.game.language import use_language
    db, path, text = _import(tmp_path, bad10)
    with sqlite3.connect(db) as conn:
        ids = [int(i) for (i,) in conn.execute("SELECT id FROM deals ORDER BY line")]
        (partie,) = {int(p) for (p,) in conn.execute("SELECT partie_id FROM deals")}
    ds = app.Datasette([str(db)])

    async def pages() -> list[tuple[int, str]]:
        got = []
        for url in [f"/a/deals/{i}/replay" for i in ids] + [f"/a/parties/{partie}/sheet"]:
            res = await ds.client.get(url)
            got.append((res.status_code, res.text))
        return got

    with use_language(lang):
        got = asyncio.run(pages())
    assert [status for status, _ in got] == [200] * 11
    sheet = got[-1][1]
    for board in range(1, 11):
        assert f'<td class="n">{board}</td>' in sheet or f">{board}<" in sheet, board
    if bad10 == "unreadable":
        bad = got[9][1]
        assert f"{path.name}:{_broken(text)}:" in bad
        words = "could not be read" if lang == "en" else "kunde inte läsas"
        assert words in bad
        assert f"{path.name}:{_broken(text)}:" in sheet


def test_stats_count_what_preference_players_declared_and_made(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    code, _, err = _run("import", "--db", str(db),
                        str(ROOT / "tests" / "data" / "preference-graz.ppn"))
    assert code == 0, err
    code, out, _ = _run("stats", "--db", str(db), "--json")
    assert code == 0
    tables: Any = by_table(out)
    players = {p["player"]: (p["declared"], p["made"]) for p in tables["players"]}
    assert players == {"Anna": (0, 0), "Bertil": (2, 1), "Cecilia": (1, 0)}
    declared = {(c["player"], c["contract"]): (c["declared"], c["made"])
                for c in tables["contracts_declared"]}
    assert declared == {("Bertil", "Preference"): (1, 1), ("Bertil", "Hearts"): (1, 0),
                        ("Cecilia", "Clubs"): (1, 0)}
    rates = {c["contract"]: c["declared"] for c in tables["contract_success"]}
    assert rates == {"Clubs": 1, "Hearts": 1, "Preference": 1}
    code, out, _ = _run("stats", "--db", str(db), "--json", "--player", "Bertil")
    kinds = {c["contract"]: c["declared"] for c in by_table(out)["contracts_played"]}
    assert kinds == {"Clubs": 0, "Hearts": 1, "Preference": 1}


def test_preference_sheet_keeps_an_unreadable_deal_in_its_place(tmp_path: Path) -> None:
    text = (ROOT / "tests" / "data" / "preference-graz.ppn").read_text(encoding="utf-8")
    text = text.replace('[Contract "Clubs"]', '[Contract "Clu"bs"]')  # deal 3: unreadable
    path = tmp_path / "graz.ppn"
    path.write_text(text, encoding="utf-8")
    [sheet] = score_preference(loads(text, errors="collect", name=str(path)))
    assert [(r.board, r.unreadable) for r in sheet.rows] == [
        ("1", False), ("2", False), ("3", True)]
    assert sheet.unreadable[0].errors[0].location is not None
    bad = _line(text, '"Clu"bs"]')
    assert sheet.unreadable[0].errors[0].location.line == bad
    csv = tmp_path / "graz.csv"
    code, _, err = _run("score", "--csv", str(csv), str(path))
    assert code == 1 and f"{path}:{bad}:" in err
    rows = csv.read_text(encoding="utf-8").splitlines()
    assert rows[-1].startswith("2,") and all(r.strip(",") for r in rows[-3:])


def test_score_csv_writes_no_empty_row_for_an_unreadable_deal(tmp_path: Path) -> None:
    path, _ = _hand_evening(tmp_path, "unreadable")
    csv = tmp_path / "kvall.csv"
    code, _, _ = _run("score", "--csv", str(csv), str(path))
    assert code == 1
    rows = csv.read_text(encoding="utf-8").splitlines()
    head = next(i for i, r in enumerate(rows) if r.startswith("Board,") or r.startswith("Giv,"))
    deals = rows[head + 1:]
    assert [r.split(",")[0] for r in deals] == [str(n) for n in range(1, 10)]


def _rules(text: str) -> list[tuple[str, int | None]]:
    """The warnings and errors of ``text``: rule and record."""
    from priffe_records.rules.partie import findings
    return [(f.rule, f.record) for f in findings(loads(text, errors="collect"))
            if f.severity.value != "unverifiable"]


def test_r3_dealer_order_goes_on_from_a_deal_that_could_not_be_scored() -> None:
    text = _swap(HAND.read_text(encoding="utf-8"), "3", '[Contract "Noll"]',
                 '[Contract "Nol"]')
    assert ("R3", 4) not in _rules(text)  # board 3 dealt by South: West is next


def test_r3_a_wrong_dealer_after_a_deal_that_could_not_be_scored_is_found() -> None:
    text = _swap(HAND.read_text(encoding="utf-8"), "3", '[Contract "Noll"]',
                 '[Contract "Nol"]')
    text = _swap(text, "4", '[Dealer "W"]', '[Dealer "N"]')
    assert ("R3", 4) in _rules(text)


def test_r24_seats_change_where_unknown_totals_may_have_ended_the_rubber() -> None:
    text = _swap(HAND.read_text(encoding="utf-8"), "3", '[Contract "Noll"]',
                 '[Contract "Nol"]')
    assert not [r for r in _rules(text) if r[0] == "R24"]


def test_r24_seats_change_within_a_rubber_whose_totals_are_known() -> None:
    text = _swap(HAND.read_text(encoding="utf-8"), "3", '[Contract "Noll"]',
                 '[Contract "Nol"]')
    # Board 2, before the deal that could not be scored, changes seats within rubber 1.
    text = _swap(text, "2", '[East "Bertil"]\n[South "Cecilia"]',
                 '[East "Cecilia"]\n[South "Bertil"]')
    assert ("R24", 2) in _rules(text)
