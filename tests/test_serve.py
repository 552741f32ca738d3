"""priffe serve: Datasette on 127.0.0.1 with the archive's metadata, search, canned queries,
and the plugin's replay and score-sheet pages; one check in a real browser.

The server runs as the installed ``priffe`` in a subprocess on a free loopback
port; every test skips, saying why, when Datasette (the ``serve`` extra,
in the ``test`` extra too) cannot be imported.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from archive_support import imported_archive
from click.testing import CliRunner
from conftest import EXAMPLES
from test_replay_browser import browser, page  # noqa: F401 - the shared browser fixtures

from priffe_records.cli import cli

pytestmark = pytest.mark.slow  # a Datasette server and a browser
datasette = pytest.importorskip("datasette", reason="Datasette (the serve extra) is not installed")

ENV = {**os.environ, "PRIFFE_LANG": "en"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported_archive(tmp_path_factory.mktemp("serve"), EXAMPLES)


def serving(archive: Path, env: dict[str, str]) -> Iterator[str]:
    """``priffe serve`` on ``archive`` as a user starts it, on a free port: its address
    while the server runs (stopped after)."""
    exe = shutil.which("priffe", path=str(Path(sys.executable).parent)) or "priffe"
    port = _free_port()
    proc = subprocess.Popen([exe, "serve", "--db", str(archive), "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if get(base + "/-/versions.json")[0] == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                _, err = proc.communicate(timeout=5)
                pytest.fail(f"priffe serve did not start: {err.decode()}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def server(archive: Path) -> Iterator[str]:
    yield from serving(archive, ENV)


def test_index_lists_the_archive_with_its_metadata(server: str) -> None:
    status, html = get(server + "/")
    assert status == 200 and "Priffe archive" in html and "klubb" in html
    status, body = get(server + "/-/metadata.json")
    meta = json.loads(body)
    assert "klubb" in meta["databases"], "keyed by the database's file name"
    assert meta["databases"]["klubb"]["tables"]["deals"]["fts_table"] == "deals_fts"


def test_full_text_search(server: str) -> None:
    status, body = get(server + "/klubb/deals.json?_search=Lindqvist&_shape=array")
    rows = json.loads(body)
    assert status == 200 and rows
    assert all("Astrid Lindqvist" in (r["players"] or "") for r in rows)


def test_canned_queries(server: str) -> None:
    status, body = get(server + "/klubb/standings.json?_shape=array")
    assert status == 200 and {"player", "settlement"} <= set(json.loads(body)[0])
    status, body = get(server + "/klubb/deals_of_player.json?player=Astrid+Lindqvist"
                       "&_shape=array")
    assert status == 200 and json.loads(body)


def test_a_deal_page_is_the_replay_viewer(server: str, archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "deal.html"
    res = CliRunner().invoke(cli, ["replay", "--db", str(archive), "--id", "2", "--html",
                                   str(out)], env={"PRIFFE_LANG": "en"})
    assert res.exit_code == 0, res.output
    status, html = get(server + "/klubb/deals/2/replay")
    assert status == 200
    assert html == out.read_text("utf-8"), "the same page as priffe replay --html"
    status, listing = get(server + "/klubb/deals")
    assert 'href="/klubb/deals/2/replay"' in listing
    assert get(server + "/klubb/deals/99999/replay")[0] == 404


def test_a_partie_page_is_its_score_sheet(server: str) -> None:
    status, html = get(server + "/klubb/parties/1/sheet")
    assert status == 200 and "Standings" in html and "Σ NS" in html
    status, html = get(server + "/klubb/parties/1/sheet?print=1")
    assert status == 200 and "@page { size: A4;" in html  # priffe score --html's page
    assert 'href="/klubb/parties/1/sheet"' in get(server + "/klubb/parties")[1]
    assert get(server + "/klubb/parties/99999/sheet")[0] == 404


def test_without_datasette_the_message_says_how_to_install(
        monkeypatch: pytest.MonkeyPatch, archive: Path) -> None:
    monkeypatch.setitem(sys.modules, "datasette.app", None)  # import fails as if missing
    res = CliRunner().invoke(cli, ["serve", "--db", str(archive)])
    assert res.exit_code == 2
    # this copy runs from its clone: the hint installs the clone's own extra, not PyPI's
    root = Path(__file__).resolve().parents[1]
    assert f"-m pip install -e '{root}[serve]'" in res.stderr, res.stderr


def test_a_missing_archive_is_one_clear_line(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path / "none.db")])
    assert res.exit_code == 2 and "none.db" in res.stderr and "Traceback" not in res.output


def test_the_deal_page_in_a_real_browser(server: str, request: pytest.FixtureRequest) -> None:
    """Thirteen clicks on Next reach the validator's trick counts, with no script error."""
    pg: Any = request.getfixturevalue("page")
    from priffe_records.format.reader import read
    from priffe_records.rules.priffe.analysis import analyse_record

    recs = list(read(EXAMPLES / "partie-uppsala.ppn"))
    play = analyse_record(recs[0]).play
    assert play is not None
    pg.goto(server + "/klubb/deals/1/replay")
    for _ in range(13):
        pg.click("#next")
    ns, ew = int(pg.text_content("#tricks-ns")), int(pg.text_content("#tricks-ew"))
    assert (ns, ew) == (play.won.ns, play.won.ew)
    assert pg.errors == [] and pg.dialogs == []

