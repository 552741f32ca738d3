"""``priffe fmt`` and ``priffe parse`` through CliRunner and as a real installed command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, GOLDEN

from priffe_records import __version__
from priffe_records.cli import cli

MESSY = GOLDEN / "import-format.in.ppn"
CANON = GOLDEN / "import-format.out.ppn"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_version_and_help_on_every_command() -> None:
    code, out, _ = run("--version")
    assert code == 0 and __version__ in out
    for command in cli.commands:
        code, out, _ = run(command, "--help")
        assert code == 0 and "Usage:" in out, command


def test_fmt_rewrites_in_place_and_check_reports(tmp_path: Path) -> None:
    f = tmp_path / "messy.ppn"
    shutil.copy(MESSY, f)
    code, _, err = run("fmt", "--check", str(f))
    assert code == 1 and f"would reformat {f}" in err
    assert f.read_bytes() == MESSY.read_bytes(), "--check changes nothing"
    code, _, err = run("fmt", str(f))
    assert code == 0 and "1 file reformatted" in err
    assert f.read_text("utf-8") == CANON.read_text("utf-8")
    code, _, err = run("fmt", "--check", str(tmp_path))
    assert code == 0 and "0 files would be reformatted" in err


def test_fmt_to_stdout(tmp_path: Path) -> None:
    code, out, _ = run("fmt", str(MESSY), "-o", "-")
    assert code == 0 and out == CANON.read_text("utf-8")


def test_fmt_never_rewrites_a_file_with_errors(tmp_path: Path) -> None:
    f = tmp_path / "bad.ppn"
    f.write_text('[Event "a"]\n\n[Play "N"]\nSX\n', "utf-8")
    before = f.read_bytes()
    code, _, err = run("fmt", str(f))
    assert code == 1
    assert f"{f}:4:1: card 'SX' is not a card" in err
    assert "Traceback" not in err
    assert f.read_bytes() == before


def test_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    code, _, err = run("fmt", str(tmp_path / "nope.ppn"))
    assert code == 2 and err.strip() == f"priffe: {tmp_path / 'nope.ppn'}: no such file"


def test_parse_json_one_record_per_line() -> None:
    code, out, _ = run("parse", "--nl", str(CANON))
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 2
    assert {"name": "Contract", "value": "Hjärter"} in lines[0]["tags"]
    assert lines[0]["line"] == 3


def test_parse_broken_file_prints_located_errors_and_exits_1(tmp_path: Path) -> None:
    f = tmp_path / "b.ppn"
    f.write_text('[Event "x"]\n[Auction "N"]\nHjärterr Pass\n\n[Event "ok"]\n', "utf-8")
    code, out, err = run("parse", str(f))
    assert code == 1
    assert f"{f}:3:1: unknown call 'Hjärterr' — did you mean 'Hjärter'?" in err
    assert "Event=ok" in out
    assert "Traceback" not in err + out


@pytest.mark.slow  # a real process
def test_installed_priffe_command_runs_as_a_subprocess(tmp_path: Path) -> None:
    beside = Path(sys.executable).parent / "priffe"
    exe = str(beside) if beside.exists() else shutil.which("priffe")
    if exe is None:
        pytest.skip("the priffe command is not installed in this environment")
    f = tmp_path / "b.ppn"
    f.write_text('[Event "x\n', "utf-8")
    proc = subprocess.run([exe, "parse", str(f)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert f"{f}:1:8: unterminated string" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = subprocess.run([exe, "fmt", "--check", str(CANON)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_output_into_a_missing_folder_is_one_clear_line(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "out.ppn"
    code, _, err = run("fmt", str(MESSY), "-o", str(target))
    assert code == 2
    assert err.strip() == (f"priffe: {target}: cannot write: the folder {target.parent} "
                           "does not exist")
    assert not list(tmp_path.rglob("*.tmp"))


def _read_only_for_us(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """``target`` as a non-root user sees a chmod 444 file (root may write anything)."""
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: (
        False if Path(p) == target and mode & os.W_OK else real(p, mode, **kw)))


EXAMPLE = EXAMPLES / "partie-uppsala.ppn"


@pytest.mark.parametrize("command", [("fmt", "{f}"), ("fmt", str(MESSY), "-o", "{f}"),
                                     ("score", "--fill", "{f}")])
def test_a_read_only_file_is_not_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          command: tuple[str, ...]) -> None:
    f = tmp_path / "kept.ppn"
    shutil.copy(MESSY if command[0] == "fmt" else EXAMPLE, f)
    f.chmod(0o444)
    _read_only_for_us(monkeypatch, f)
    code, _, err = run(*(a.format(f=f) for a in command))
    assert code == 2 and "Traceback" not in err
    assert err.strip().endswith(f"priffe: {f}: cannot write here (Permission denied)")
    assert f.read_bytes() == (MESSY if command[0] == "fmt" else EXAMPLE).read_bytes()
    assert not list(tmp_path.glob(".*.tmp"))


def test_fmt_in_a_folder_it_cannot_write_names_the_file(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "messy.ppn"
    shutil.copy(MESSY, f)

    def denied(**kw: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(tmp_path / ".messy.ppn.x.tmp"))
    monkeypatch.setattr(tempfile, "mkstemp", denied)
    code, _, err = run("fmt", str(f))
    assert code == 2
    assert err.strip() == f"priffe: {f}: cannot rewrite (Permission denied)"


def test_fmt_says_why_it_left_a_file_in_swedish(tmp_path: Path) -> None:
    f = tmp_path / "bad.ppn"
    f.write_text('[Event "a"]\n\n[Play "N"]\nSX\n', "utf-8")
    code, _, err = run("--lang", "sv", "fmt", str(f))
    assert code == 1
    assert f"{f}: lämnad orörd: 1 giv med fel: inget skrevs" in err


@pytest.mark.parametrize("command", [("validate", "{f}"), ("fmt", "{f}"), ("parse", "{f}"),
                                     ("score", "{f}"), ("import", "{f}", "--db", "{db}"),
                                     ("add", "{f}"), ("replay", "{f}")])
def test_the_archive_given_as_a_ppn_file_is_one_clear_line(tmp_path: Path,
                                                           command: tuple[str, ...]) -> None:
    """'priffe import priffe.db' (the archive as the input, an easy slip) read the database
    as text: a thousand syntax errors, and import stored every fragment as a record."""
    archive = tmp_path / "priffe.db"
    code, _, err = run("import", str(EXAMPLE), "--db", str(archive))
    assert code == 0, err
    other = tmp_path / "other.db"
    code, _, err = run(*(a.format(f=archive, db=other) for a in command))
    assert code == 2 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"priffe: {archive}:1:1: a SQLite database"), err
    assert len(lines) <= 2, err  # import adds its total line
    if command[0] == "import":
        import sqlite3
        assert sqlite3.connect(other).execute("SELECT count(*) FROM deals").fetchone() == (0,)


def test_a_pipe_is_read_whole_not_sniffed_first() -> None:
    """The not-text check reads a file's first bytes; a pipe (``<(zcat x.ppn.gz)``) gives
    its bytes once, so sniffing it lost them and the reader saw a broken first record."""
    text = (EXAMPLES / "protokoll-1952.ppn").read_bytes()
    assert len(text) < 60_000  # fits the pipe's buffer: written before it is read
    r, w = os.pipe()
    try:
        os.write(w, text)
        os.close(w)
        res = CliRunner().invoke(cli, ["--lang", "en", "validate", f"/dev/fd/{r}"])
    finally:
        os.close(r)
    assert res.exit_code == 0, res.output
    assert "0 errors, 0 warnings, 14 unverifiable in 1 file (14 records)" in res.output


def test_a_spreadsheet_given_to_validate_is_one_clear_line(tmp_path: Path) -> None:
    import zipfile
    sheet = tmp_path / "kväll.xlsx"
    with zipfile.ZipFile(sheet, "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
    code, _, err = run("--lang", "sv", "validate", str(sheet))
    assert code == 2
    assert err.strip() == (f"priffe: {sheet}:1:1: en zip-fil (ett kalkylark? 'priffe "
                           "sheet-import' läser det), ingen PPN/PBN-textfil")
