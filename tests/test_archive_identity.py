"""The archive never loses a record (schema v8): identity by content, never by path.

A stored deal is replaced only by the same deal at the same table
(:func:`~priffe_records.archive.identity.deal_key`), never by another record of the
same import; a partie is known by its Event, Site, Date, first players and first
hands (:func:`~priffe_records.archive.identity.partie_key`), whatever the file is
called or where it lies. Tournament files are written here by a small script in the
shape of BBO and Bridgewebs output (many boards, each at several tables, records of
two parties interleaved); every archive is compared table by table with a fresh
import of the final file.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from archive_support import (
    consistent,
    count,
    distinct_texts,
    natural_tables,
    partie_file,
    run,
)
from conftest import CORPUS_FILES, EXAMPLE_FILES, EXAMPLES, FIXTURE_FILES
from test_archive_jobs import pieces  # noqa: F401  (a fixture)
from test_archive_truth import fresh, stats

from priffe_records import read, write
from priffe_records.archive import schema
from priffe_records.archive.identity import deal_key, partie_key
from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import open_archive
from priffe_records.format.errors import BadRecord
from priffe_records.format.reader import loads

RANKS = "AKQJT98765432"


def _deal(rng: random.Random) -> str:
    """A random PBN Deal value, North first."""
    cards = [(s, r) for s in range(4) for r in range(13)]
    rng.shuffle(cards)
    hands = []
    for h in range(4):
        mine = cards[h * 13:(h + 1) * 13]
        hands.append(".".join("".join(RANKS[r] for s2, r in sorted(mine) if s2 == s)
                              for s in range(4)))
    return "N:" + " ".join(hands)


def _record(tags: list[tuple[str, str]]) -> str:
    return "\n".join(f'[{tag} "{value}"]' for tag, value in tags)


def bbo_teams(seed: int, boards: int = 12, event: str = "#4711{match} Teams") -> str:
    """Two team matches in one file, in the shape of BBO's "Download PBN" of a session:
    Event ``#<id> Teams``, Site ``BBO``, the players' BBO handles, Room Open/Closed,
    Scoring IMP; every board at two tables. Written room by room, match by match, so the
    records of one match are interleaved with the other's. (An Event starting with ``#``
    may inherit, PBN §4.8: such a file is never cut for ``--jobs``.)"""
    rng = random.Random(seed)
    hands = [_deal(rng) for _ in range(boards)]
    out = []
    for room in ("Open", "Closed"):
        for match in (1, 2):
            names = [f"m{match}{room[0].lower()}{seat}_{seed}" for seat in "nesw"]
            for b in range(boards):
                out.append(_record([
                    ("Event", event.format(match=match)), ("Site", "BBO"), ("Date", "2026.11.29"),
                    ("Board", str(b + 1)), ("West", names[3]), ("North", names[0]),
                    ("East", names[1]), ("South", names[2]), ("Dealer", "NESW"[b % 4]),
                    ("Vulnerable", "None"), ("Deal", hands[b]), ("Scoring", "IMP"),
                    ("Declarer", "NESW"[rng.randrange(4)]),
                    ("Contract", f"{rng.randrange(1, 8)}{rng.choice('CDHSN')}"),
                    ("Result", str(rng.randrange(14))), ("Room", room)]))
    return "\n\n".join(out) + "\n"


def bridgewebs_pairs(seed: int, tables: int = 5, boards: int = 8, *, sections: str = "AB",
                     by_table: bool = True) -> str:
    """A pairs evening, in the shape of a Bridgewebs PBN download: Event ``Tuesday Pairs``
    with the section in Site, a Table tag, EW pairs moving each round; every board at
    every table of a section. Written by scorecard (table by table, the sections
    interleaved) or, ``by_table=False``, by traveller (board by board, every table)."""
    rng = random.Random(seed)
    hands = [_deal(rng) for _ in range(boards)]
    out = []
    order = ([(t, sec, b) for t in range(1, tables + 1) for sec in sections
              for b in range(boards)] if by_table else
             [(t, sec, b) for sec in sections for b in range(boards)
              for t in range(1, tables + 1)])
    for table, section, b in order:
        ew = (table + b) % tables + 1
        out.append(_record([
            ("Event", "Tuesday Pairs"), ("Site", f"Brackley BC {section}"),
            ("Date", "2026.11.24"), ("Board", str(b + 1)),
            ("West", f"{section}W{ew}"), ("North", f"{section}N{table}"),
            ("East", f"{section}E{ew}"), ("South", f"{section}S{table}"),
            ("Dealer", "NESW"[b % 4]), ("Deal", hands[b]),
            ("Declarer", "NESW"[rng.randrange(4)]),
            ("Contract", f"{rng.randrange(1, 8)}{rng.choice('CDHSN')}"),
            ("Result", str(rng.randrange(14))), ("Table", str(table))]))
    return "\n\n".join(out) + "\n"


def _distinct(path: Path) -> tuple[int, int]:
    """Records the reader yields, and how many distinct texts they are."""
    records = list(read(path, errors="collect"))
    return len(records), distinct_texts(records)


# ---------------------------------------------------------------- the keys


def test_deal_key_is_the_board_at_its_table() -> None:
    a, b, c, d, e = loads(
        '[Event "x"]\n[Board "1"]\n[Room "Open"]\n[North "Anna"]\n[Score "NS 0 EW 40"]\n\n'
        '[Event "x"]\n[Board "1"]\n[Room "Closed"]\n[North "Anna"]\n\n'
        '[Event "x"]\n[Board "1"]\n[Room "Open"]\n[North "Anna"]\n[Score "NS 0 EW 60"]\n\n'
        '[Event "x"]\n[Board "1"]\n[Room "Open"]\n[North "Bo"]\n\n'
        '[Event "x"]\n[Room "Open"]\n[North "Anna"]\n')
    assert deal_key(a) == deal_key(c)  # a correction of the score: the same deal
    assert deal_key(a) != deal_key(b)  # the other room
    assert deal_key(a) != deal_key(d)  # another player at the table
    assert deal_key(e) is None  # no Board: no place, never a correction
    [bad] = loads('[Event "x" x\n[Board "1"]\n', errors="collect")
    assert isinstance(bad, BadRecord) and deal_key(bad) is None
    [t1, t2] = loads('[Board "2"]\n[Table "1"]\n\n[Board "2"]\n[Table "2"]\n')
    assert deal_key(t1) != deal_key(t2)


def test_partie_key_is_content_not_path() -> None:
    text = (EXAMPLES / "partie-uppsala.ppn").read_text("utf-8")
    first = next(read(EXAMPLES / "partie-uppsala.ppn"))
    [crlf] = loads(text.replace("\n", "\r\n").split("\r\n\r\n")[0], name="annan/kopia.ppn")
    assert partie_key(crlf) == partie_key(first)
    assert partie_key(first.replace_tag("Score", "NS 0 EW 0")) == partie_key(first)
    assert partie_key(first.replace_tag("North", "Någon")) != partie_key(first)
    other = first.replace_tag("Deal", "N:AKQJT98765432... .AKQJT98765432.. "
                                      "..AKQJT98765432. ...AKQJT98765432")
    assert partie_key(other) != partie_key(first)  # another evening: other first hands
    [nobody] = loads('[Event "x"]\n[Site "y"]\n[Date "2026.01.01"]\n[Board "1"]\n')
    assert partie_key(nobody).who == ""


# ---------------------------------------------------------------- tournaments


SHAPES = {"bbo": bbo_teams, "bridgewebs": bridgewebs_pairs}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_tournament_file_keeps_every_table(tmp_path: Path, shape: str) -> None:
    path = tmp_path / f"{shape}.pbn"
    path.write_text(SHAPES[shape](3), "utf-8")
    n, distinct = _distinct(path)
    assert n == distinct and n >= 48
    db = tmp_path / "a.db"
    res = run("import", str(path), "--db", str(db))
    assert res.exit_code == 0 and f"{n} records: {n} new, 0 duplicates" in res.stdout, res.stdout
    assert count(db) == n and count(db, "deal_history") == 0
    assert "updated" not in res.stdout
    # Every record comes back out.
    out = tmp_path / "out.pbn"
    assert run("export", "--db", str(db), "-o", str(out)).exit_code == 0
    assert len(list(read(out))) == n
    # Again, and again under another name: nothing new, nothing replaced.
    assert f"0 new, {n} duplicates" in run("import", str(path), "--db", str(db)).stdout
    copy = tmp_path / "annan" / "kopia.pbn"
    copy.parent.mkdir()
    copy.write_bytes(path.read_bytes())
    assert f"0 new, {n} duplicates" in run("import", str(copy), "--db", str(db)).stdout
    consistent(db)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_corrected_tournament_record_replaces_only_its_own_table(tmp_path: Path,
                                                                  shape: str) -> None:
    text = SHAPES[shape](5)
    path = tmp_path / "turnering.pbn"
    path.write_text(text, "utf-8")
    db = tmp_path / "a.db"
    run("import", str(path), "--db", str(db))
    n = count(db)
    # The 30th record's result corrected, in a copy with another name in another folder.
    records = text.split("\n\n")
    records[29] = records[29].replace('[Result "', '[Result "1', 1)
    copy = tmp_path / "rättat" / "turnering-rättad.pbn"
    copy.parent.mkdir()
    copy.write_text("\n\n".join(records), "utf-8")
    res = run("import", str(copy), "--db", str(db))
    assert f"0 new, 1 updated, {n - 1} duplicates" in res.stdout, res.stdout
    line = list(read(copy))[29].location.line
    assert f"{copy}:{line}: replaces deal 30, stored from {path}:{line}" in res.stdout
    with sqlite3.connect(db) as conn:
        history = conn.execute("SELECT deal_id, source, line, changed_by, changed_line "
                               "FROM deal_history").fetchall()
    conn.close()
    assert history == [(30, str(path), line, str(copy), line)]
    assert count(db) == n
    assert natural_tables(db) == natural_tables(fresh(tmp_path, copy))


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.slow  # worker processes
def test_jobs_store_a_tournament_as_one_process_does(tmp_path: Path, shape: str,
                                                     pieces: list[int]) -> None:  # noqa: F811
    path = tmp_path / "t.pbn"
    path.write_text(bbo_teams(7, boards=40, event="BBO match {match}") if shape == "bbo"
                    else bridgewebs_pairs(7, tables=12), "utf-8")
    n, _ = _distinct(path)
    tables = []
    for jobs in (1, 2):
        db = open_archive(tmp_path / f"{jobs}.db")
        s = import_file(db, path, jobs=jobs)
        db.close()
        assert (s.records, s.new, s.updated) == (n, n, 0)
        tables.append(natural_tables(tmp_path / f"{jobs}.db"))
    assert tables[0] == tables[1]
    assert pieces[-1] > 1


def test_a_typo_in_one_event_loses_nothing(tmp_path: Path) -> None:
    """A pairs file written board by board (every table of board 1, then of board 2, …):
    one record's Site misspelt splits its run, and the records after it, board 1 at the
    other tables, are no corrections of those before it. A Priffe partie likewise."""
    text = bridgewebs_pairs(4, tables=6, boards=4, sections="A", by_table=False)
    path = tmp_path / "travellers.pbn"
    path.write_text(text.replace("Brackley BC A", "Brackley BC Ä", 2).replace(
        "Brackley BC Ä", "Brackley BC A", 1), "utf-8")
    assert len({r.get("Site") for r in read(path)}) == 2
    records = list(read(partie_file(tmp_path / "gen.ppn", 6, rubbers=2)))
    k = len(records) // 2
    records[k] = records[k].replace_tag("Event", "Torsdagspriffr")
    priffe = tmp_path / "kväll.ppn"
    write(records, priffe)
    for file in (path, priffe):
        n = len(list(read(file)))
        db = tmp_path / f"{file.stem}.db"
        res = run("import", str(file), "--db", str(db))
        assert f"{n} new" in res.stdout and "updated" not in res.stdout, res.stdout
        assert count(db) == n


def test_two_records_of_one_import_never_replace_each_other(tmp_path: Path) -> None:
    """The first deal twice in one file, the second time opening a later run of its
    partie (the same key: players and hands): both kept, on a first import and when the
    file corrects a third record later."""
    records = list(read(partie_file(tmp_path / "gen.ppn", 8, rubbers=1)))
    twin = records[0].replace_tag("Result", "NS 0 EW 13")
    assert partie_key(twin) == partie_key(records[0])
    other = records[0].replace_tag("Event", "Annat")
    path = tmp_path / "kväll.ppn"
    write([*records, other, twin], path)
    db = tmp_path / "a.db"
    res = run("import", str(path), "--db", str(db))
    assert f"{len(records) + 2} new" in res.stdout and count(db) == len(records) + 2
    fixed = records[2].replace_tag("Result", "NS 1 EW 12")
    write([*records[:2], fixed, *records[3:], other, twin], path)
    res = run("import", str(path), "--db", str(db))
    assert "1 updated" in res.stdout and count(db) == len(records) + 2


def test_a_record_met_earlier_in_the_import_is_not_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-import of a file with two runs of one partie: a new record of the second run at
    the place of a record the first run gives unchanged is another record of the same
    import, kept beside it, as a fresh import of the file keeps both; also when the first
    run is recognised by its raw texts and counted unparsed."""
    from priffe_records.archive import store

    records = list(read(partie_file(tmp_path / "gen.ppn", 9, rubbers=1)))
    other = records[0].replace_tag("Event", "Annat")
    twin = records[0].replace_tag("Result", "NS 0 EW 13")
    variant = records[1].replace_tag("Result", "NS 0 EW 13")
    path = tmp_path / "kväll.ppn"
    for lookup in (True, False):
        with monkeypatch.context() as m:
            if not lookup:
                m.setattr(store.Store, "known", lambda self, raws: {})
            db = tmp_path / f"{lookup}.db"
            (tmp_path / str(lookup)).mkdir()
            write([*records, other, twin], path)
            run("import", str(path), "--db", str(db))
            write([*records, other, twin, variant], path)
            res = run("import", str(path), "--db", str(db))
            assert "updated" not in res.stdout and "1 new" in res.stdout, res.stdout
            assert count(db) == len(records) + 3
            assert natural_tables(db) == natural_tables(fresh(tmp_path / str(lookup), path))


# ---------------------------------------------------------------- copies of a partie


def _copies(tmp: Path, original: Path) -> dict[str, tuple[Path, str]]:
    """Each way a partie's file comes back: (path, its text)."""
    text = original.read_text("utf-8")
    corrected = text.replace('[Result "', '[Result "1', 1)
    assert corrected != text
    return {
        "renamed": (tmp / "kväll-kopia.ppn", text),
        "moved": (tmp / "klubben" / "2026" / original.name, text),
        "corrected under a new name": (tmp / "kväll-rättad.ppn", corrected),
        "e-mailed": (tmp / "Inkorg" / "Bilaga 1.PPN", text.replace("\n", "\r\n")),
        "e-mailed, corrected": (tmp / "Inkorg" / "svar.pbn", corrected.replace("\n", "\r\n")),
    }


@pytest.mark.parametrize("case", ["renamed", "moved", "corrected under a new name",
                                  "e-mailed", "e-mailed, corrected"])
def test_a_copy_of_a_partie_is_the_same_partie(tmp_path: Path, case: str) -> None:
    original = partie_file(tmp_path / "kväll.ppn", 11, rubbers=3)
    n = len(list(read(original)))
    path, text = _copies(tmp_path, original)[case]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    db = tmp_path / "a.db"
    run("import", str(original), "--db", str(db))
    res = run("import", str(path), "--db", str(db))
    corrected = "corrected" in case
    assert (f"0 new, 1 updated, {n - 1} duplicates" if corrected
            else f"0 new, {n} duplicates") in res.stdout, res.stdout
    again = fresh(tmp_path, path)
    assert count(db) == count(again) == n
    assert natural_tables(db) == natural_tables(again)
    assert stats(db) == stats(again)  # the standings count each rubber once
    with sqlite3.connect(db) as conn:
        sources = conn.execute("SELECT source FROM partie_sources ORDER BY id").fetchall()
    conn.close()
    assert sources == ([(str(original),), (str(path),)] if corrected else [(str(original),)])
    consistent(db)


def test_a_corrected_first_deal_is_the_same_partie(tmp_path: Path) -> None:
    """The first deal's hands corrected (so the partie's key changes) in a copy under
    another name: found by its other texts, the first deal replaced, and the partie then
    known by its corrected first deal, as a fresh import knows it; after the first deal is
    removed, by the deal that is first now."""
    original = partie_file(tmp_path / "kväll.ppn", 16, rubbers=2)
    records = list(read(original))
    fixed = records[0].replace_tag("Deal", str(records[1].get("Deal")))
    assert partie_key(fixed) != partie_key(records[0])
    copy = tmp_path / "rättad" / "kväll.ppn"
    copy.parent.mkdir()
    write([fixed, *records[1:]], copy)
    db = tmp_path / "a.db"
    run("import", str(original), "--db", str(db))
    res = run("import", str(copy), "--db", str(db))
    assert f"0 new, 1 updated, {len(records) - 1} duplicates" in res.stdout, res.stdout
    assert natural_tables(db) == natural_tables(fresh(tmp_path, copy))
    assert run("remove", "--db", str(db), "--id", "1").exit_code == 0
    rest = tmp_path / "resten" / "kväll.ppn"
    rest.parent.mkdir()
    write(records[1:], rest)
    # Lines stay those of the file the deals came from: the parties, rubbers and
    # settlements are compared.
    after, again = natural_tables(db), natural_tables(fresh(tmp_path / "resten", rest))
    for table in ("parties", "rubbers", "settlements"):
        assert after[table] == again[table], table


def test_a_dot_prefixed_path_is_the_same_partie(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    partie_file(tmp_path / "a.ppn", 12, rubbers=2)
    monkeypatch.chdir(tmp_path)
    n = len(list(read(Path("a.ppn"))))
    assert f"{n} new" in run("import", "a.ppn", "--db", "x.db").stdout
    res = run("import", "./a.ppn", "--db", "x.db")
    assert f"0 new, {n} duplicates" in res.stdout
    Path("a.ppn").write_text(Path("a.ppn").read_text("utf-8").replace('[Result "', '[Result "1',
                                                                       1), "utf-8")
    assert "0 new, 1 updated" in run("import", "./a.ppn", "--db", "x.db").stdout
    assert count(Path("x.db"), "parties") == 1
    assert natural_tables(Path("x.db")) == natural_tables(fresh(tmp_path, tmp_path / "a.ppn"))


def test_another_evening_with_the_same_key_and_as_new(tmp_path: Path) -> None:
    """Decision (docs/rules-decisions.md): one key is one partie. A file whose first
    record is the stored partie's first record is taken for that partie, and its other
    records for corrections (each listed); ``--as-new`` stores it as a new partie."""
    first = list(read(partie_file(tmp_path / "a.ppn", 13, rubbers=1)))
    second = list(read(partie_file(tmp_path / "b.ppn", 14, rubbers=1)))
    evening = tmp_path / "kväll-2.ppn"
    write([first[0], *second[1:]], evening)
    assert partie_key(first[0]) == partie_key(next(read(evening)))
    same = min(len(first), len(second))
    db = tmp_path / "a.db"
    run("import", str(tmp_path / "a.ppn"), "--db", str(db))
    res = run("import", str(evening), "--db", str(db))
    assert f"{same - 1} updated" in res.stdout
    assert res.stdout.count("replaces deal") == same - 1
    db2 = tmp_path / "b.db"
    run("import", str(tmp_path / "a.ppn"), "--db", str(db2))
    res = run("import", str(evening), "--db", str(db2), "--as-new")
    assert f"{len(second) - 1} new, 1 duplicate" in res.stdout and "updated" not in res.stdout
    assert count(db2, "parties") == 2 and count(db2) == len(first) + len(second) - 1


# ---------------------------------------------------------------- real files


def _real_files() -> list[Path]:
    return EXAMPLE_FILES + FIXTURE_FILES


def _corpus() -> list[Path]:
    return CORPUS_FILES


def _stores_every_record(path: Path, tmp: Path) -> None:
    records = list(read(path, errors="collect"))
    n, distinct = len(records), distinct_texts(records)
    db = open_archive(tmp / "a.db")
    s = import_file(db, path)
    db.close()
    stored = count(tmp / "a.db")
    with sqlite3.connect(tmp / "a.db") as conn:
        unreadable = conn.execute("SELECT count(*) FROM deals WHERE status = 'unreadable'"
                                  ).fetchone()[0]
    conn.close()
    # Readable and unreadable records alike: one deal per distinct text the reader yields
    # (a text the file repeats is stored once, and counted as a duplicate).
    assert stored == distinct, path.name
    assert (s.records, s.new, s.duplicates, s.updated) == (n, distinct, n - distinct, 0)
    assert s.unreadable == unreadable == len({r.text for r in records
                                               if isinstance(r, BadRecord)})


@pytest.mark.parametrize("path", _real_files(), ids=lambda p: p.name[:40])
@pytest.mark.slow  # long: every real file imported
def test_every_real_file_is_stored_whole(tmp_path: Path, path: Path) -> None:
    _stores_every_record(path, tmp_path)


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name[:40])
def test_every_corpus_file_is_stored_whole(tmp_path: Path, path: Path) -> None:
    _stores_every_record(path, tmp_path)


def test_the_corpus_is_there_or_skipped(corpus_dir: Path) -> None:
    assert _corpus(), corpus_dir


# ---------------------------------------------------------------- migration


def test_a_version_7_archive_migrates_to_identities(tmp_path: Path) -> None:
    """A v7 archive (parties by path, deals by rubber/board): version 8 fills the keys
    from the stored texts as an import would, and a copy under another name is then
    recognised."""
    src = tmp_path / "bbo.pbn"
    src.write_text(bbo_teams(9, boards=6), "utf-8")
    kvall = partie_file(tmp_path / "kväll.ppn", 15, rubbers=2)
    path = tmp_path / "old.db"
    run("import", str(src), str(kvall), "--db", str(path))
    want = natural_tables(path)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE partie_sources")
    conn.execute("DROP INDEX idx_parties_identity")
    conn.execute("ALTER TABLE parties DROP COLUMN identity")
    conn.execute("ALTER TABLE deal_history DROP COLUMN changed_line")
    conn.execute("UPDATE deals SET ident = COALESCE(rubber, '') || '/' || board "
                 "WHERE board IS NOT NULL")
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    db = open_archive(path)
    schema.ensure_schema(db)
    assert schema.schema_version(db) == schema.SCHEMA_VERSION == 13  # 12: the families; 13: roles
    assert db.execute("SELECT partie_id, source FROM partie_sources ORDER BY id").fetchall() \
        == db.execute("SELECT id, source FROM parties ORDER BY id").fetchall()
    db.close()
    assert natural_tables(path) == want
    copy = tmp_path / "mejl" / "kväll.ppn"
    copy.parent.mkdir()
    copy.write_text(kvall.read_text("utf-8").replace('[Result "', '[Result "1', 1), "utf-8")
    res = run("import", str(copy), "--db", str(path))
    assert "0 new, 1 updated" in res.stdout, res.stdout
    assert count(path, "parties") == count(tmp_path / "old.db", "parties")
    consistent(path)


def test_a_version_9_archive_counts_contract_rates_per_game(tmp_path: Path) -> None:
    """Version 10: the ``contract_success`` view (Datasette's canned query) groups by game,
    as ``priffe stats`` does, so a Préférence contract never adds to a Priffe one."""
    path = tmp_path / "old.db"
    run("import", str(EXAMPLES / "partie-uppsala.ppn"), str(EXAMPLES / "preference-graz.ppn"),
        "--db", str(path))
    conn = sqlite3.connect(path)
    conn.execute("DROP VIEW contract_success")
    conn.execute("CREATE VIEW contract_success AS SELECT contract, count(*) AS deals "
                 "FROM deals WHERE contract IS NOT NULL GROUP BY contract")  # as v9 had it
    conn.execute("PRAGMA user_version = 9")
    conn.commit()
    conn.close()
    db = open_archive(path)
    schema.ensure_schema(db)
    rows = db.execute("SELECT game, contract, deals FROM contract_success").fetchall()
    per_game = db.execute("SELECT game, contract, count(*) FROM deals WHERE contract IS NOT "
                          "NULL GROUP BY game, contract").fetchall()
    db.close()
    assert sorted(rows) == sorted(per_game)
    assert {game for game, _, _ in rows} == {"Priffe", "Preference"}


def test_a_version_12_archive_knows_a_declarer_in_a_game_without_sides(tmp_path: Path) -> None:
    """Version 13: a seat's role comes from the deal's declarer, whatever the game. Before,
    ``player_deals`` called every Préférence seat 'forced' (no declaring side), so the
    views counted no Préférence declarer and shared code named the game to mend it."""
    path = tmp_path / "old.db"
    run("import", str(EXAMPLES / "partie-uppsala.ppn"), str(EXAMPLES / "preference-graz.ppn"),
        "--db", str(path))
    conn = sqlite3.connect(path)
    for name in ("player_deals", "contract_success"):  # the views as version 12 had them
        conn.execute(f"DROP VIEW {name}")
    conn.execute(f"CREATE VIEW player_deals AS {schema.VIEWS_V1['player_deals']}")
    conn.execute(f"CREATE VIEW contract_success AS {schema.CONTRACT_SUCCESS_V10}")
    conn.execute("PRAGMA user_version = 12")
    conn.commit()
    conn.close()
    db = open_archive(path)
    schema.ensure_schema(db)
    roles = db.execute("SELECT d.game, pd.role, count(*) FROM player_deals pd "
                       "JOIN deals d ON d.id = pd.deal_id GROUP BY 1, 2").fetchall()
    declared = dict(db.execute("SELECT game, count(*) FROM deals "
                               "WHERE COALESCE(declarer, '') <> '' GROUP BY game").fetchall())
    forced = db.execute("SELECT count(*) FROM deals WHERE COALESCE(declarer, '') = ''"
                        ).fetchone()[0]
    rates = dict(db.execute("SELECT game, sum(declared) FROM contract_success GROUP BY game"
                            ).fetchall())
    results = db.execute("SELECT sum(declared) FROM player_results").fetchone()[0]
    db.close()
    by = {(game, role): n for game, role, n in roles}
    assert by[("Preference", "declarer")] == declared["Preference"] > 0
    assert by[("Preference", "defender")] == 2 * declared["Preference"]  # three players
    assert ("Preference", "forced") not in by
    assert by[("Priffe", "forced")] == 4 * forced > 0  # Passnoll, Tvångsnoll
    assert rates == declared
    assert results == sum(declared.values())
