"""Bridge on the real PBN files (../shared/pbn/corpus; skipped without it): each file
replays, validates, scores and imports without a traceback, and every deal's duplicate
score agrees with endplay's; and a bridge deal is the solver's position."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_bridge_rules import ROWS, record

from priffe_records import dd, loads, read
from priffe_records.cli import cli
from priffe_records.format.record import Record
from priffe_records.rules.bridge.analysis import BridgeOutcome, analyse
from priffe_records.rules.bridge.scoring import score, vulnerable
from priffe_records.rules.family import family_named, family_of


@pytest.mark.slow
def test_every_corpus_file_with_play_replays_validates_scores_and_imports(
        corpus_files: list[Path], tmp_path: Path) -> None:
    """Validate and import take every file at once; replay (terminal and page) and score
    one file at a time, each file that has play. None is refused, none fails."""
    played = [p for p in corpus_files if any(isinstance(r, Record) and r.play
                                             for r in read(p, errors="collect"))]
    assert len(played) >= 9
    runs = [["validate", *map(str, corpus_files)],
            ["import", "--db", str(tmp_path / "a.db"), *map(str, corpus_files)]]
    for i, path in enumerate(played):
        runs += [["replay", str(path)], ["score", str(path)]]
        if i == 0:  # the page of one: the same facts, another view
            runs.append(["replay", "--html", str(tmp_path / "r.html"), str(path)])
    for args in runs:
        res = CliRunner().invoke(cli, ["--lang", "en", *args])
        said = res.output + res.stderr
        assert "Traceback" not in said, (args, said)
        assert res.exception is None or isinstance(res.exception, SystemExit), (
            args, res.exception)
        assert res.exit_code in (0, 1), (args, said)


@pytest.mark.slow
def test_corpus_scores_agree_with_endplay(corpus_files: list[Path]) -> None:
    """Every corpus deal with a contract, declarer, result and vulnerability."""
    et = pytest.importorskip("endplay.types")
    denoms = (et.Denom.clubs, et.Denom.diamonds, et.Denom.hearts, et.Denom.spades,
               et.Denom.nt)
    penalties = (et.Penalty.passed, et.Penalty.doubled, et.Penalty.redoubled)
    checked = 0
    for path in corpus_files:
        for rec in read(path, errors="collect"):
            if not isinstance(rec, Record) or family_of(rec).name != "Bridge":
                continue
            o = analyse(rec)
            if o.contract is None or o.declarer is None or o.tricks is None \
                    or o.score is None:
                continue
            c = o.contract
            theirs = et.Contract(level=c.level, denom=denoms[c.strain],
                                 declarer=et.Player.north, penalty=penalties[c.risk],
                                 result=o.tricks - c.tricks_needed)
            sides = vulnerable(rec.get("Vulnerable"))
            own = score(c, o.tricks, o.declarer.side.name in (sides or ""))
            assert own == theirs.score(et.Vul.both if sides and o.declarer.side.name in sides
                                       else et.Vul.none), (path.name, rec.location, str(c))
            assert o.score == (own if o.declarer.side.name == "NS" else -own)
            checked += 1
    assert checked >= 20


def test_a_bridge_deal_is_the_solvers_position() -> None:
    """The last trick left after a claim: the declaring side takes it, 13 in all."""
    [rec] = loads(record(rows=[*ROWS[:12], "*"]))
    o = analyse(rec)
    assert isinstance(o, BridgeOutcome) and o.findings == ()
    deal = family_named("bridge").dd_deal(o)
    assert deal is not None and deal.leader.value == "E" and len(deal.played) == 48
    assert dd.value(deal) == 13


@pytest.mark.slow
def test_priffe_analyse_solves_an_archived_bridge_deal(tmp_path: Path) -> None:
    """import, then analyse: the deal's par and each played card's cost are stored."""
    src = tmp_path / "b.pbn"
    src.write_text(record(rows=[*ROWS[:11], "*"]), "utf-8")
    db = str(tmp_path / "a.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["import", "--db", db, str(src)]).exit_code == 0
    res = runner.invoke(cli, ["--lang", "en", "analyse", "--db", db, "-j", "1", "-q"])
    assert res.exit_code == 0, res.output + res.stderr
    con = sqlite3.connect(db)
    assert con.execute("SELECT status, par FROM dd_deals").fetchall() == [("analysed", 13)]
    assert con.execute("SELECT count(*) FROM dd_cards").fetchone() == (44,)
