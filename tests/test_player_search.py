"""A part of a player's name finds the player, whatever its case, in every language, and
the same way in ``priffe query``/``stats`` and in the browser (issue 29, item 5).

SQLite's ``lower()`` and ``LIKE`` fold ASCII only: ``Örjan`` and ``örjan lå`` found no
deals, and the web's "Deals of a player" neither.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from archive_support import by_table, partie_file, run, run_async

from priffe_records.archive.players import best_matches

PEOPLE = ("Örjan Lå", "Anna", "Anna-Lisa Öst", "Johanna Berg")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("players")
    partie_file(folder / "kväll.ppn", 3, players=PEOPLE)
    db = folder / "klubb.db"
    res = run("import", "--db", str(db), str(folder / "kväll.ppn"))
    assert res.exit_code == 0, res.stdout
    return db


def _ids(archive: Path, *args: str) -> list[int]:
    res = run("query", "--db", str(archive), "--json", *args)
    assert res.exit_code == 0, res.stderr
    return [row["id"] for row in json.loads(res.stdout)]


def _everyone(archive: Path) -> list[int]:
    return _ids(archive)


@pytest.mark.parametrize("part", ["Örjan", "örjan lå", "ÖRJAN LÅ", "lå", "örj"])
def test_a_part_of_a_name_in_any_case_finds_the_player(archive: Path, part: str) -> None:
    full = _ids(archive, "--player", "Örjan Lå")
    assert full == _everyone(archive) and full, "Örjan Lå plays every deal of the partie"
    res = run("query", "--db", str(archive), "--json", "--player", part, "--lang", "sv")
    assert [r["id"] for r in json.loads(res.stdout)] == full
    assert "menade du" not in res.stderr and "ingen spelare" not in res.stderr


def test_the_whole_name_wins_over_longer_names_that_hold_it() -> None:
    people = [(1, "anna"), (2, "anna-lisa öst"), (3, "johanna berg"), (4, "örjan lå")]
    assert [p for p, _ in best_matches(people, "Anna")] == [1]
    assert [p for p, _ in best_matches(people, "lisa")] == [2], "a word's start"
    assert [p for p, _ in best_matches(people, "NNA")] == [1, 2, 3], "anywhere: several"
    assert best_matches(people, "  ") == [] and best_matches(people, "Bertil") == []


def test_an_ambiguous_part_lists_the_players_it_could_be(archive: Path) -> None:
    res = run("query", "--db", str(archive), "--player", "nna", "--lang", "sv")
    assert res.exit_code == 2
    assert ("'nna' finns i flera spelares namn: Anna, Anna-Lisa Öst och Johanna Berg — "
            "skriv mer av namnet") in res.stderr
    res = run("query", "--db", str(archive), "--player", "Anna", "--partner", "ann",
              "--lang", "en")
    assert res.exit_code == 2 and "'ann' is part of several players' names" in res.stderr


def test_stats_and_partner_take_a_part_of_a_name_too(archive: Path) -> None:
    res = run("stats", "--db", str(archive), "--player", "johanna", "--json")
    assert res.exit_code == 0, res.stderr
    assert [r["player"] for r in by_table(res.stdout)["players"]] == ["Johanna Berg"]
    assert _ids(archive, "--player", "örjan", "--partner", "lisa") == _everyone(archive)


def test_an_unknown_name_still_says_the_nearest(archive: Path) -> None:
    res = run("query", "--db", str(archive), "--json", "--player", "Örjan Lo", "--lang", "sv")
    assert res.exit_code == 0 and json.loads(res.stdout) == []
    assert "ingen spelare 'Örjan Lo' i arkivet — menade du 'Örjan Lå'?" in res.stderr


def _web(archive: Path) -> Any:
    pytest.importorskip("datasette", reason="Datasette (the serve extra) is not installed")
    from priffe_records.cli.serve import build

    ds = build(str(archive), "sv")
    return lambda path: run_async(ds.client.get(path))


@pytest.mark.parametrize("part", ["%C3%96rjan", "%C3%B6rjan+l%C3%A5"])  # Örjan, örjan lå
def test_the_web_query_finds_a_part_of_a_name_and_links_its_deals(archive: Path,
                                                                  part: str) -> None:
    get = _web(archive)
    rows = get(f"/klubb/deals_of_player.json?player={part}&_shape=array").json()
    assert [r["deal_id"] for r in rows] == _everyone(archive)
    assert {r["player"] for r in rows} == {"Örjan Lå"}
    page = get(f"/klubb/deals_of_player?player={part}").text
    assert 'href="/klubb/deals/1/replay"' in page and 'href="/klubb/deals/1/page"' in page


def test_the_web_finds_one_player_lists_several_and_links_search_hits(archive: Path) -> None:
    get = _web(archive)
    one = get("/klubb/players/find?name=%C3%B6RJAN")  # öRJAN
    assert one.status_code == 302 and one.headers["location"].endswith("/page")
    several = get("/klubb/players/find?name=nna").text
    assert "finns i flera spelares namn" in several
    assert several.count('/page">') == 3
    hits = get("/klubb/search?words=Johanna").text
    assert 'href="/klubb/deals/1/replay"' in hits
