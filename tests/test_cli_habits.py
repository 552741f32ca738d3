"""CLI habits shared by every command (issue 12): one --preset, input from '-', output styles."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from conftest import DATA, EXAMPLES, GOLDEN

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
    from_file = invoke("validate", "--nl", str(BROKEN))
    from_stdin = invoke("validate", "--nl", "-", stdin=BROKEN.read_bytes())
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
               "--nl")
    row = json.loads(n.stdout)
    assert row["s"] == "<stdin>" and row["n"] == len(list(read(PARTIE)))


@pytest.mark.slow  # a real process
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


# One output stack: --table --json --nl --csv --tsv --no-headers --fmt ------------------------

OUTPUT_COMMANDS = ("query", "sql", "stats", "parse", "validate")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("arch") / "club.db"
    assert invoke("import", "--db", str(db), str(EXAMPLES)).exit_code == 0
    return db


@pytest.mark.parametrize("name", OUTPUT_COMMANDS)
def test_every_output_command_has_the_same_options(name: str) -> None:
    opts = {o for p in cli.commands[name].params if isinstance(p, click.Option) for o in p.opts}
    assert {"--table", "--json", "--nl", "--csv", "--tsv", "--no-headers", "--fmt",
            "--format"} <= opts


def test_query_player_nl_is_one_object_per_line(archive: Path) -> None:
    res = invoke("query", "--db", str(archive), "--player", "Astrid Lindqvist", "--nl")
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    as_json = json.loads(invoke("query", "--db", str(archive), "--player", "Astrid Lindqvist",
                                "--json").stdout)
    assert rows == as_json and rows
    assert all("Astrid Lindqvist" in (r["north"], r["east"], r["south"], r["west"]) for r in rows)


def test_query_csv_no_headers_and_tsv(archive: Path) -> None:
    with_h = invoke("query", "--db", str(archive), "--player", "Astrid Lindqvist", "--csv").stdout
    without = invoke("query", "--db", str(archive), "--player", "Astrid Lindqvist", "--csv",
                     "--no-headers").stdout
    assert with_h.splitlines()[1:] == without.splitlines()
    assert with_h.splitlines()[0].startswith("id,")
    tsv = invoke("query", "--db", str(archive), "--player", "Astrid Lindqvist", "--tsv").stdout
    assert tsv.splitlines()[0].split("\t") == with_h.splitlines()[0].split(",")


def test_the_older_format_spelling_still_works(archive: Path) -> None:
    old = invoke("query", "--db", str(archive), "--format", "csv").stdout
    assert old == invoke("query", "--db", str(archive), "--csv").stdout


def test_two_output_styles_are_refused(archive: Path) -> None:
    res = invoke("query", "--db", str(archive), "--csv", "--json")
    assert res.exit_code == 2 and "one output style" in res.stderr


def test_fmt_chooses_the_table_style(archive: Path) -> None:
    res = invoke("sql", "--db", str(archive), "SELECT contract, count(*) AS n FROM deals "
                 "GROUP BY contract ORDER BY contract", "--fmt", "github")
    lines = res.stdout.splitlines()
    assert lines[0].startswith("| contract") and set(lines[1]) <= set("|-: ")
    plain = invoke("sql", "--db", str(archive), "SELECT 1 AS a", "--fmt", "plain",
                   "--no-headers")
    assert plain.stdout.strip() == "1"


def test_stats_nl_rows_carry_their_table(archive: Path) -> None:
    res = invoke("stats", "--db", str(archive), "--nl")
    rows = [json.loads(x) for x in res.stdout.splitlines()]
    doc = json.loads(invoke("stats", "--db", str(archive), "--json").stdout)
    assert isinstance(doc, list), "--json is one array, as in query and sql"
    assert rows == doc and {"standings", "players"} <= {r["table"] for r in rows}


def test_parse_and_validate_rows(archive: Path) -> None:
    csv_rows = invoke("parse", "--csv", str(PARTIE)).stdout.splitlines()
    assert csv_rows[0] == "file,line,event,rubber,board,contract,declarer,result,errors"
    assert len(csv_rows) == 1 + len(list(read(PARTIE)))
    val = invoke("validate", "--tsv", "--no-headers", str(BROKEN))
    assert val.exit_code == 1
    nl = invoke("validate", "--nl", str(BROKEN)).stdout.splitlines()
    assert len(val.stdout.splitlines()) == len(nl) > 0
    # --json is the same objects as one array (sqlite-utils' meaning, as on query/sql/stats)
    assert json.loads(invoke("validate", "--json", str(BROKEN)).stdout) == [
        json.loads(x) for x in nl]


# -q and -v --------------------------------------------------------------------------------------


def test_quiet_shows_errors_only() -> None:
    full = invoke("validate", "--nl", str(BROKEN))
    quiet = invoke("validate", "-q", "--nl", str(BROKEN))
    rows = [json.loads(x) for x in full.stdout.splitlines()]
    kept = [json.loads(x) for x in quiet.stdout.splitlines()]
    assert kept == [r for r in rows if r["severity"] == "error"] and len(kept) < len(rows)
    assert quiet.exit_code == full.exit_code == 1
    report = invoke("validate", "-q", str(BROKEN)).stdout
    assert "warning" not in report and "unverifiable" not in report
    assert report.rstrip().endswith(f"{len(kept)} errors in 1 file (5 records)")


def test_verbose_lists_each_check_that_passed() -> None:
    res = invoke("validate", "-v", str(PARTIE))
    assert res.exit_code == 0
    n = len(list(read(PARTIE)))
    assert res.stdout.count("passed       R10–R13  play") == n
    assert "R23–R24  settlement" in res.stdout
    broken = invoke("validate", "-v", str(BROKEN)).stdout
    rec1 = broken.split("record 1")[-1].split("record 2")[0]
    assert "R10–R13  play" not in rec1, "record 1 breaks R11: play did not pass"


def test_quiet_and_verbose_together_is_a_usage_error() -> None:
    assert invoke("validate", "-q", "-v", str(PARTIE)).exit_code == 2


# fmt: '-' and --diff ----------------------------------------------------------------------------

MESSY = GOLDEN / "import-format.in.ppn"  # import format: fmt has work to do


def test_fmt_stdin_writes_the_canonical_text_to_stdout() -> None:
    raw = MESSY.read_bytes()
    res = invoke("fmt", "-", stdin=raw)
    assert res.exit_code == 0, res.output
    again = invoke("fmt", "-", stdin=res.stdout.encode())
    assert again.stdout == res.stdout  # idempotent
    assert invoke("fmt", "--check", "-", stdin=res.stdout.encode()).exit_code == 0
    assert list(read(io.BytesIO(raw))) == list(read(io.BytesIO(res.stdout.encode())))


def test_fmt_stdin_with_a_syntax_error_writes_nothing() -> None:
    res = invoke("fmt", "-", stdin=b'[Event "x"]\n[Dealer "N"]\n[Auction "N"]\nHj\xc3\xa4rterr\n')
    assert res.exit_code == 1 and res.stdout == "" and "<stdin>:" in res.stderr


def test_fmt_diff_shows_the_change_and_touches_nothing(tmp_path: Path) -> None:
    messy = tmp_path / "messy.ppn"
    messy.write_bytes(MESSY.read_bytes())
    before = messy.read_bytes()
    res = invoke("fmt", "--diff", str(messy))
    assert res.exit_code == 0 and messy.read_bytes() == before
    lines = res.stdout.splitlines()
    # what a text diff cannot show comes first, as a patch's preamble (MESSY has CRLF ends)
    assert lines[0] == f"{messy}: line ends CRLF → LF"
    lines = lines[1:]
    assert lines[0] == f"--- {messy}\t(original)" and lines[1] == f"+++ {messy}\t(formatted)"
    assert any(x.startswith("@@ ") for x in lines)
    # the diff applied to the original gives what fmt writes
    invoke("fmt", str(messy))
    new = messy.read_text("utf-8").splitlines()
    assert [x[1:] for x in lines[2:] if x[:1] in "+ "] == new
    assert invoke("fmt", "--diff", str(messy)).stdout == ""  # nothing left to change
    assert invoke("fmt", "--diff", "--check", str(tmp_path)).exit_code == 0


def test_fmt_check_diff_exits_1_when_something_would_change(tmp_path: Path) -> None:
    messy = tmp_path / "messy.ppn"
    messy.write_bytes(MESSY.read_bytes())
    res = invoke("fmt", "--check", "--diff", str(messy))
    assert res.exit_code == 1 and res.stdout.splitlines()[1].startswith("---")


# Datasette metadata per database ------------------------------------------------------------------


def test_each_archive_file_gets_its_own_metadata(tmp_path: Path) -> None:
    for name in ("klubb", "förbund"):
        assert invoke("import", "--db", str(tmp_path / f"{name}.db"), str(PARTIE)).exit_code == 0
        meta = json.loads((tmp_path / f"{name}.metadata.json").read_text("utf-8"))
        assert list(meta["databases"]) == [name]


def test_metadata_is_refreshed_after_a_schema_change_and_a_users_own_is_kept(
        tmp_path: Path) -> None:
    from priffe_records.archive.metadata import VERSION_KEY
    from priffe_records.archive.schema import SCHEMA_VERSION

    db = tmp_path / "klubb.db"
    meta = tmp_path / "klubb.metadata.json"
    assert invoke("import", "--db", str(db), str(PARTIE)).exit_code == 0
    old = json.loads(meta.read_text("utf-8"))
    assert old[VERSION_KEY] == SCHEMA_VERSION
    meta.write_text(json.dumps({**old, VERSION_KEY: SCHEMA_VERSION - 1, "title": "old"}),
                    encoding="utf-8")
    invoke("import", "--db", str(db), str(PARTIE))
    assert json.loads(meta.read_text("utf-8")) == old  # ours, older schema: rewritten
    mine = '{"title": "Klubbens arkiv"}'
    meta.write_text(mine, encoding="utf-8")
    invoke("import", "--db", str(db), str(PARTIE))
    assert meta.read_text("utf-8") == mine  # the user's own: never touched
