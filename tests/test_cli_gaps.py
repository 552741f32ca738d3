"""Small gaps a secretary met (issue 29 item 7), in Swedish: `new` with a player too few,
`score` of a folder, `remove` of a deal that is not there."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from conftest import EXAMPLES

from priffe_records.cli import cli
from priffe_records.format.reader import read


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["--lang", "sv", *args], prog_name="priffe")
    return res.exit_code, res.stdout, res.stderr


def test_new_with_fewer_players_than_seats_refuses(tmp_path: Path) -> None:
    out = tmp_path / "kväll.ppn"
    code, _, err = run("new", "-p", "Anna", "-p", "Bertil", "-p", "Cecilia", "-o", str(out))
    assert code == 2 and not out.exists()
    assert "priffe har 4 spelare, men 3 angavs: ingen sitter på Väst" in err
    code, _, err = run("new", "--game", "preference", "-p", "Anna", "-o", str(out))
    assert code == 2 and "ingen sitter på Öst, Syd" in err
    # every name, or none (a form to fill in by hand), is laid out as before
    assert run("new", *["-p", "x"] * 4, "-o", str(out))[0] == 0
    assert run("new", "-o", str(tmp_path / "tom.ppn"))[0] == 0


def test_score_of_a_folder_scores_every_file_below_it_as_validate_reads_it(
        tmp_path: Path) -> None:
    folder = tmp_path / "kvällar"
    (folder / "höst").mkdir(parents=True)
    shutil.copy(EXAMPLES / "partie-uppsala.ppn", folder / "a.ppn")
    shutil.copy(EXAMPLES / "preference-graz.ppn", folder / "höst" / "b.PBN")
    (folder / "anteckningar.txt").write_text("inte en partie", encoding="utf-8")
    code, out, err = run("score", f"{folder}/")
    assert code == 0, err
    assert out.index(f"{folder}/a.ppn") < out.index("Upsala Priffeklubb") \
        < out.index(f"{folder}/höst/b.PBN") < out.index("Préférence i Graz")
    # --fill fills each file in place; one output file for many inputs is refused
    code, _, err = run("score", str(folder), "--html", str(tmp_path / "k.html"))
    assert code == 2 and "--html: en fil i taget, och mappen" in err and "2 filer" in err
    (folder / "a.ppn").write_text("".join(
        line for line in (EXAMPLES / "partie-uppsala.ppn").read_text(encoding="utf-8")
        .splitlines(keepends=True) if not line.startswith("[ScoreRubber ")), encoding="utf-8")
    code, _, err = run("score", str(folder), "--fill", "-q")
    assert code == 0, err
    assert f"fyllde i {folder}/a.ppn" in err and f"fyllde i {folder}/höst/b.PBN" in err
    assert all(r.get("ScoreRubber") for r in read(folder / "a.ppn"))


def test_remove_of_an_id_that_is_not_there_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    assert run("import", "--db", db, str(EXAMPLES / "partie-uppsala.ppn"))[0] == 0
    code, _, err = run("remove", "--db", db, "--id", "99")
    assert code == 1
    assert f"priffe: det finns ingen giv med id 99 i {db}" in err
    code, out, err = run("remove", "--db", db, "--id", "1", "--id", "99", "--dry-run")
    assert code == 1 and "id 1" in out and "ingen giv med id 99" in err
    code, _, err = run("remove", "--db", db, "--id", "1", "--event", "Annat", "--dry-run")
    assert code == 1 and "ingen giv med id 1 i" in err and "de andra villkoren" in err
