"""The standings never split one person silently: a near-miss name (R24/P1 "did you
mean") makes ``priffe stats`` and the ``import`` report say, one line per partie, that the
standings count the two names apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import EXAMPLES

from priffe_records.cli import cli

# Hand-typed, shaped like the club secretary's evening (test_habits' DEAL): one slip.
DEAL = ('[Event "Klubb"]\n[Site "Uppsala"]\n[Date "2026.03.01"]\n[Rubber "1"]\n'
        '[Board "{board}"]\n[North "{north}"]\n[East "Bo"]\n[South "Cia"]\n[West "Dan"]\n'
        '[Dealer "{dealer}"]\n[Declarer "N"]\n[Contract "Spela"]\n[Result "NS 8 EW 5"]\n'
        '[Honours "NS 0 EW 0"]\n')
NAMES = ("David Öhrnström", "David Ohrnstrom", "David Öhrnström")
SAID = {"en": "priffe: partie 1: 'David Ohrnstrom' looks like 'David Öhrnström' (R24) — "
              "the standings count them apart",
        "sv": "priffe: parti 1: 'David Ohrnstrom' liknar 'David Öhrnström' (R24) — "
              "ställningen räknar dem som olika spelare"}


def _run(*args: str, lang: str) -> Result:
    return CliRunner().invoke(cli, [*args, "--lang", lang], env={"PRIFFE_LANG": lang})


def _evening(tmp_path: Path, names: tuple[str, ...]) -> Path:
    path = tmp_path / "kväll.ppn"
    path.write_text("\n".join(DEAL.format(board=i + 1, north=n, dealer="NESW"[i % 4])
                              for i, n in enumerate(names)), "utf-8")
    return path


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_R24_a_near_miss_name_is_said_by_import_and_stats(tmp_path: Path, lang: str) -> None:
    db = tmp_path / "klubb.db"
    res = _run("import", "--db", str(db), str(_evening(tmp_path, NAMES)), lang=lang)
    assert res.exit_code == 0, res.output
    assert res.stderr.splitlines().count(SAID[lang]) == 1, res.stderr
    res = _run("stats", "--db", str(db), lang=lang)
    assert res.exit_code == 0, res.output
    assert res.stderr.splitlines() == [SAID[lang]]
    assert SAID[lang] not in res.stdout  # a note, not a row of the tables
    res = _run("stats", "--db", str(db), "--json", lang=lang)
    assert res.stderr.splitlines() == [SAID[lang]]


def test_R24_the_same_names_throughout_say_nothing(tmp_path: Path) -> None:
    db = tmp_path / "klubb.db"
    same = ("David Öhrnström",) * 3
    res = _run("import", "--db", str(db), str(_evening(tmp_path, same)), lang="en")
    assert res.exit_code == 0 and "looks like" not in res.stderr
    res = _run("stats", "--db", str(db), lang="en")
    assert res.exit_code == 0 and res.stderr == ""


def test_P1_a_preference_slip_is_said_too(tmp_path: Path) -> None:
    lines = (EXAMPLES / "preference-graz.ppn").read_text("utf-8").splitlines(keepends=True)
    assert lines[40] == '[North "Anna Kofler"]\n'
    lines[40] = '[North "anna kofler"]\n'
    path = tmp_path / "graz.ppn"
    path.write_text("".join(lines), "utf-8")
    db = tmp_path / "graz.db"
    assert _run("import", "--db", str(db), str(path), lang="en").exit_code == 0
    res = _run("stats", "--db", str(db), lang="en")
    assert res.stderr.splitlines() == [
        "priffe: partie 1: 'anna kofler' looks like 'Anna Kofler' (P1) — the standings count "
        "them apart"]


def test_a_second_import_of_another_partie_says_only_its_own(tmp_path: Path) -> None:
    db = tmp_path / "klubb.db"
    _run("import", "--db", str(db), str(_evening(tmp_path, NAMES)), lang="en")
    res = _run("import", "--db", str(db), str(EXAMPLES / "partie-uppsala.ppn"), lang="en")
    assert res.exit_code == 0 and "looks like" not in res.stderr, res.stderr
