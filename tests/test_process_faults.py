"""Faults of the processes around the engine: exit codes, repeated findings, workers.

``parse`` exits 1 whenever it reports an error (as ``validate`` does), not only for an
unreadable record; the real-process checks run the installed ``priffe`` command.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from priffe_records.cli import cli
from priffe_records.cli.common import EXIT_FINDINGS, EXIT_OK

# One record that repeats a tag: the reader reads it and reports the second Contract as an
# error on the record (what two records run together without a blank line look like).
TWICE = ('[Event "Klubbkväll"]\n[Board "1"]\n[Contract "Spela"]\n[Result "NS 7 EW 6"]\n'
         '[Contract "Hjärter"]\n')
# A Deal value the reader cannot read: the record is kept, with a located error.
BAD_DEAL = '[Event "Klubbkväll"]\n[Board "1"]\n[Deal "W:garbage"]\n'


def priffe_exe() -> str:
    """The installed ``priffe`` script beside this interpreter (or on PATH)."""
    exe = shutil.which("priffe", path=str(Path(sys.executable).parent)) or shutil.which("priffe")
    if exe is None:
        pytest.skip("the priffe command is not installed in this environment")
    return exe


def _parse(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, ["parse", *args])
    return r.exit_code, r.stdout, r.stderr


# ---------------------------------------------------------------- parse's exit code


@pytest.mark.parametrize("text", [TWICE, BAD_DEAL], ids=["tag-twice", "bad-deal"])
def test_parse_exits_1_when_it_reports_an_error(tmp_path: Path, text: str) -> None:
    f = tmp_path / "a.ppn"
    f.write_text(text + '\n[Event "ok"]\n[Board "2"]\n', "utf-8")
    code, out, err = _parse(str(f), "--lang", "en")
    assert code == EXIT_FINDINGS, err
    assert f"{f}:" in err and "warning" not in err  # the located error itself
    assert "1 record has errors" in err
    assert "Board=2" in out, "the other records are still shown"


def test_parse_says_it_in_swedish_too(tmp_path: Path) -> None:
    f = tmp_path / "a.ppn"
    f.write_text(TWICE + "\n" + TWICE, "utf-8")
    code, _, err = _parse(str(f), "--lang", "sv")
    assert code == EXIT_FINDINGS and "2 poster har fel" in err


def test_parse_of_a_warning_only_exits_0(tmp_path: Path) -> None:
    """A missing blank line is a warning (the records are split where the next starts)."""
    f = tmp_path / "a.ppn"
    f.write_text('[Event "a"]\n[Board "1"]\n[Board "2"]\n', "utf-8")
    code, out, err = _parse(str(f))
    assert code == EXIT_OK, err
    assert "warning" in err and out.count("Board=") == 2


@pytest.mark.slow
def test_installed_parse_exits_1_on_a_record_with_an_error(tmp_path: Path) -> None:
    f = tmp_path / "a.ppn"
    f.write_text(TWICE, "utf-8")
    proc = subprocess.run([priffe_exe(), "parse", "--lang", "en", str(f)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == EXIT_FINDINGS, proc.stderr
    assert f"{f}:5:1: tag [Contract] appears twice" in proc.stderr
    assert "Traceback" not in proc.stderr
