"""The secretary's pages of ``priffe serve`` (the plugin's own templates): home, an evening,
a deal and a player, in her language, through Datasette's test client (issue 29, item 4).

Before, the home page was Datasette's ("home", "217 rows in 14 tables", table names) with
no way to an evening's sheet, the sheet showed its title twice and only the first
seating, a deal's replay link sat in the last column and the parties table showed JSON.
The same pages in a real browser: test_serve_browser.py.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from archive_support import imported_archive, run, run_async
from conftest import EXAMPLES

SWEDISH = "sv-SE,sv;q=0.9"
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported_archive(tmp_path_factory.mktemp("pages"), EXAMPLES)


def client(db: Path, lang: str | None = None) -> Any:
    pytest.importorskip("datasette", reason="Datasette (the serve extra) is not installed")
    from priffe_records.cli.serve import build

    ds = build(str(db), lang)

    def get(path: str, accept: str = SWEDISH) -> str:
        res = run_async(ds.client.get(path, headers={"Accept-Language": accept}))
        assert res.status_code == 200, (path, res.text[:300])
        return str(res.text)

    return get


@pytest.fixture(scope="module")
def get(archive: Path) -> Any:
    return client(archive)


def _ids(archive: Path, sql: str) -> list[Any]:
    with sqlite3.connect(archive) as conn:
        rows = [r[0] for r in conn.execute(sql)]
    conn.close()
    return rows


def test_home_lists_every_evening_with_its_sheet_one_click_away(get: Any,
                                                                archive: Path) -> None:
    sv, en = get("/"), get("/", "en-GB")
    for partie in _ids(archive, "SELECT id FROM parties"):
        assert f'href="/klubb/parties/{partie}/sheet"' in sv
    assert "<h1>Priffearkiv</h1>" in sv and "Kvällar" in sv and "Hitta en spelare" in sv
    assert "rows in" not in sv and "tables" not in sv and ">home<" not in sv
    assert "Evenings" in en and "Find a player" in en and "Kvällar" not in en
    anna = _ids(archive, "SELECT id FROM players WHERE name = 'Astrid Lindqvist'")[0]
    assert f'<a href="/klubb/players/{anna}/page">Astrid Lindqvist</a>' in sv


def test_another_database_keeps_datasettes_own_home(tmp_path: Path) -> None:
    plain = tmp_path / "other.db"
    with sqlite3.connect(plain) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    page = client(plain)("/", "en")
    assert "rows in" in page or "1 table" in page
    assert "Evenings" not in page


def test_the_evening_shows_its_title_once_every_seating_and_its_deals(get: Any) -> None:
    page = get("/klubb/parties/1/sheet")
    assert page.count("<h1>") == 1 and page.count("Upsala Priffeklubb, höstpartiet") == 2
    # Uppsala changes places at deals 4 and 8: three seatings, each named.
    assert "från giv 4: Nord: Gunnar Berg · Öst: Astrid Lindqvist" in page
    assert "från giv 8: Nord: Gunnar Berg · Öst: Märta Holm" in page
    deals = [r for r in ROW.findall(page) if "/replay" in r]
    assert len(deals) == 11
    assert all(r.startswith('<td class="replay"><a href="/klubb/deals/') for r in deals)
    assert "<th>giv</th>" in page and "<th>kontrakt</th>" in page and ">felfri<" in page
    assert ">clean<" not in page and "<th>board</th>" not in page
    english = get("/klubb/parties/1/sheet", "en")
    assert "from deal 4: North: Gunnar Berg" in english and "<th>board</th>" in english


def test_a_deal_page_starts_with_its_replay_and_names_its_people(get: Any) -> None:
    page = get("/klubb/deals/5/page")
    content = page[page.index('<section class="content">'):]
    assert content.index("spela upp ▶") < content.index("Gunnar Berg")
    assert "<b>Ö</b> <a href" in content and "<b>V</b> <a href" in content
    assert '<a href="/klubb/parties/1/sheet">protokoll</a>' in content
    assert ">Passnoll<" in content and ">felfri<" in content
    en = get("/klubb/deals/5/page", "en")
    assert "<b>E</b> <a href" in en and ">replay ▶<" in en


def test_a_player_page_lists_her_deals_replay_first(get: Any, archive: Path) -> None:
    pid = _ids(archive, "SELECT id FROM players WHERE name = 'Märta Holm'")[0]
    page = get(f"/klubb/players/{pid}/page")
    assert "<h1>Märta Holm</h1>" in page and "11 givar" in page
    deals = [r for r in ROW.findall(page) if "/replay" in r]
    assert len(deals) == 11 and all(r.startswith('<td class="replay">') for r in deals)
    assert "<th>roll</th>" in page and ">spelförare<" in page and ">declarer<" not in page


def test_datasettes_tables_show_names_and_the_clis_words(get: Any) -> None:
    parties = get("/klubb/parties")
    assert "Astrid Lindqvist, Gunnar Berg, Märta Holm, Sven Ekström" in parties
    assert "[&#34;" not in parties and "&#34;N:" not in parties, "no JSON of the identity"
    deals = get("/klubb/deals?_size=3")
    assert ">felfri<" in deals.replace("\n", "") or "felfri</td>" in deals


def test_lang_fixes_the_pages_language(archive: Path) -> None:
    page = client(archive, "en")("/", SWEDISH)
    assert "Evenings" in page and "Kvällar" not in page


@pytest.mark.parametrize("path", ["/klubb/deals/99999/page", "/klubb/players/99999/page"])
def test_a_missing_deal_or_player_is_a_404(archive: Path, path: str) -> None:
    pytest.importorskip("datasette")
    from priffe_records.cli.serve import build

    res = run_async(build(str(archive)).client.get(path))
    assert res.status_code == 404 and "Traceback" not in res.text


def test_the_search_box_finds_what_query_text_finds_and_links_each_deal(
        get: Any, archive: Path) -> None:
    res = run("query", "--db", str(archive), "--text", "Wahlgren Västerås", "--json")
    want = [row["id"] for row in json.loads(res.stdout)]
    assert want
    assert 'action="/klubb/deals/search"' in get("/")
    page = get("/klubb/deals/search?words=Wahlgren+V%C3%A4ster%C3%A5s")
    hits = [r for r in ROW.findall(page) if "/replay" in r]
    assert [int(re.findall(r"/deals/(\d+)/replay", r)[0]) for r in hits] == want
    assert all(r.startswith('<td class="replay">') for r in hits)
    assert f"{len(want)} givar" in page and "<th>kontrakt</th>" in page
    assert "givar" not in get("/klubb/deals/search?words=")
