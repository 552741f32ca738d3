"""CLI habits shared by every command (issue 12): one --preset, input from '-', output styles."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from conftest import DATA, EXAMPLES

from priffe_records.cli import cli
from priffe_records.format.reader import read
from priffe_records.rules.priffe.options import PRESETS


def _preset(command: click.Command) -> click.Option | None:
    return next((p for p in command.params
                 if isinstance(p, click.Option) and "--preset" in p.opts), None)


def test_every_preset_option_offers_exactly_the_presets() -> None:
    with_preset = {name: _preset(c) for name, c in cli.commands.items() if _preset(c)}
    assert {"validate", "score", "replay"} <= set(with_preset)
    for name, opt in with_preset.items():
        assert opt is not None and isinstance(opt.type, click.Choice), name
        assert sorted(opt.type.choices) == sorted(PRESETS), name
        assert opt.default == "sv", name


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_preset_reaches_the_library_as_options(preset: str) -> None:
    opt = _preset(cli.commands["validate"])
    assert opt is not None
    ctx = click.Context(cli.commands["validate"])
    assert opt.process_value(ctx, preset) is PRESETS[preset]


# '-' reads standard input ---------------------------------------------------------------------

PARTIE = EXAMPLES / "partie-uppsala.ppn"
BROKEN = DATA / "broken.ppn"


def invoke(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_validate_reads_stdin_and_names_it() -> None:
    from_file = invoke("validate", "--json", str(BROKEN))
    from_stdin = invoke("validate", "--json", "-", stdin=BROKEN.read_bytes())
    assert from_file.exit_code == from_stdin.exit_code == 1
    lines = [json.loads(x) for x in from_stdin.stdout.splitlines()]
    assert lines and {x["file"] for x in lines if x["file"]} == {"<stdin>"}
    strip = [{**json.loads(x), "file": None} for x in from_file.stdout.splitlines()]
    assert strip == [{**x, "file": None} for x in lines]


def test_validate_stdin_report_names_stdin_line_and_column() -> None:
    res = invoke("validate", "-", stdin=BROKEN.read_bytes())
    assert res.exit_code == 1 and "<stdin>" in res.stdout


def test_a_syntax_error_on_stdin_is_located_as_stdin() -> None:
    text = '[Event "x"]\n[Dealer "N"]\n[Auction "N"]\nHjärterr Pass\n'
    res = invoke("parse", "-", stdin=text.encode())
    assert res.exit_code == 1
    assert "<stdin>:" in res.stderr


def test_stdin_may_be_given_only_once() -> None:
    res = invoke("parse", "-", "-", stdin=PARTIE.read_bytes())
    assert res.exit_code == 2 and "only once" in res.stderr


def test_parse_and_score_read_stdin_like_the_file() -> None:
    for cmd in (["parse"], ["score"]):
        a = invoke(*cmd, str(PARTIE))
        b = invoke(*cmd, "-", stdin=PARTIE.read_bytes())
        assert a.exit_code == b.exit_code == 0, (cmd, b.output)
        assert b.stdout.replace("<stdin>", str(PARTIE)) == a.stdout


def test_score_fill_from_stdin_writes_stdout_and_the_sheet_to_stderr() -> None:
    res = invoke("score", "--fill", "-", stdin=PARTIE.read_bytes())
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("% PPN") and "[ScoreRubber" in res.stdout
    assert "Standings" in res.stderr


def test_replay_reads_stdin() -> None:
    a = invoke("replay", str(PARTIE), "--board", "1")
    b = invoke("replay", "-", "--board", "1", stdin=PARTIE.read_bytes())
    assert a.exit_code == b.exit_code == 0 and a.stdout == b.stdout


def test_import_reads_stdin(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    res = invoke("import", "--db", str(db), "-", stdin=PARTIE.read_bytes())
    assert res.exit_code == 0, res.output
    assert "<stdin>" in res.stdout
    n = invoke("sql", "--db", str(db), "SELECT count(*) AS n, min(source) AS s FROM deals",
               "--format", "json")
    [row] = json.loads(n.stdout)
    assert row["s"] == "<stdin>" and row["n"] == len(list(read(PARTIE)))


def test_real_pipe_into_the_installed_command() -> None:
    """`cat examples/partie-uppsala.ppn | priffe validate -` with the real executable."""
    exe = shutil.which("priffe", path=str(Path(sys.executable).parent)) or "priffe"
    ok = subprocess.run([exe, "validate", "-"], input=PARTIE.read_bytes(),
                        capture_output=True, timeout=60, check=False)
    assert ok.returncode == 0, ok.stderr
    assert b"0 errors" in ok.stdout
    bad = subprocess.run([exe, "validate", "-"], input=BROKEN.read_bytes(),
                         capture_output=True, timeout=60, check=False)
    assert bad.returncode == 1 and b"<stdin>" in bad.stdout
