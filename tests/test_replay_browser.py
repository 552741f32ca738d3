"""The HTML hand viewer in a real headless browser (Debian's chromium, driven by Playwright).

Skips, saying why, only when no browser can be had: ``.ci/install-browser``
installs both. Playwright's own browser download is never used.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, GOLDEN

from priffe_records.format.reader import loads, read
from priffe_records.replay.html import write_page
from priffe_records.replay.model import build_replays
from priffe_records.replay.wording import WORDS
from priffe_records.rules.priffe.analysis import analyse_record

pytestmark = pytest.mark.slow  # a browser
CHROMIUM = os.environ.get("PRIFFE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
EXAMPLE = GOLDEN / "replay-example.ppn"
PARTIE = GOLDEN / "replay-partie.ppn"
EVIL = "<script>alert(1)</script>"
EVIL_EVENT = '<img src=x onerror="window.__pwned=1">'


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (run .ci/install-browser)")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no browser at {CHROMIUM} (run .ci/install-browser)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=60_000)
        except Exception as e:  # a broken install: say so and skip, the viewer is not at fault
            pytest.skip(f"chromium at {CHROMIUM} does not start: {str(e).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page()
    pg.set_default_timeout(10_000)
    pg.dialogs = []
    pg.errors = []
    pg.requests = []
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("request", lambda r: pg.requests.append(r.url))
    yield pg
    pg.close()


def counts(pg: Any) -> tuple[int, int]:
    return int(pg.text_content("#tricks-ns")), int(pg.text_content("#tricks-ew"))


def test_thirteen_nexts_reach_the_validators_trick_counts(page: Any, tmp_path: Path) -> None:
    [rec] = read(EXAMPLE)
    out = tmp_path / "deal.html"
    write_page(out, build_replays([rec]), WORDS["en"])
    page.goto(out.as_uri())
    assert counts(page) == (0, 0) and page.is_disabled("#prev")
    play = analyse_record(rec).play
    assert play is not None
    ns = ew = 0
    for trick in play.tricks:
        page.click("#next")
        assert trick.winner is not None
        ns, ew = (ns + 1, ew) if trick.winner.side.value == "NS" else (ns, ew + 1)
        assert counts(page) == (ns, ew), trick.number
    assert counts(page) == (play.won.ns, play.won.ew) == (10, 3)
    assert page.is_disabled("#next")
    assert "Trick 13/13" in page.text_content("#step-label")
    score = page.text_content("#score-panel")
    assert "R19–R20" in score and "NS makes its first game: +10" in score
    page.keyboard.press("ArrowLeft")
    assert counts(page) == (10, 2)
    page.keyboard.press("ArrowRight")
    assert counts(page) == (10, 3)
    assert page.errors == [] and page.dialogs == []
    assert all(u.startswith("file:") for u in page.requests), page.requests


def test_every_deal_of_the_example_partie(page: Any, tmp_path: Path) -> None:
    """The whole example partie in one page: each deal's final counts are the validator's."""
    partie = EXAMPLES / "partie-uppsala.ppn"
    if not partie.is_file():
        pytest.skip("examples/partie-uppsala.ppn is not there yet")
    records = list(read(partie))
    out = tmp_path / "partie.html"
    write_page(out, build_replays(records), WORDS["sv"])
    page.goto(out.as_uri())
    for i, rec in enumerate(records):
        play = analyse_record(rec).play
        if play is None:
            continue
        if i:
            page.select_option("#deal-select", str(i))
        for _ in range(13):
            page.keyboard.press("ArrowRight")  # past the last trick it stays put
        won = play.won
        assert counts(page) == (won.ns, won.ew), rec.get("Board")
    assert page.errors == [] and page.dialogs == []


def test_hands_shrink_and_the_trick_is_shown(page: Any, tmp_path: Path) -> None:
    out = tmp_path / "deal.html"
    write_page(out, build_replays(list(read(EXAMPLE))), WORDS["sv"])
    page.goto(out.as_uri())
    assert "♣ Ä K D Kn 6 3" in page.text_content("#seat-N")
    page.keyboard.press("ArrowRight")
    assert "♥ 7" in page.text_content("#seat-N"), "♥Ä was played to trick 1"
    centre = page.text_content("#centre")
    assert "Stick 1" in centre and "♥9" in centre and "♥Ä" in centre
    assert page.get_attribute(".card.win", "data-seat") == "N"


def test_user_strings_are_text_and_no_script_runs(page: Any, tmp_path: Path) -> None:
    text = (EXAMPLE.read_text("utf-8").replace('"Anna"', f'"{EVIL}"')
            .replace('"Klubbkväll"', '"' + EVIL_EVENT.replace('"', "'") + '"')
            .replace("{North takes the first trick}", "{</script><script>alert(2)</script>}"))
    out = tmp_path / "evil.html"
    write_page(out, build_replays(list(loads(text))), WORDS["en"])
    page.goto(out.as_uri())
    page.click("#next")
    assert EVIL in page.text_content("#seat-N")
    assert EVIL_EVENT.replace('"', "'") in page.text_content("#title")
    assert "</script><script>alert(2)</script>" in page.text_content("#trick-panel")
    assert page.evaluate("window.__pwned") is None
    assert page.dialogs == [] and page.errors == []
    assert page.evaluate("document.querySelectorAll('script').length") == 2, "only our own"


def test_a_partie_has_a_deal_selector(page: Any, tmp_path: Path) -> None:
    out = tmp_path / "partie.html"
    write_page(out, build_replays(list(read(PARTIE))), WORDS["en"])
    page.goto(out.as_uri())
    assert page.is_visible("#deal-select")
    page.select_option("#deal-select", "1")
    assert "nothing to replay" in page.text_content("#summary")
    page.select_option("#deal-select", "2")
    assert "Board 3" in page.text_content("#title")
    assert "NS makes its second game: +20" in page.text_content("#score-panel")
    page.keyboard.press("ArrowRight")  # no tricks in board 3: stays put
    assert counts(page) == (0, 0) and page.errors == []


def test_preference_deal_three_seats_talon_and_seat_counts(page: Any, tmp_path: Path) -> None:
    """A Préférence partie: the talon in the empty W seat, 3- and 2-card tricks, payments."""
    from priffe_records.rules.preference.analysis import analyse

    graz = EXAMPLES / "preference-graz.ppn"
    records = list(read(graz))
    pref = build_replays(records)
    out = tmp_path / "graz.html"
    write_page(out, pref, WORDS["en"])
    page.goto(out.as_uri())
    for i, rec in enumerate(records):
        o = analyse(rec)
        if i:
            page.select_option("#deal-select", str(i))
        assert "Talon" in page.text_content("#seat-W")
        assert page.is_hidden("#counts-sides") and page.is_visible("#counts-seats")
        if o.play is None:
            continue
        width = len(o.play.seats)
        page.keyboard.press("ArrowRight")
        assert page.locator("#centre .card").count() == width
        for _ in range(10):
            page.keyboard.press("ArrowRight")
        seats = sorted(o.play.seats, key=lambda s: s.index)  # in table order
        want = "  ".join(f"{s.value} {o.play.won[s]}" for s in seats)
        assert page.text_content("#counts-seats") == want, rec.get("Board")
        assert "P12payments: " in page.text_content("#score-panel")
    swedish = tmp_path / "graz-sv.html"  # the seat counts as the card lines write the seats
    write_page(swedish, pref[:1], WORDS["sv"])
    page.goto(swedish.as_uri())
    assert page.text_content("#counts-seats") == "Ö 0  S 0"
    # A Priffe deal after a Préférence page shows sides again.
    mixed = tmp_path / "mixed.html"
    priffe = list(read(EXAMPLE))
    write_page(mixed, [*pref, *build_replays(priffe)], WORDS["en"])
    page.goto(mixed.as_uri())
    page.select_option("#deal-select", str(len(pref)))
    assert page.is_visible("#counts-sides") and page.is_hidden("#counts-seats")
    assert page.errors == [] and page.dialogs == []


def test_deal_2999_of_a_big_page(page: Any, tmp_path: Path) -> None:
    """3,000 generated deals in one page: picking the 2,999th draws it, and stepping to its
    end gives the validator's tricks per side; the page stays small."""
    from priffe_records.rules.priffe.generate import iter_records

    records = list(iter_records(3000, 0, comments=True))
    out = tmp_path / "big.html"
    write_page(out, build_replays(records), WORDS["en"])
    assert out.stat().st_size < 2_000_000
    page.goto(out.as_uri())
    assert page.locator("#deal-select option").count() == 3000
    page.select_option("#deal-select", "2998")
    rec = records[2998]
    assert f"Board {rec.get('Board')}" in page.text_content("#title")
    play = analyse_record(rec).play
    assert play is not None
    for _ in range(13):
        page.keyboard.press("ArrowRight")
    assert counts(page) == (play.won.ns, play.won.ew)
    assert "Trick 13/13" in page.text_content("#step-label")
    assert page.errors == [] and page.dialogs == []
