"""Issue 29 item 6: the secretary's words. A deal is a giv; a partie with no Event or Site
has no "? · ?" title; stats speak the glossary's words and show numbers as the sheet does."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES

from priffe_records.cli import cli
from priffe_records.rules.family import partie_title

NAMELESS = """[Event "?"]
[Site "?"]
[Date "2026.11.25"]
[Board "1"]
[North "Anna"]
[East "Bo"]
[South "Cia"]
[West "Dan"]
[Dealer "N"]
[Contract "Hjärter"]
[Declarer "N"]
[Result "NS 8 EW 5"]
"""


def _run(*args: str, lang: str = "sv") -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args), env={"PRIFFE_LANG": lang})
    return res.exit_code, res.stdout, res.stderr


def test_a_title_leaves_out_what_is_not_known() -> None:
    assert partie_title("?", "?", "2026.11.25") in ("25 nov. 2026", "25 Nov 2026")
    assert partie_title("Onsdagspriffe", None, None) == "Onsdagspriffe"
    assert "?" not in partie_title("?", "", "?")


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_the_sheet_of_a_partie_without_event_or_site_has_no_question_marks(
        tmp_path: Path, lang: str) -> None:
    f = tmp_path / "kväll.ppn"
    f.write_text(NAMELESS, "utf-8")
    _, out, _ = _run("score", str(f), lang=lang)
    assert "? · ?" not in out and "2026" in out, out
    page = tmp_path / "kväll.html"
    _run("score", str(f), "--html", str(page), lang=lang)
    assert "? · ?" not in page.read_text("utf-8")


def test_written_and_counted_deals_are_givar_in_swedish(tmp_path: Path) -> None:
    code, out, err = _run("validate", str(EXAMPLES / "partie-uppsala.ppn"))
    assert code == 0 and "(11 givar)" in out and "poster" not in out + err, out + err


def test_stats_speak_the_glossary_and_align_numbers_with_their_sign(tmp_path: Path) -> None:
    db = tmp_path / "klubb.db"
    assert _run("import", "--db", str(db), str(EXAMPLES))[0] == 0
    code, out, _ = _run("stats", "--db", str(db))
    assert code == 0, out
    assert "strafftrick tagna" in out and "strafftrick givna" in out
    assert "straff tagna" not in out
    # the standings: Astrid Lindqvist +40 at the right edge of its column, as on the sheet
    row = next(line for line in out.splitlines() if "Astrid Lindqvist" in line)
    cells = [c for c in row.split("│") if c.strip()]
    assert cells[-1].endswith("+40 ") and cells[-1].strip() == "+40", row
    assert cells[1].endswith("3 ") and cells[1].startswith("  "), row  # right-aligned
    _, js, _ = _run("stats", "--db", str(db), "--json")  # machines keep plain numbers
    assert '"settlement": 40}' in js and '"settlement": -3}' in js, js


def test_a_folder_is_a_mapp_in_every_message(tmp_path: Path) -> None:
    """Ours and click's words for a folder are one word: mapp, never katalog."""
    code, _, err = _run("parse", str(tmp_path))
    assert code == 2 and "i den här mappen" in err, err
    code, _, err = _run("add", str(tmp_path))
    assert code == 2 and "är en mapp" in err and "katalog" not in err, err
