"""The CLI's conventions, as sqlite-utils, Datasette and black users expect them.

``--json`` is one array and ``--nl`` one object a line on every command; ``sql -``
reads standard input; ``export`` without ``-o`` writes standard output; ``serve``
takes ``--db``, prints the real port and refuses a busy one before saying it
serves; Ctrl-C in ``replay --step`` exits 130 and the key help does not stay.
"""

from __future__ import annotations

import io
import json
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
from archive_support import imported_archive, run_async
from click.testing import CliRunner, Result
from conftest import DATA, EXAMPLE_FILES, EXAMPLES, GOLDEN
from test_replay_browser import browser  # noqa: F401 - the shared browser fixture

from priffe_records.cli import cli
from priffe_records.cli import replay as replay_cli
from priffe_records.format.reader import read

BROKEN = DATA / "broken.ppn"
PARTIE = EXAMPLES / "partie-uppsala.ppn"
SHEET_ONLY = EXAMPLES / "protokoll-1952.ppn"  # a score sheet: no hands, no play


def invoke(*args: str, stdin: str | bytes | None = None, lang: str = "en") -> Result:
    return CliRunner().invoke(cli, [*args, "--lang", lang] if args[0] != "serve" else list(args),
                              input=stdin, env={"PRIFFE_LANG": lang})


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported_archive(tmp_path_factory.mktemp("conventions"), EXAMPLES)


# --json is an array, --nl is lines: the same on every command ------------------------------


@pytest.mark.parametrize("command", ["validate", "parse"])
def test_json_is_one_array_and_nl_the_same_objects_a_line(command: str) -> None:
    as_json = invoke(command, "--json", str(BROKEN))
    as_nl = invoke(command, "--nl", str(BROKEN))
    assert as_json.exit_code == as_nl.exit_code == 1
    array = json.loads(as_json.stdout)
    assert isinstance(array, list) and array
    assert array == [json.loads(line) for line in as_nl.stdout.splitlines()]


def test_json_of_nothing_is_an_empty_array() -> None:
    res = invoke("validate", "--json", str(PARTIE))
    assert res.exit_code == 0 and json.loads(res.stdout) == []


def test_query_and_validate_agree_on_json(archive: Path) -> None:
    query = json.loads(invoke("query", "--db", str(archive), "--json").stdout)
    validate = json.loads(invoke("validate", "--json", str(BROKEN)).stdout)
    assert isinstance(query, list) and isinstance(validate, list)


# sql -, export to stdout ---------------------------------------------------------------------


def test_sql_dash_reads_the_statement_from_stdin(archive: Path) -> None:
    res = invoke("sql", "-", "--db", str(archive), "--json",
                 stdin="SELECT count(*) AS n FROM deals\n")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)[0]["n"] == len(list(read(PARTIE))) + sum(
        len(list(read(p))) for p in EXAMPLE_FILES if p != PARTIE)


def test_export_without_output_writes_stdout(archive: Path) -> None:
    res = invoke("export", "--db", str(archive))
    assert res.exit_code == 0, res.output
    deals = invoke("sql", "SELECT count(*) AS n FROM deals", "--db", str(archive), "--json")
    assert len(list(read(io.BytesIO(res.stdout_bytes)))) == json.loads(deals.stdout)[0]["n"]
    assert "records written" in res.stderr  # and nothing of it on stdout


# serve: --db, the real port, a busy port ------------------------------------------------------


class _Served:
    """Stands in for uvicorn's server and the browser: records what serve asked of them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import uvicorn

        self.opened: list[str] = []
        self.ports: list[int] = []
        served = self

        def run(server: Any, sockets: list[socket.socket]) -> None:
            served.ports += [s.getsockname()[1] for s in sockets]

        monkeypatch.setattr(uvicorn.Server, "run", run)
        monkeypatch.setattr("webbrowser.open", self.opened.append)


def test_serve_takes_db_and_port_zero_says_the_real_port_and_opens_it(
        archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("datasette")
    served = _Served(monkeypatch)
    res = invoke("serve", "--db", str(archive), "--port", "0", "--open")
    assert res.exit_code == 0, res.output
    (port,) = served.ports
    url = f"http://127.0.0.1:{port}/"
    assert port != 0 and url in res.stderr and ":0/" not in res.stderr
    assert served.opened == [url]
    assert "deprecated" not in res.stderr


def test_serve_db_as_an_argument_still_works_with_a_warning(
        archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("datasette")
    _Served(monkeypatch)
    res = invoke("serve", str(archive), "--port", "0")
    assert res.exit_code == 0, res.output
    assert "deprecated" in res.stderr and "--db" in res.stderr
    both = invoke("serve", str(archive), "--db", str(archive))
    assert both.exit_code == 2 and "--db" in both.stderr


@pytest.mark.parametrize(("lang", "words"), [("en", "is in use"), ("sv", "används")])
def test_a_busy_port_is_one_clear_error_and_no_success_line(
        archive: Path, monkeypatch: pytest.MonkeyPatch, lang: str, words: str) -> None:
    pytest.importorskip("datasette")
    served = _Served(monkeypatch)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = invoke("serve", "--db", str(archive), "--port", str(port), "--lang", lang)
    assert res.exit_code == 2
    assert res.stderr.startswith("priffe: ") and words in res.stderr and str(port) in res.stderr
    assert "serving" not in res.stderr and "Traceback" not in res.output
    assert served.ports == []


# replay --step: Ctrl-C, and the key help after q -----------------------------------------------


def _keys(monkeypatch: pytest.MonkeyPatch, *keys: str) -> None:
    pressed = iter(keys)
    monkeypatch.setattr(replay_cli, "read_key", lambda: next(pressed))


def test_step_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    _keys(monkeypatch, "enter", "ctrl-c")
    monkeypatch.setattr(replay_cli, "_on_terminal", lambda: True)
    res = invoke("replay", str(GOLDEN / "replay-example.ppn"), "--step")
    assert res.exit_code == 130
    assert "Traceback" not in res.output


def test_step_quit_exits_0(monkeypatch: pytest.MonkeyPatch) -> None:
    _keys(monkeypatch, "enter", "q")
    monkeypatch.setattr(replay_cli, "_on_terminal", lambda: True)
    res = invoke("replay", str(GOLDEN / "replay-example.ppn"), "--step")
    assert res.exit_code == 0


@pytest.mark.parametrize("last", ["q", "ctrl-c"])
def test_step_clears_the_key_help_when_it_ends(monkeypatch: pytest.MonkeyPatch, last: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    _keys(monkeypatch, "enter", last)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(replay_cli, "_on_terminal", lambda: True)
    monkeypatch.setattr(sys, "argv", ["priffe"])
    with pytest.raises(SystemExit):
        cli.main(["replay", str(GOLDEN / "replay-example.ppn"), "--step", "--lang", "en"])
    out = capsys.readouterr().out
    help_at = out.rindex("q quit")
    assert out.endswith(replay_cli.CLEAR_LAST_LINE) and help_at < len(out) - len(
        replay_cli.CLEAR_LAST_LINE) and out[help_at:].count("\n") == 1


# fmt --diff names what a text diff cannot show --------------------------------------------------


@pytest.mark.parametrize(("damage", "en", "sv"), [
    (lambda b: b.replace(b"\n", b"\r\n"), "line ends CRLF → LF", "radslut CRLF → LF"),
    (lambda b: b.replace(b"\n", b"\r"), "line ends CR → LF", "radslut CR → LF"),
    (lambda b: b"\xef\xbb\xbf" + b, "byte order mark removed", "byte order mark (BOM) tas bort"),
    (lambda b: b.decode("utf-8").encode("latin-1"), "encoding Latin-1 → UTF-8",
     "teckenkodning Latin-1 → UTF-8"),
])
def test_fmt_diff_shows_the_changes_check_reports(tmp_path: Path, damage: Any, en: str,
                                                  sv: str) -> None:
    path = tmp_path / "partie.ppn"
    canonical = invoke("fmt", "-", stdin=PARTIE.read_bytes())
    assert canonical.exit_code == 0, canonical.output
    path.write_bytes(damage(canonical.stdout_bytes))
    assert invoke("fmt", "--check", str(path)).exit_code == 1
    for lang, words in (("en", en), ("sv", sv)):
        res = invoke("fmt", "--diff", str(path), lang=lang)
        assert res.exit_code == 0
        assert res.stdout == f"{path}: {words}\n", "one line says it; the text is the same"


def test_fmt_diff_of_a_canonical_file_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "partie.ppn"
    path.write_bytes(invoke("fmt", "-", stdin=PARTIE.read_bytes()).stdout_bytes)
    res = invoke("fmt", "--diff", str(path))
    assert res.exit_code == 0 and res.stdout == ""


# serve: Datasette's escaped search, the saved search query, the pages ---------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The archive as priffe serve builds it, with Datasette's test client; one player is
    called Anna-Lisa and one site St. Eriks (hand-written, shaped like make_examples' output)."""
    pytest.importorskip("datasette")
    import asyncio

    from priffe_records.cli.serve import build

    db = tmp_path_factory.mktemp("served") / "klubb.db"
    text = PARTIE.read_text("utf-8")
    names = sorted({r.get("North") for r in read(PARTIE)} - {None})
    text = text.replace(str(names[0]), "Anna-Lisa Berg").replace('[Site "', '[Site "St. Eriks ')
    source = tmp_path_factory.mktemp("src") / "anna-lisa.ppn"
    source.write_text(text, "utf-8")
    res = CliRunner().invoke(cli, ["import", "--db", str(db), str(source), str(SHEET_ONLY)])
    assert res.exit_code == 0, res.output
    ds = build(str(db))
    asyncio.run(ds.invoke_startup())

    def get(path: str) -> Any:
        return run_async(ds.client.get(path))  # the 400 px test runs Playwright's loop here

    return get


@pytest.mark.parametrize("words", ["Anna-Lisa", "St. Eriks", "Anna-Lisa Berg", '"Anna'])
def test_table_search_escapes_like_query_text(served: Any, words: str) -> None:
    from urllib.parse import quote

    res = served(f"/klubb/deals.json?_search={quote(words)}&_shape=array")
    assert res.status_code == 200, res.text
    assert res.json(), words


@pytest.mark.parametrize(("words", "found"), [
    ("", False), ("Anna-Lisa", True), ("St. Eriks", True), ('St. "Eriks', True),
    ("OR", False), ("Nobody", False)])
def test_the_saved_search_query_escapes_its_words(served: Any, words: str, found: bool) -> None:
    from urllib.parse import quote

    res = served(f"/klubb/search.json?words={quote(words)}&_shape=array")
    assert res.status_code == 200, res.text
    assert bool(res.json()) is found
    page = served(f"/klubb/search?words={quote(words)}")
    assert page.status_code == 200 and "syntax error" not in page.text
    assert "no such column" not in page.text


def test_the_sheet_page_has_datasettes_title_navigation_and_tables(served: Any) -> None:
    res = served("/klubb/parties/1/sheet")
    assert res.status_code == 200
    html = res.text
    assert "<title>" in html and "<title></title>" not in html
    assert 'class="crumbs"' in html and 'href="/klubb"' in html  # Datasette's navigation
    assert "<table" in html and "─" not in html and "│" not in html  # no terminal lines
    assert 'name="viewport"' in html and "/-/priffe-records.css" in html
    printable = served("/klubb/parties/1/sheet?print=1")
    assert printable.status_code == 200 and "@page { size: A4;" in printable.text


def test_the_findings_page_hides_the_internal_message_json(served: Any) -> None:
    css = served("/-/priffe-records.css")
    assert css.status_code == 200
    assert "td.col-message_json" in css.text and "display: none" in css.text
    page = served("/klubb/findings")
    assert page.status_code == 200 and "/-/priffe-records.css" in page.text


# remove: an id is not a board; what the recomputation finds is said -----------------------------


@pytest.mark.parametrize("dry_run", [True, False])
def test_remove_says_id_and_board_and_the_later_deal_that_no_longer_agrees_R23(
        tmp_path: Path, dry_run: bool) -> None:
    db = tmp_path / "r.db"
    assert invoke("import", "--db", str(db), str(PARTIE)).exit_code == 0
    ids = json.loads(invoke("sql", "SELECT id, board FROM deals ORDER BY id", "--db", str(db),
                            "--json").stdout)
    second, third = ids[1], ids[2]
    args = ["remove", "--db", str(db), "--id", str(second["id"]),
            *(["--dry-run"] if dry_run else [])]
    for lang, deal_id, board, later in (
            ("en", "deal with id {}", "board {}", "the deal with id {} (board {}) no longer "
             "agrees (R23): ScoreRubber says"),
            ("sv", "giv med id {}", "giv {}", "giv med id {} (giv {}) stämmer inte längre "
             "(R23): robbertställningen på raden säger")):
        res = invoke(*args, lang=lang) if dry_run or lang == "en" else None
        if res is None:
            continue
        assert res.exit_code == 0, res.output
        assert deal_id.format(second["id"]) in res.stdout
        assert board.format(second["board"]) in res.stdout
        assert later.format(third["id"], third["board"]) in res.stderr
    findings = json.loads(invoke("sql", "SELECT deal_id, rule FROM findings WHERE message LIKE "
                                 "'ScoreRubber%'", "--db", str(db), "--json").stdout)
    assert findings == ([] if dry_run else [{"deal_id": third["id"], "rule": "R23"}])


def _sheet_only_deal(served: Any) -> int:
    rows = served("/klubb/deals.json?_shape=array&source__endswith=protokoll-1952.ppn").json()
    return int(rows[0]["id"])


def test_a_score_sheet_deal_page_hides_the_hands_and_fits_a_phone(served: Any) -> None:
    res = served(f"/klubb/deals/{_sheet_only_deal(served)}/replay")
    assert res.status_code == 200
    html = res.text
    assert '"u":' in html  # the page shows the one-line summary (u), not the table
    # main is display:flex; without this rule its hidden attribute showed four empty hands
    assert "[hidden] { display: none !important; }" in html
    assert 'name="viewport" content="width=device-width' in html
    assert "@media (max-width: 600px)" in html and "white-space: normal" in html


@pytest.mark.slow  # a real browser
def test_the_deal_pages_at_400_px_in_a_real_browser(served: Any, request: pytest.FixtureRequest,
                                                   tmp_path: Path) -> None:
    """Nothing scrolls sideways at 400 px, and a score-sheet deal shows no hand boxes."""
    chromium: Any = request.getfixturevalue("browser")
    pg = chromium.new_page(viewport={"width": 400, "height": 800})
    try:
        for deal_id, hands in ((1, True), (_sheet_only_deal(served), False)):
            page = tmp_path / f"deal{deal_id}.html"
            page.write_text(served(f"/klubb/deals/{deal_id}/replay").text, "utf-8")
            pg.goto(page.as_uri())
            assert pg.evaluate("document.documentElement.scrollWidth") <= 400
            assert pg.is_visible("#seat-N") is hands
    finally:
        pg.close()


def test_json_stays_one_array_when_a_later_file_is_missing(tmp_path: Path) -> None:
    res = invoke("parse", "--json", str(PARTIE), str(tmp_path / "saknas.ppn"))
    assert res.exit_code == 2 and "saknas.ppn" in res.stderr
    assert len(json.loads(res.stdout)) == len(list(read(PARTIE)))
