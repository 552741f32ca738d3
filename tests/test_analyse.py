"""``priffe analyse``, ``import --analyse`` and the stored analysis (archive/analysis.py).

Each deal's analysis is stored once, goes with its deal (removed, replaced), survives an
interrupted run, and a deal that fails costs only itself; ``stats`` then shows each
player's double-dummy cost per deal.
"""

from __future__ import annotations

import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from archive_support import by_table, consistent, imported_archive, priffe_process, run

from priffe_records.archive import analysis
from priffe_records.archive.analysis import analyse_archive, pending, stored
from priffe_records.archive.schema import open_archive
from priffe_records.cli.analyse import summary_line
from priffe_records.dd import Budget, DDError, engine
from priffe_records.game.language import msg, use_language

EXAMPLES = Path(__file__).parent.parent / "examples"
GRAZ = EXAMPLES / "preference-graz.ppn"
UPPSALA = EXAMPLES / "partie-uppsala.ppn"
QUICK = Budget(nodes=3_000)  # reaches some deals whole, others in part: both paths run


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _analysed(folder: Path) -> Path:
    """The Graz partie imported and analysed within :data:`QUICK`."""
    db = imported_archive(folder, GRAZ)
    archive = open_archive(db)
    analyse_archive(archive, QUICK)
    archive.close()
    return db


def _board_id(db: Path, board: str) -> int:
    return int(_rows(db, f"SELECT id FROM deals WHERE board = '{board}'")[0][0])


def test_every_readable_deal_gets_one_analysis(tmp_path: Path) -> None:
    db = imported_archive(tmp_path, GRAZ)
    archive = open_archive(db)
    summary = analyse_archive(archive, QUICK)
    assert summary.done == 12 and summary.no_play == 2 and not summary.failed  # boards 3, 4
    # a second run has only the unfinished deals to do, each with its stored cards
    again = pending(archive)
    assert len(again) == summary.unfinished >= summary.partial > 0 and summary.waiting == 0
    assert all(d.known and d.known == stored(archive, d.deal_id).play.cards for d in again)
    archive.close()
    # each played card stored once, in play order, as many as the deal's tricks hold
    for deal_id, cards, tricks in _rows(db, (
            "SELECT a.deal_id, (SELECT count(*) FROM dd_cards c WHERE c.deal_id = a.deal_id), "
            "(SELECT count(card_n) + count(card_e) + count(card_s) FROM tricks t "
            "WHERE t.deal_id = a.deal_id) FROM dd_deals a WHERE a.status != 'no_play'")):
        assert cards == tricks, deal_id
    assert _rows(db, "SELECT count(*) FROM dd_cards WHERE cost < 0") == [(0,)]
    assert _rows(db, "SELECT DISTINCT side, goal FROM dd_deals WHERE status = 'no_play'") \
        == [(None, None)]
    consistent(db)


def test_whole_deal_stored_as_the_solver_gave_it(tmp_path: Path) -> None:
    db = imported_archive(tmp_path, GRAZ)
    archive = open_archive(db)
    one = [d for d in pending(archive) if d.deal_id == _board_id(db, "1")]
    analyse_archive(archive, Budget(), deals=one)
    kept = stored(archive, one[0].deal_id)
    archive.close()
    assert kept is not None and (kept.side, kept.goal) == ("S", "most")
    got = kept.play
    assert got.complete and got.par == 7  # S's tricks, best play by all
    assert len(got.cards) == 20 and all(c.best and c.cost is not None for c in got.cards)
    assert str(got.cards[0].card) == "C7" and got.cards[0].trick == 1
    assert _rows(db, "SELECT side, goal, budget_nodes FROM dd_deals") == [("S", "most", None)]


def test_replaced_deal_loses_its_analysis(tmp_path: Path) -> None:
    db = _analysed(tmp_path)
    board1 = _board_id(db, "1")
    assert _rows(db, f"SELECT count(*) FROM dd_deals WHERE deal_id = {board1}") == [(1,)]
    corrected = tmp_path / "graz.ppn"  # the same deal at the same table, a comment more
    corrected.write_text(GRAZ.read_text("utf-8").replace(
        '[Board "1"]', '[Board "1"] {rättad}', 1), "utf-8")
    res = run("import", "--db", str(db), str(corrected))
    assert res.exit_code == 0 and "replaces deal" in res.output
    assert _rows(db, f"SELECT count(*) FROM dd_deals WHERE deal_id = {board1}") == [(0,)]
    assert _rows(db, f"SELECT count(*) FROM dd_cards WHERE deal_id = {board1}") == [(0,)]
    archive = open_archive(db)
    assert [d.known for d in pending(archive) if d.deal_id == board1] == [()]
    archive.close()


def test_removed_deal_takes_its_analysis(tmp_path: Path) -> None:
    db = _analysed(tmp_path)
    board1 = _board_id(db, "1")
    assert run("remove", "--db", str(db), "--id", str(board1)).exit_code == 0
    assert _rows(db, f"SELECT count(*) FROM dd_cards WHERE deal_id = {board1}") == [(0,)]
    assert _rows(db, "SELECT count(*) FROM dd_deals") == [(11,)]
    consistent(db)


def test_interrupted_run_keeps_what_it_finished(tmp_path: Path) -> None:
    db = imported_archive(tmp_path, GRAZ)
    archive = open_archive(db)

    def stop(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyse_archive(archive, QUICK, progress=stop)
    assert _rows(db, "SELECT count(*) FROM dd_deals") == [(3,)]
    assert sum(not d.known for d in pending(archive)) == 9
    assert analyse_archive(archive, QUICK).waiting == 0  # the next run goes on
    archive.close()


def test_failing_deal_costs_only_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    db = imported_archive(tmp_path, GRAZ)
    board2 = _board_id(db, "2")
    real = analysis.analyse_deal

    def refuse(deal: analysis.Pending, budget: Budget) -> analysis.DealAnalysis:
        if deal.deal_id == board2:
            raise DDError(msg("a refused deal"))
        return real(deal, budget)

    monkeypatch.setattr(analysis, "analyse_deal", refuse)
    archive = open_archive(db)
    summary = analyse_archive(archive, QUICK)
    archive.close()
    assert summary.done == 11 and len(summary.failed) == 1
    line = _rows(db, f"SELECT source, line FROM deals WHERE id = {board2}")[0]
    assert str(summary.failed[0]) == (f"{line[0]}:{line[1]}: deal {board2} cannot be "
                                      "analysed: a refused deal")
    assert _rows(db, f"SELECT count(*) FROM dd_deals WHERE deal_id = {board2}") == [(0,)]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each position the own search analyses for a card's cost (the sweep's step), as
    the number of cards left in the hands at it."""
    calls: list[int] = []
    real = engine._Own.analyse

    def counted(self: engine._Own, pos: Any, *args: Any) -> Any:
        calls.append(sum(h.bit_count() for h in pos.hands))
        return real(self, pos, *args)

    monkeypatch.setattr(engine._Own, "analyse", counted)
    return calls


def _cards(db: Path, deal_id: int) -> list[tuple[object, ...]]:
    return _rows(db, f"SELECT idx, cost, best FROM dd_cards WHERE deal_id = {deal_id} "
                     "ORDER BY idx")


def test_partial_deal_is_resumed_from_its_stored_cards(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    db = imported_archive(tmp_path, GRAZ)
    archive = open_archive(db)
    first = analyse_archive(archive, Budget(nodes=2_000))
    assert first.partial > 0 and first.unfinished >= first.partial
    todo = pending(archive)
    deal = max(todo, key=lambda d: sum(c.cost is not None for c in d.known))
    stored_before = sum(c.cost is not None for c in deal.known)
    assert 0 < stored_before < len(deal.known)
    calls = _counting(monkeypatch)
    again = analyse_archive(archive, Budget(), deals=[deal])
    archive.close()
    assert again.analysed == 1
    # only the cards the first run did not reach are searched
    assert len(calls) == len(deal.known) - stored_before
    resumed = _cards(db, deal.deal_id)
    (tmp_path / "fresh").mkdir()
    fresh = imported_archive(tmp_path / "fresh", GRAZ)
    archive = open_archive(fresh)
    analyse_archive(archive, Budget(), deals=[d for d in pending(archive)
                                              if d.deal_id == deal.deal_id])
    archive.close()
    assert resumed == _cards(fresh, deal.deal_id)  # the same as analysed from the start


def test_analysed_deal_with_best_cards_missing_is_found_and_completed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = imported_archive(tmp_path, GRAZ)
    board1 = _board_id(db, "1")
    archive = open_archive(db)
    analyse_archive(archive, Budget(), deals=[d for d in pending(archive)
                                              if d.deal_id == board1])
    whole = _cards(db, board1)
    archive.execute(f"UPDATE dd_cards SET best = NULL WHERE deal_id = {board1} AND cost = 0 "
                    "AND idx < 6")  # as a budget spent after the last cost leaves it
    archive.conn.commit()
    assert [d.deal_id for d in pending(archive) if d.known] == [board1]
    calls = _counting(monkeypatch)
    summary = analyse_archive(archive, Budget(), deals=[d for d in pending(archive)
                                                        if d.deal_id == board1])
    archive.close()
    assert calls == [] and summary.analysed == 1  # no cost searched again
    assert _cards(db, board1) == whole


def test_summary_says_what_is_whole_partial_and_waiting(tmp_path: Path) -> None:
    db = imported_archive(tmp_path, GRAZ)
    archive = open_archive(db)
    first = pending(archive)
    summary = analyse_archive(archive, Budget(nodes=2_000), deals=first[:6])
    plays = [stored(archive, d.deal_id) for d in first[:6]]
    archive.close()
    whole = sum(p is not None and p.play.complete and all(c.best for c in p.play.cards)
                for p in plays)
    analysed = sum(p is not None for p in plays)  # boards 3 and 4: nothing to analyse
    assert 0 < whole < analysed
    assert (summary.whole, summary.unfinished, summary.waiting) == (whole, analysed - whole, 6)
    with use_language("en"):
        lines = summary_line(summary, 6).splitlines()
    assert lines[1] == (f"In the archive: {whole} deal{'s' * (whole != 1)} analysed whole, "
                        f"{analysed - whole} partly, 6 waiting")
    assert lines[2].startswith("Run priffe analyse again to go on")
    with use_language("sv"):
        assert summary_line(summary, 6).splitlines()[1].startswith(
            f"I arkivet: {whole} giv{'ar' * (whole != 1)} analyserad")


def test_analyse_command_and_stats_show_each_players_cost(tmp_path: Path) -> None:
    db = imported_archive(tmp_path, GRAZ)
    before = by_table(run("stats", "--db", str(db), "--json").output)
    assert "dd_costs" not in before
    res = run("analyse", str(db), "--nodes", "20000", "-j", "1")
    assert res.exit_code == 0, res.output
    assert res.output.startswith("12 deals: ") and "2 without a play, 0 failed;" in res.output
    costs = by_table(run("stats", "--db", str(db), "--json").output)["dd_costs"]
    assert {r["player"] for r in costs} == {"Anna Kofler", "Bertil Strand", "Cecilia Huber"}
    for r in costs:
        assert r["dd_deals"] == r["dd_declared"] + r["dd_defended"]  # Préférence: no partner
        assert r["dd_cost_defender"] is None or r["dd_cost_defender"] >= 0
    table = run("stats", "--db", str(db)).output
    assert "Double-dummy cost per deal" in table and "cost def." in table


def test_analyse_command_speaks_swedish(tmp_path: Path) -> None:
    db = imported_archive(tmp_path, GRAZ)
    res = run("--lang", "sv", "analyse", "--db", str(db), "--nodes", "2000", "-j", "1")
    assert res.exit_code == 0 and res.output.startswith("12 givar: "), res.output
    with use_language("sv"):
        table = run("--lang", "sv", "stats", "--db", str(db)).output
    assert "Dubbeldummykostnad per giv" in table and "kostn. motsp." in table


def test_import_analyse_analyses_after_the_import(tmp_path: Path) -> None:
    db = tmp_path / "klubb.db"
    res = run("import", "--db", str(db), str(GRAZ), "--analyse", "--nodes", "2000", "-j", "1")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[-4].startswith("1 file, 12 records") and lines[-3].startswith("12 deals: ")
    assert lines[-2].startswith("In the archive: ") and lines[-1].startswith("Run priffe")
    assert _rows(db, "SELECT count(*) FROM dd_deals") == [(12,)]
    quiet = run("import", "--db", str(tmp_path / "q.db"), str(GRAZ), "--analyse", "-q",
                "--nodes", "2000", "-j", "1")
    assert quiet.exit_code == 0 and quiet.output == ""


def test_analyse_missing_archive_is_one_clear_line(tmp_path: Path) -> None:
    res = run("analyse", str(tmp_path / "nope" / "x.db"))
    assert res.exit_code == 2 and res.stderr.startswith("priffe: ") \
        and "Traceback" not in res.stderr


@pytest.mark.slow
def test_analyse_in_worker_processes(tmp_path: Path) -> None:
    """The command as a user runs it: its own process, two workers, both families."""
    db = imported_archive(tmp_path, GRAZ, UPPSALA)
    done = subprocess.run([*priffe_process(), "analyse", str(db), "--nodes", "5000",
                           "--jobs", "2"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("23 deals: ") and " 0 failed;" in done.stdout
    assert _rows(db, "SELECT count(*) FROM dd_deals") == [(23,)]
    assert _rows(db, "SELECT count(DISTINCT goal) FROM dd_deals") == [(2,)]  # most, fewest


def test_analyse_of_a_missing_archive_is_an_error_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    result = run("analyse", str(missing))
    assert result.exit_code != 0
    assert f"{missing}: no such database" in result.stderr
    assert "Traceback" not in result.stderr
    assert not missing.exists()


def test_stats_share_of_deals_without_a_trick_given_away_by_kind(tmp_path: Path) -> None:
    """Two deals with costs chosen by hand: a positive one where N gave one trick away,
    a misère where E gave two; each player's share follows from the seat they held."""
    db = imported_archive(tmp_path, UPPSALA)
    archive = open_archive(db)
    board = {b: _board_id(db, b) for b in ("3", "6")}
    costs = {"3": {"N": 1}, "6": {"E": 2}}
    for b, goal in (("3", "most"), ("6", "fewest")):
        deal_hash = _rows(db, f"SELECT hash FROM deals WHERE id = {board[b]}")[0][0]
        cards = tuple((i, 1, seat, card, costs[b].get(seat, 0), None)
                      for i, (seat, card) in enumerate(zip("NESW", ("S2", "S3", "S4", "S5"),
                                                           strict=True)))
        assert analysis.save(archive, analysis.DealAnalysis(
            board[b], str(deal_hash), "analysed", "NS", goal, 0, cards), Budget())
    archive.close()
    seat_of = {(str(b), str(seat)): str(name) for b, seat, name in _rows(db, (
        "SELECT d.board, s.seat, p.name FROM seats s JOIN deals d ON d.id = s.deal_id "
        "JOIN players p ON p.id = s.player_id WHERE d.board IN ('3', '6')"))}
    want = {}
    for (b, seat), name in seat_of.items():
        kind = "positive" if b == "3" else "misere"
        want.setdefault(name, {})[kind] = 0.0 if costs[b].get(seat) else 100.0
    rows = by_table(run("stats", "--db", str(db), "--json").output)["dd_costs"]
    got = {r["player"]: {k: r[f"dd_clean_{k}_pct"] for k in ("positive", "misere")
                         if r[f"dd_{k}"]} for r in rows}
    assert got == want and {r["dd_positive"] for r in rows} <= {1}
    assert 0.0 in {v for d in got.values() for v in d.values()}  # someone lost a trick
    table = run("stats", "--db", str(db)).output
    assert "no loss pos." in table and "no loss mis." in table and "100.0%" in table


def _first_is_long(deal: int, budget: Budget) -> str:
    """A stand-in for one deal's analysis (module level, so a worker finds it by name):
    deal 0 takes a while, the others none."""
    if deal == 0:
        time.sleep(1.5)
    return str(deal)


@pytest.mark.slow  # starts worker processes
def test_with_jobs_a_long_deal_does_not_hold_back_the_others(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Results come back as workers finish them: with deal 0 the long one, the five short
    deals are all stored before it (in order, they waited behind it and the second worker
    idled once the window of 2 × jobs deals was full)."""
    monkeypatch.setattr(analysis, "_guarded", _first_is_long)
    got = list(analysis._results(list(range(6)), Budget(), 2))  # type: ignore[arg-type]
    assert [k for k, _ in got][-1] == 0
    assert sorted(got) == [(k, str(k)) for k in range(6)]
