"""-q/--quiet and -v/--verbose mean the same on every command that has them: quiet shows
errors only, verbose adds each check that passed (fmt: each file already canonical)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA, EXAMPLES

from priffe_records.cli import cli

BROKEN = DATA / "broken.ppn"
UPPSALA = EXAMPLES / "partie-uppsala.ppn"


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["--lang", "en", *args], prog_name="priffe")
    return res.exit_code, res.stdout, res.stderr


@pytest.mark.parametrize("command", ["validate", "score", "fmt", "import"])
def test_quiet_and_verbose_together_are_a_usage_error(command: str, tmp_path: Path) -> None:
    extra = ["--db", str(tmp_path / "q.db")] if command == "import" else []
    code, _, err = _run(command, "-q", "-v", *extra, str(UPPSALA))
    assert code == 2
    assert ("Choose either --quiet or --verbose." in err if command != "import"
            else "No such option '-v'" in err)


def test_score_quiet_prints_errors_only_and_verbose_the_checks_that_passed() -> None:
    code, normal, normal_err = _run("score", str(BROKEN))
    assert code == 1 and "Honours" in normal and "R11" in normal_err
    code, quiet, quiet_err = _run("score", "-q", str(BROKEN))
    assert code == 1 and quiet == "" and quiet_err == normal_err
    code, verbose, _ = _run("score", "-v", str(UPPSALA))
    assert code == 0 and verbose.startswith(_run("score", str(UPPSALA))[1])
    assert "record 1 (board 1)" in verbose and "passed" in verbose and "R14–R18" in verbose
    _, verbose_broken, _ = _run("score", "-v", str(BROKEN))
    # Record 1 broke R11 (play) and R15 (score): those checks are not listed as passed.
    first = verbose_broken.split("record 1 (board 1)")[1].split("  record ")[0]
    assert "R1–R3" in first and "R10–R13" not in first and "R14–R18" not in first


def test_fmt_quiet_says_nothing_unless_an_error_and_verbose_names_canonical_files(
        tmp_path: Path) -> None:
    messy = tmp_path / "messy.ppn"
    messy.write_text(UPPSALA.read_text(encoding="utf-8").replace('[Site "', '[Site  "'),
                     encoding="utf-8")
    clean = tmp_path / "clean.ppn"
    shutil.copy(messy, clean)
    assert _run("fmt", str(clean))[0] == 0  # now canonical
    code, _, err = _run("fmt", "--check", "-q", str(messy), str(clean))
    assert code == 1 and err == ""  # the exit status tells; nothing is printed
    code, _, err = _run("fmt", "--check", "-v", str(messy), str(clean))
    assert code == 1 and f"would reformat {messy}" in err
    assert f"{clean}: already canonical" in err and "1 file would be reformatted" in err
    code, _, err = _run("fmt", "-q", str(BROKEN), str(messy))
    assert code == 1 and "Hjärterr" in err and "reformatted" not in err


def test_import_quiet_prints_nothing_but_errors(tmp_path: Path) -> None:
    db = str(tmp_path / "q.db")
    code, out, err = _run("import", "-q", "--db", db, str(UPPSALA), str(tmp_path / "none.ppn"))
    assert code == 2 and out == "" and "none.ppn" in err
    code, out, err = _run("import", "-q", "--db", db, str(UPPSALA))
    assert code == 0 and out == "" and err == ""
    code, out, _ = _run("import", "--db", db, str(UPPSALA))
    assert code == 0 and "0 new" in out


def test_the_options_speak_swedish() -> None:
    res = CliRunner().invoke(cli, ["--lang", "sv", "score", "-q", "-v", str(UPPSALA)],
                             prog_name="priffe")
    assert res.exit_code == 2 and "Välj antingen --quiet eller --verbose." in res.stderr
    out = CliRunner().invoke(cli, ["--lang", "sv", "score", "--help"]).output
    assert "Bara fel: inget protokoll." in out


def test_replay_quiet_keeps_errors_and_verbose_lists_passed_checks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import GOLDEN, ROOT
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    sections = str(GOLDEN / "sections.in.ppn")
    code, normal, _ = _run("replay", sections)
    assert "warning R8" in normal and "error R4" in normal
    code, quiet, _ = _run("replay", "-q", sections)
    assert "warning" not in quiet and "error R4" in quiet
    code, verbose, _ = _run("replay", "-v", str(GOLDEN / "replay-example.ppn"))
    assert code == 0 and verbose.startswith(_run("replay",
                                                 str(GOLDEN / "replay-example.ppn"))[1])
    assert "record 1" in verbose and "passed       R10–R13  play" in verbose
