"""The commands know Préférence: validate, score (--fill), fmt; a file may mix the families."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES
from preference_support import EXAMPLE

from priffe_records import dumps, loads, validate
from priffe_records.cli import cli

GRAZ = EXAMPLES / "preference-graz.ppn"


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, list(args))
    return res.exit_code, res.output


def test_example_partie_validates_without_findings() -> None:
    recs = list(loads(GRAZ.read_text("utf-8")))
    assert len(recs) == 12
    assert validate(recs) == []
    assert sum(1 for r in recs for _ in r.comments()) >= 6


def test_validate_covers_both_families_in_examples() -> None:
    code, out = run("validate", str(EXAMPLES))
    assert code == 0, out
    assert re.search(r"^0 errors, 0 warnings", out, re.M)


def test_score_prints_partie_sheet_and_standings() -> None:
    code, out = run("score", str(GRAZ))
    assert code == 0, out
    assert "Préférence" in out and "Standings" in out and "Pot at the end" in out
    assert "Anna Kofler" in out


def test_swedish_sheet_writes_the_seats_as_the_priffe_sheet_does() -> None:
    """Öst is Ö on a Swedish sheet, in every column, like Priffe's Given column."""
    code, out = run("--lang", "sv", "score", str(GRAZ))
    assert code == 0, out
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert len(rows) == 12
    row3 = rows[2].split()
    assert row3[1] == "Ö" and "Ö S" in rows[2] and "N +10 Ö +0 S +0" in rows[2]
    assert not any(re.search(r"\bE\b", line) for line in rows), rows
    # Deal 4: South dropped out, then the declarer East gave up — not "dropped out" twice.
    assert "S Ö (gav upp)" in rows[3] and "lade sig" not in out


def test_score_fill_writes_score_pot_balance(tmp_path: Path) -> None:
    bare = re.sub(r'\[(Score|Pot|Balance) "[^"]*"\]\n', "", GRAZ.read_text("utf-8"))
    f = tmp_path / "bare.ppn"
    f.write_text(bare, "utf-8")
    code, out = run("score", str(f), "--fill")
    assert code == 0, out
    assert f.read_text("utf-8") == GRAZ.read_text("utf-8")


def test_score_reports_wrong_pot(tmp_path: Path) -> None:
    f = tmp_path / "bad.ppn"
    f.write_text(EXAMPLE.replace('[Pot "60"]', '[Pot "50"]'), "utf-8")
    code, out = run("score", str(f))
    assert code == 1 and "P14" in out and "Pot says 50" in out


def test_mixed_file_checks_each_record_by_its_family(tmp_path: Path) -> None:
    priffe = (EXAMPLES / "partie-uppsala.ppn").read_text("utf-8")
    mixed = tmp_path / "mixed.ppn"
    mixed.write_text(dumps([*loads(EXAMPLE), *loads(priffe)]), "utf-8")
    code, out = run("validate", str(mixed))
    assert code == 0, out
    code, out = run("score", str(mixed))
    assert code == 0 and "end of rubber 1" in out and "Pot at the end" in out


def test_fmt_writes_three_card_rows(tmp_path: Path) -> None:
    f = tmp_path / "one-card-a-line.ppn"
    head, play = EXAMPLE.split('[Play "E"]\n', 1)
    cards, tail = play.split("[Score", 1)
    f.write_text(head + '[Play "E"]\n' + "\n".join(cards.split()) + "\n[Score" + tail, "utf-8")
    code, out = run("fmt", str(f))
    assert code == 0, out
    assert f.read_text("utf-8") == EXAMPLE


def test_four_card_row_is_located_error() -> None:
    bad = EXAMPLE.replace("HK H7 HA\nHJ", "HK H7 HA HJ\n")
    [rec, *_] = loads(bad, errors="collect")
    # The record is kept with the located error attached (issue 8: errors ride on the record).
    [err] = [e for e in rec.errors if not e.is_warning]
    assert "Play row has 4 cards" in str(err)


@pytest.mark.slow  # a real process
def test_real_process_scores_the_example() -> None:
    proc = subprocess.run([sys.executable, "-c", "from priffe_records.cli import main; main()",
                           "score", str(GRAZ)], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0 and "cannot import name 'main'" in proc.stderr:
        proc = subprocess.run([str(Path(sys.executable).with_name("priffe")), "score",
                               str(GRAZ)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Standings" in proc.stdout


def test_replay_terminal_shows_tricks_talon_and_payments() -> None:
    code, out = run("replay", str(GRAZ), "--board", "6", "--lang", "en")
    assert code == 0, out
    assert "Talon" in out and "The play:" in out and "P12  payments: " in out
    rows = [x for x in out.splitlines() if x.split()[:1] in ([str(n)] for n in range(1, 11))]
    assert len(rows) == 10, out


def test_replay_html_of_preference(tmp_path: Path) -> None:
    page = tmp_path / "graz.html"
    code, out = run("replay", str(GRAZ), "--html", str(page))
    assert code == 0, out
    text = page.read_text("utf-8")
    assert "Talon" in text and "tally0" in text


def test_replay_of_illegal_card_exits_1(tmp_path: Path) -> None:
    f = tmp_path / "revoke.ppn"
    f.write_text(EXAMPLE.replace("HQ H9 H8\nDA D8 D7", "HQ D8 H8\nDA H9 D7"), "utf-8")
    code, out = run("replay", str(f), "--board", "1", "--lang", "en")
    assert code == 1 and "must follow hearts" in out and "!" in out


def test_archive_stores_the_family_and_filters_by_it(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    code, out = run("import", "--db", db, str(EXAMPLES))
    assert code == 0, out
    code, out = run("query", "--db", db, "--game", "preference", "--format", "json")
    assert code == 0, out
    import json
    rows = json.loads(out)
    assert len(rows) == 12 and {r["game"] for r in rows} == {"Preference"}
    assert rows[-1]["pot"] == 150
    code, out = run("query", "--db", db, "--game", "priffe", "--format", "json")
    assert code == 0 and {r["game"] for r in json.loads(out)} == {"Priffe"}
    code, out = run("query", "--db", db, "--game", "preference", "--contract", "♥",
                    "--format", "json")
    assert code == 0 and all(r["contract"] == "Hearts" for r in json.loads(out))
    code, out = run("stats", "--db", db)
    assert code == 0 and "Préférence standings" in out
    from priffe_records.archive.schema import open_archive
    conn = open_archive(db, readonly=True)
    try:
        balances = dict(conn.execute("SELECT player, balance FROM preference_standings"))
    finally:
        conn.conn.close()
    sheet_rows = [line for line in run("score", str(GRAZ))[1].splitlines() if "│" in line]
    assert balances == {"Anna Kofler": -34, "Bertil Strand": -34, "Cecilia Huber": -82}
    assert sheet_rows
    code, out = run("export", "--db", db, "--game", "preference", "-o",
                    str(tmp_path / "back.ppn"))
    assert code == 0, out
    assert list(loads((tmp_path / "back.ppn").read_text("utf-8"))) == list(loads(
        GRAZ.read_text("utf-8")))


def test_validate_verbose_names_preference_rules() -> None:
    code, out = run("validate", "-v", str(GRAZ))
    assert code == 0, out
    assert "P2–P6" in out and "P14" in out and "claims" in out
    assert "R4–R9" not in out


def test_step_positions_walk_trick_by_trick() -> None:
    """--step draws a Préférence deal with Priffe's drawer: the tricks so far, the hands
    shrinking, the payments at the end."""
    import io

    from rich.console import Console

    from priffe_records.game.cards import Card, Seat
    from priffe_records.replay.model import build_replays
    from priffe_records.replay.terminal import step_count, step_view
    from priffe_records.replay.wording import words

    def shown(step: int) -> str:
        buf = io.StringIO()
        Console(file=buf, width=100, color_system=None).print(step_view(r, words("en"), step))
        return buf.getvalue()

    r = build_replays(list(loads(EXAMPLE)))[0]
    assert step_count(r) == 11
    first, last = shown(0), shown(10)

    def rows(text: str) -> list[str]:  # the trick table's rows
        return [x for x in text.splitlines() if x.split()[:1] in ([str(n)] for n in range(11))]

    assert rows(first) == [] and "payments" not in first
    assert len(rows(last)) == 10 and "payments: N +1  E -20  S -11" in last
    # The hands shrink: East (declarer, after the discard) holds 10, then 9 after trick 1.
    east = [r.left(k)[Seat.E.index] for k in (0, 1)]
    assert [len(h or ()) for h in east] == [10, 9]
    assert Card.parse("HK") in (east[0] or ()) and Card.parse("HK") not in (east[1] or ())
    assert "Talon" in first and "Forehand" in first
