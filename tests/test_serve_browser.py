"""The secretary's four ``priffe serve`` pages (home, an evening, a deal, a player) in a real
browser (Debian's chromium through Playwright, as test_replay_browser.py), at 1280 and
400 px, in Swedish and English (issue 29, item 4).

Each page is screenshotted (into ``PRIFFE_SCREENSHOTS`` when set, else pytest's temporary
folder) and its rendered text read: a Swedish page shows no English word but names, the
replay link of a deal's row is on screen on a phone, and nothing makes the page wider
than the screen. Skips, saying why, when Datasette, Playwright or chromium is missing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from archive_support import imported_archive
from conftest import EXAMPLE_FILES, EXAMPLES
from test_replay_browser import browser  # noqa: F401 - the shared browser fixture
from test_serve import serving
from test_swedish_words import ALLOWED, _english_only

pytestmark = pytest.mark.slow  # a Datasette server and a browser
pytest.importorskip("datasette", reason="Datasette (the serve extra) is not installed")

WIDTHS = (1280, 400)
LOCALES = {"sv": "sv-SE", "en": "en-GB"}
_WORD = re.compile(r"[A-Za-zÅÄÖåäöÉéü]{3,}")
# Names a Swedish page may show, with why.
PROGRAMS = {"datasette": "the server's name, in the footer",
            "records": "of priffe-records, this program's name, in the footer"}
DATASETTE_TEMPLATES = Path(__import__("datasette").__file__).parent / "templates"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``priffe serve`` on the examples' archive, as a user starts it (no --lang: each
    browser gets its own language)."""
    db = imported_archive(tmp_path_factory.mktemp("browse"), EXAMPLES)
    yield from serving(db, {k: v for k, v in os.environ.items() if k != "PRIFFE_LANG"})


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("PRIFFE_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _english_words() -> set[str]:
    """English a Swedish reader should never meet: the words of our catalogue's English ids
    no Swedish text uses, and every word of Datasette's own pages (its templates)."""
    datasette = set()
    for template in DATASETTE_TEMPLATES.glob("*.html"):
        text = re.sub(r"{[{%#].*?[}%#]}|<[^>]*>", " ", template.read_text("utf-8"), flags=re.S)
        datasette |= {w.lower() for w in _WORD.findall(text)}
    return (_english_only() | datasette) - set(ALLOWED) - set(PROGRAMS)


def _names() -> set[str]:
    """The user's own words: names, events, sites and comments of the imported files."""
    return {w.lower() for p in EXAMPLE_FILES for w in _WORD.findall(p.read_text("utf-8"))}


# The four pages, by what the secretary clicks: home, the first evening from home, its first
# deal's page from the evening, the first player from that deal.
PAGES = ("home", "evening", "deal", "player")


def _visit(pg: Any, base: str) -> Iterator[tuple[str, str]]:
    """Each page's name and URL, reached by clicking from home as the secretary does."""
    pg.goto(base + "/")
    yield "home", pg.url
    pg.click("ul.priffe-evenings li a")
    assert "/sheet" in pg.url
    yield "evening", pg.url
    pg.click("table.priffe-rows tbody tr td:nth-child(2) a")
    assert pg.url.endswith("/page")
    yield "deal", pg.url
    pg.click("ul.priffe-seats a")
    assert "/players/" in pg.url
    yield "player", pg.url


@pytest.mark.parametrize("lang", ["sv", "en"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_four_pages_in_a_browser(browser: Any, server: str, shots: Path,  # noqa: F811
                                     lang: str, width: int) -> None:
    context = browser.new_context(locale=LOCALES[lang],
                                  viewport={"width": width, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    english, names = _english_words(), _names()
    seen = []
    try:
        for name, _ in _visit(pg, server):
            seen.append(name)
            pg.screenshot(path=str(shots / f"{name}-{lang}-{width}.png"), full_page=True)
            text = pg.inner_text("body")
            words = {w.lower() for w in _WORD.findall(text)}
            if lang == "sv":
                assert sorted(words & english - names) == [], name
            else:
                assert {"home", "evenings", "deals", "replay", "player", "role"} & words, name
            wide = pg.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{name} is {wide} px wide on a {width} px screen"
            first = pg.locator("td.replay a").first
            if first.count():  # a deal's row: its replay link on screen
                box = first.bounding_box()
                assert box is not None and box["x"] + box["width"] <= width, name
    finally:
        context.close()
    assert seen == list(PAGES) and errors == []
