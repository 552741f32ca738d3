"""priffe score --html: the printable score sheet, checked as text and printed by a real browser.

The browser part prints the page to PDF with headless Chromium (driven by
Playwright, as tests/test_replay_browser.py does; it skips when either is
missing) and counts the PDF's pages: a 30-deal evening is one A4 page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from conftest import DATA
from test_replay_browser import browser  # noqa: F401 - the shared Chromium fixture

from priffe_records.cli import cli
from priffe_records.format.writer import dumps
from priffe_records.rules.priffe.generate import iter_records

HAND = DATA / "evening-hand.ppn"
A4 = (595, 842)  # points, rounded


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def thirty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 30-deal evening: one partie, several rubbers, honours and slams, from the generator."""
    path = tmp_path_factory.mktemp("evening") / "trettio.ppn"
    path.write_text(dumps(iter_records(30, 7, one_partie=True)), encoding="utf-8")
    return path


def page_of(ppn: Path, tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "sheet.html"
    res = invoke("score", *args, str(ppn), "--html", str(out))
    assert res.exit_code in (0, 1), res.output
    return out


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("Board", "end of rubber 1", "Standings", "NS win", "26 Nov 2026")),
    ("sv", ("Giv", "robbert 1 slut", "Ställning", "NS vinner", "26 nov. 2026"))])
def test_page_has_the_sheet_in_each_language(tmp_path: Path, lang: str,
                                             words: tuple[str, ...]) -> None:
    text = page_of(HAND, tmp_path, "--lang", lang).read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in text
    for word in words:
        assert word in text
    assert "Klubbkväll · Uppsala" in text and "2026.11.26" not in text  # club; date in words
    assert "Anna +10" in text  # a rubber's settlement
    assert "@page { size: A4;" in text
    assert "<script" not in text and "http" not in text  # self-contained: nothing fetched


def test_page_escapes_what_the_file_says(tmp_path: Path) -> None:
    evil = tmp_path / "evil.ppn"
    evil.write_text(HAND.read_text(encoding="utf-8").replace("Klubbkväll", "<script>x</script>"),
                    encoding="utf-8")
    text = page_of(evil, tmp_path).read_text(encoding="utf-8")
    assert "<script>x" not in text and "&lt;script&gt;x" in text


def test_score_html_to_stdout_prints_no_terminal_sheet() -> None:
    res = invoke("score", str(HAND), "--html", "-")
    assert res.exit_code == 0
    assert res.stdout.startswith("<!DOCTYPE html>") and "┃" not in res.stdout


def pages(pdf: bytes) -> list[tuple[int, int]]:
    """Each page's size in points, from the PDF's page objects."""
    count = len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    assert len(boxes) >= count
    return [(round(float(w)), round(float(h))) for w, h in boxes[:count]]


@pytest.fixture
def printed(browser: Any) -> Iterator[Any]:  # noqa: F811 - the imported fixture
    pg = browser.new_page()
    pg.requests = []
    pg.on("request", lambda r: pg.requests.append(r.url))

    def to_pdf(html_file: Path) -> list[tuple[int, int]]:
        pg.requests.clear()
        pg.goto(html_file.as_uri())
        shown = pages(pg.pdf(prefer_css_page_size=True, print_background=False))
        assert pg.requests == [html_file.as_uri()]  # nothing fetched from anywhere
        return shown

    yield to_pdf
    pg.close()


@pytest.mark.slow  # a real browser
@pytest.mark.parametrize("lang", ["en", "sv"])
def test_thirty_deals_print_on_one_a4_page(printed: Any, thirty: Path, tmp_path: Path,
                                          lang: str) -> None:
    assert printed(page_of(thirty, tmp_path, "--lang", lang)) == [A4]


@pytest.mark.slow  # a real browser
def test_each_partie_starts_its_own_page(printed: Any, tmp_path: Path) -> None:
    """Two short evenings (a page would hold both) still print on a page each."""
    text = HAND.read_text(encoding="utf-8")
    two = tmp_path / "two.ppn"
    two.write_text(text + "\n" + text.split("\n", 2)[2].replace("2026.11.26", "2026.12.03"),
                   encoding="utf-8")
    assert printed(page_of(two, tmp_path)) == [A4, A4]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("Payments", "Balances", "Pot at the end: 50", "no play", "4 Feb 1911")),
    ("sv", ("Betalningar", "Saldon", "Potten vid slutet: 50", "inget spel", "4 feb. 1911"))])
def test_a_preference_partie_is_on_the_page(tmp_path: Path, lang: str,
                                            words: tuple[str, ...]) -> None:
    text = page_of(DATA / "preference-graz.ppn", tmp_path, "--lang", lang).read_text("utf-8")
    for word in words:
        assert word in text
    assert "Préférence i Graz · Graz" in text and "1911.02.04" not in text
    east = "E" if lang == "en" else "Ö"  # the seat letter a reader of the language writes
    assert f"N +1 {east} -20 S -11" in text  # the first deal's payments, as the terminal shows


def test_priffe_and_preference_parties_print_a_page_each(printed: Any, tmp_path: Path) -> None:
    both = tmp_path / "both.ppn"
    graz = (DATA / "preference-graz.ppn").read_text(encoding="utf-8")
    both.write_text(HAND.read_text(encoding="utf-8") + "\n" + graz.split("\n", 2)[2],
                    encoding="utf-8")
    page = page_of(both, tmp_path)
    text = page.read_text(encoding="utf-8")
    assert text.index("Klubbkväll · Uppsala") < text.index("Préférence i Graz")  # file order
    assert printed(page) == [A4, A4]
