"""``serve`` answers each request in the browser's language (``Accept-Language``), unless
``priffe serve --lang`` fixed one; per request, so two browsers each get their own."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from typing import Any

import pytest
from archive_support import run_async
from click.testing import CliRunner
from conftest import EXAMPLES

from priffe_records.cli import cli
from priffe_records.game.language import accepted_language

PARTIE = EXAMPLES / "partie-uppsala.ppn"
SWEDISH = "sv-SE,sv;q=0.9,en;q=0.5"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lang") / "klubb.db"
    res = CliRunner().invoke(cli, ["import", "--db", str(db), str(PARTIE), "--lang", "en"])
    assert res.exit_code == 0, res.output
    return db


def _client(db: Path, lang: str | None = None) -> Any:
    """A ``get(path, accept)`` on a Datasette built as ``serve`` builds it; in a thread of
    its own, as the ``served`` fixture of test_conventions does (Playwright's loop)."""
    pytest.importorskip("datasette")
    from priffe_records.cli.serve import build

    ds = build(str(db), lang)

    def get(path: str, accept: str | None = None) -> Any:
        headers = {"Accept-Language": accept} if accept else {}
        res = run_async(ds.client.get(path, headers=headers))
        assert res.status_code == 200, (path, res.text[:300])
        return res

    return get


def _pages() -> list[str]:
    return ["/klubb/deals/1/replay", "/klubb/parties/1/sheet"]


@pytest.mark.parametrize("path", _pages())
def test_a_swedish_browser_gets_swedish_pages_an_english_one_english(
        archive: Path, path: str) -> None:
    get = _client(archive)
    sv, en = get(path, SWEDISH).text, get(path, "en-GB").text
    if path.endswith("sheet"):
        assert "utskriftssida" in sv and "printable page" in en
        assert "printable page" not in sv and "utskriftssida" not in en
    else:
        assert 'lang="sv"' in sv and 'lang="en"' in en
        assert 'aria-label="spelbord"' in sv and 'aria-label="card table"' in en


def test_two_browsers_in_turn_each_keep_their_language(archive: Path) -> None:
    get = _client(archive)
    said = [get("/klubb/parties/1/sheet", h).text for h in (SWEDISH, "en-GB", SWEDISH, "en")]
    assert ["utskriftssida" in t for t in said] == [True, False, True, False]


def test_the_metadata_follows_the_browser_too(archive: Path) -> None:
    get = _client(archive)
    title = re.compile(r"<h1>([^<]*)</h1>")
    assert title.findall(get("/", SWEDISH).text)[:1] == ["Priffearkiv"]
    assert title.findall(get("/", "en-GB").text)[:1] == ["Priffe archive"]


def test_lang_given_to_serve_wins_over_the_browser(archive: Path) -> None:
    get = _client(archive, "en")
    page = get("/klubb/parties/1/sheet", SWEDISH).text
    assert "printable page" in page and "utskriftssida" not in page


@pytest.mark.parametrize(("args", "fixed"), [(["--lang", "en"], "en"), ([], None),
                                             (["--lang", "sv"], "sv")])
def test_serve_passes_only_an_explicit_lang_on(archive: Path, monkeypatch: pytest.MonkeyPatch,
                                               args: list[str], fixed: str | None) -> None:
    pytest.importorskip("datasette")
    import uvicorn

    from priffe_records.cli import serve

    seen: list[str | None] = []
    real = serve.build

    def build(db: str, lang: str | None = None) -> Any:
        seen.append(lang)
        return real(db, lang)

    def run(server: Any, sockets: list[socket.socket]) -> None:
        del server, sockets

    monkeypatch.setattr(serve, "build", build)
    monkeypatch.setattr(uvicorn.Server, "run", run)
    res = CliRunner().invoke(cli, ["serve", "--db", str(archive), "--port", "0", *args],
                             env={"PRIFFE_LANG": "sv"})
    assert res.exit_code == 0, res.output
    assert seen == [fixed]


@pytest.mark.parametrize(("header", "lang"), [
    ("sv-SE,sv;q=0.9,en;q=0.5", "sv"), ("en-GB", "en"), ("en-GB;q=0.5, sv;q=0.6", "sv"),
    ("sv;q=0, en", "en"), ("SV", "sv"), ("de, fr;q=0.5", None), ("sv;q=x, en;q=0.1", "en"),
    ("", None), ("*", None)])
def test_accept_language_honours_q_values(header: str, lang: str | None) -> None:
    assert accepted_language(header) == lang
