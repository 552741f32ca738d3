"""``priffe replay`` through CliRunner: golden text, selection, HTML, the archive and bad input."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, GOLDEN

from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import ensure_schema, open_archive
from priffe_records.cli import cli
from priffe_records.format.reader import read
from priffe_records.game.words import seat_name
from priffe_records.rules.priffe.analysis import analyse_record

EXAMPLE = GOLDEN / "replay-example.ppn"
REVOKE = GOLDEN / "replay-revoke.ppn"
PARTIE = GOLDEN / "replay-partie.ppn"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, ["replay", *args], env=env)
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_golden_full_deal(lang: str) -> None:
    code, out, err = run(str(EXAMPLE), "--lang", lang, env={"COLUMNS": "200"})
    assert code == 0, err
    assert "\x1b" not in out, "piped output has no escape codes"
    expected = (GOLDEN / f"replay-example-{lang}.txt").read_text("utf-8")
    assert out.replace(str(EXAMPLE), "replay-example.ppn") == expected


def test_the_language_follows_the_locale_like_every_command() -> None:
    _, out, _ = run(str(EXAMPLE), env={"LANG": "sv_SE.UTF-8"})
    assert "Given: Nord (Anna) · Förhand: Öst (Bertil)" in out and "♣ Ä K D Kn 6 3" in out
    _, out, _ = run(str(EXAMPLE), env={"LANG": "C.UTF-8"})
    assert "Dealer: North (Anna) · Forehand: East (Bertil)" in out


def test_step_when_piped_prints_everything_at_once() -> None:
    code, out, _ = run(str(EXAMPLE), "--step", env={"NO_COLOR": "1"})
    assert code == 0 and out == run(str(EXAMPLE))[1] and "\x1b" not in out


def test_board_and_rubber_select() -> None:
    code, out, _ = run(str(PARTIE), "--board", "3", "--rubber", "1", "--lang", "en")
    assert code == 0 and "Board 3" in out and "Board 1" not in out
    assert "NS makes its second game: +20" in out, "the rubber is followed from board 1"
    code, out, _ = run(str(PARTIE), "--lang", "en")
    assert code == 0 and all(f"Board {n}" in out for n in (1, 2, 3))
    assert "Board 2: Play by North, NS 7 EW 6 — a score-sheet record without hands or play" \
        in out.replace("\n", " ")


def test_missing_board_and_rubber_are_clear_errors() -> None:
    code, _, err = run(str(PARTIE), "--board", "9")
    assert code == 2 and "no board 9 (boards: 1, 2, 3)" in err
    code, _, err = run(str(PARTIE), "--rubber", "4")
    assert code == 2 and "no rubber 4 (rubbers: 1)" in err


def test_illegal_move_is_shown_and_exits_1() -> None:
    code, out, _ = run(str(REVOKE), "--lang", "en")
    assert code == 1
    assert f"{REVOKE}:23:7: trick 3: West plays ♣4 while holding ♦9" in " ".join(out.split())
    assert "W ♣4!" in out and "Score:" not in out


def test_bad_input_has_a_location_and_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ppn"
    bad.write_text('[Event "x"]\n[Auction "N"]\nHjärterr Pass\n', "utf-8")
    code, out, err = run(str(bad))  # the misspelt call costs the auction, not the record
    assert code == 1 and f"{bad}:3:1: unknown call 'Hjärterr'" in out
    assert "Traceback" not in out + err
    code, _, err = run(str(tmp_path / "nope.ppn"))
    assert code == 2 and "no such file" in err
    empty = tmp_path / "empty.ppn"
    empty.write_text("", "utf-8")
    code, _, err = run(str(empty))
    assert code == 2 and "no records" in err


def test_a_record_of_no_family_is_refused_with_its_place(tmp_path: Path) -> None:
    f = tmp_path / "whist.pbn"
    f.write_text('[Event "x"]\n[Scoring "Whist"]\n[Contract "4S"]\n', "utf-8")
    code, out, err = run(str(f))
    assert code == 2 and f"{f}:2:" in err and "not a Priffe record" in err
    assert "Traceback" not in out + err


def test_usage_errors() -> None:
    assert run()[0] == 2
    code, _, err = run(str(EXAMPLE), "--db", "x.db", "--id", "1")
    assert code == 2 and "either FILE or --db FILE --id N" in err
    code, _, err = run(str(EXAMPLE), "--lang", "de")
    assert code == 2


def test_html_is_written_atomically(tmp_path: Path) -> None:
    out = tmp_path / "partie.html"
    out.write_text("old", "utf-8")
    code, _, err = run(str(PARTIE), "--html", str(out))
    assert code == 0 and "(3 deals)" in err
    page = out.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="deal-select"' in page
    assert [p.name for p in tmp_path.iterdir()] == ["partie.html"], "no temporary file left"
    blob = page.split('id="priffe-data">')[1].split("</script>")[0]
    assert len(json.loads(blob)["deals"]) == 3
    code, _, err = run(str(PARTIE), "--html", str(tmp_path / "no" / "such" / "dir.html"))
    assert code == 2 and "Traceback" not in err


def _archive(tmp_path: Path) -> Path:
    """A real archive (the archive's own import) holding the three-deal partie."""
    db_path = tmp_path / "priffe.db"
    db = open_archive(db_path)
    ensure_schema(db)
    import_file(db, PARTIE)
    db.conn.close()
    return db_path


def test_db_replays_one_deal_with_its_rubber(tmp_path: Path) -> None:
    db = _archive(tmp_path)
    with sqlite3.connect(db) as conn:
        [(deal_id,)] = conn.execute("SELECT id FROM deals WHERE board = '3'").fetchall()
    code, out, err = run("--db", str(db), "--id", str(deal_id), "--lang", "en")
    assert code == 0, err
    assert "Board 3" in out and "Board 1" not in out
    assert "NS makes its second game: +20" in out, "the partie's earlier deals count"
    code, _, err = run("--db", str(db), "--id", "99")
    assert code == 2 and "no deal with id 99" in err


def test_db_that_is_not_an_archive(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 10)
    code, out, err = run("--db", str(junk), "--id", "1")
    assert code == 2 and "junk.db" in err and "Traceback" not in out + err
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE deals (id INTEGER PRIMARY KEY, ppn TEXT)")
    code, _, err = run("--db", str(other), "--id", "1")
    assert code == 2 and "not a priffe archive" in err
    code, _, err = run("--db", str(tmp_path / "missing.db"), "--id", "1")
    assert code == 2 and "no such database" in err


def test_the_example_partie_board_1() -> None:
    partie = EXAMPLES / "partie-uppsala.ppn"
    if not partie.is_file():
        pytest.skip("examples/partie-uppsala.ppn is not there yet")
    records = list(read(partie))
    board1 = next(r for r in records if r.get("Board") == "1")
    play = analyse_record(board1).play
    code, out, err = run(str(partie), "--board", "1", "--lang", "en")
    assert code == 0, err
    assert "Board 1" in out and "Board 2" not in out and "Score:" in out
    rows = [line.split() for line in out.splitlines() if line[:5].strip().isdigit()]
    assert play is not None and len(rows) == len(play.tricks)
    for row, trick in zip(rows, play.tricks, strict=True):
        assert row[0] == str(trick.number) and row[1] == seat_name(trick.leader).render("en")
    assert rows[-1][-2:] == [str(play.won.ns), str(play.won.ew)] or play.claimed


def test_the_example_score_sheet_has_nothing_to_replay() -> None:
    sheet = EXAMPLES / "protokoll-1952.ppn"
    if not sheet.is_file():
        pytest.skip("examples/protokoll-1952.ppn is not there yet")
    code, out, err = run(str(sheet), "--lang", "en")
    assert code == 0, err
    # listed one deal a line, and said once for the run of sheets, not once a deal
    boards = [r.get("Board") for r in read(sheet)]
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"Board {b}" for b in boards]
    assert out.count("nothing to replay") == 1 and "nothing to replay" in lines[0]


# A deal whose West holds 14 cards (♣2 twice: West and South), no auction or play: the
# kind of hand-typed record a club secretary's program writes (Deal as PBN gives it).
FOURTEEN = """\
[Event "Klubbkväll"]
[Site "Uppsala"]
[Date "2026.10.17"]
[Board "1"]
[Dealer "W"]
[Deal "W:Q.AJ852.AT983.652 AKT972..J76.AQJ3 J43.KQT73.4.KT87 865.964.KQ52.942"]
[Declarer "W"]
[Contract "Spela"]
[Result "NS 9 EW 4"]
"""


def test_a_deal_that_cannot_be_replayed_says_why_R2(tmp_path: Path) -> None:
    """Not 'a score-sheet record … nothing to replay' and exit 0: the hand's card count,
    with its rule and place, and exit 1 for the deal asked for."""
    f = tmp_path / "fjorton.ppn"
    f.write_text(FOURTEEN, "utf-8")
    code, out, err = run(str(f), "--board", "1", "--lang", "en")
    assert code == 1, err
    assert "nothing to replay" not in out
    assert out.startswith("Board 1: Play by West, NS 9 EW 4 — cannot be replayed:\n")
    assert f"  error R2: {f}:6:8: West is dealt 14 cards; each player holds 13\n" in out
    code, out, _ = run(str(f), "--lang", "sv")
    assert code == 1 and "Giv 1: Spela av Väst, NS 9 ÖV 4 — kan inte spelas upp:" in out
    assert f"fel R2: {f}:6:8: Väst har fått 14 kort; varje spelare ska ha 13" in out


def test_an_unreadable_deal_costs_its_deal_not_the_replay(tmp_path: Path) -> None:
    """The reader keeps a record with a bad Deal value (a located error): the other deals
    are replayed and that one says why it cannot be (exit 1)."""
    f = tmp_path / "trasig.ppn"
    good = REVOKE.read_text("utf-8")
    f.write_text(FOURTEEN.replace("W:Q.AJ852.AT983.652", "W:garbage")
                 .replace('"1"', '"9"') + "\n" + good, "utf-8")
    code, out, err = run(str(f), "--lang", "en")
    assert code == 1 and err == ""
    assert "Board 9: Play by West, NS 9 EW 4 — cannot be replayed:" in out
    assert f"error R2: {f}:6:10: Deal: W hand 'garbage' must have four suits" in out
    assert out.count("The play:") == 1  # the good deal is replayed in full


def test_a_score_sheet_asked_for_alone_exits_1(tmp_path: Path) -> None:
    """A score sheet still has nothing to replay (exit 0 among other deals); asked for by
    itself it cannot be replayed, so the exit status says so."""
    f = tmp_path / "protokoll.ppn"
    f.write_text(FOURTEEN.replace('[Deal "W:Q.AJ852.AT983.652 AKT972..J76.AQJ3 J43.KQT73.4.'
                                  'KT87 865.964.KQ52.942"]\n', ""), "utf-8")
    code, out, _ = run(str(f), "--lang", "en")
    assert code == 0 and "nothing to replay" in out
    code, out, _ = run(str(f), "--board", "1", "--lang", "en")
    assert code == 1 and "nothing to replay" in out


def test_the_page_says_why_too(tmp_path: Path) -> None:
    f = tmp_path / "fjorton.ppn"
    f.write_text(FOURTEEN, "utf-8")
    page = tmp_path / "p.html"
    code, _, err = run(str(f), "--html", str(page), "--lang", "en")
    assert code == 1, err
    text = page.read_text("utf-8")
    assert "cannot be replayed" in text and "West is dealt 14 cards" in text


def test_a_stored_deal_with_an_unreadable_deal_says_why(tmp_path: Path) -> None:
    """From the archive as from the file: the reason, located in the file and at the line
    the deal was imported from, exit 1."""
    f = tmp_path / "trasig.ppn"
    f.write_text(FOURTEEN.replace("W:Q.AJ852.AT983.652", "W:garbage"), "utf-8")
    db_path = tmp_path / "a.db"
    db = open_archive(db_path)
    ensure_schema(db)
    import_file(db, f)
    db.close()
    code, out, err = run("--db", str(db_path), "--id", "1", "--lang", "en")
    assert code == 1, err
    assert "Board 1: Play by West, NS 9 EW 4 — cannot be replayed:" in out
    assert f"error R2: {f}:6:10:" in out and "must have four suits" in out


def test_preset_gives_the_rules_of_a_record_without_scoring(tmp_path: Path) -> None:
    """--preset reaches the replay through the default family: en counts honours for the
    side (R17), sv only in one hand."""
    plain = tmp_path / "no-scoring.ppn"
    plain.write_text("".join(line for line in EXAMPLE.read_text("utf-8").splitlines(True)
                             if not line.startswith("[Scoring")), "utf-8")
    said = {p: run(str(plain), "--lang", "en", "--preset", p) for p in ("sv", "en")}
    # the file's Honours claim is sv's: under en the deal is shown with its R17 error
    assert [code for code, _, _ in said.values()] == [0, 1]
    assert "R17      Honours: no honour points" in said["sv"][1]
    assert "R17      Honours: NS 20" in said["en"][1]


def test_a_deal_without_play_has_one_blank_line_before_its_score() -> None:
    """Graz deal 4 ends in the auction (East gives up): no trick table, so the score follows
    the contract after one blank line, not two."""
    code, out, _ = run(str(EXAMPLES / "preference-graz.ppn"), "--board", "4", "--lang", "en")
    assert code == 0 and "\nScore:" in out
    assert "\n\n\n" not in out, out


def test_a_swedish_preference_trick_table_heads_its_seats_as_its_cards() -> None:
    """The per-seat trick counts are headed Ö, as the card lines beside them say, and the
    score lines write the seats the same way (both said E)."""
    code, out, _ = run(str(EXAMPLES / "preference-graz.ppn"), "--board", "1", "--lang", "sv")
    head = next(line for line in out.splitlines() if line.startswith("Stick   Utspel"))
    assert code == 0 and head.split()[-2:] == ["Ö", "S"], head
    assert "P11  stick: Ö 3  S 7" in out and "P12  betalningar: N +0  Ö +1  S +9" in out
