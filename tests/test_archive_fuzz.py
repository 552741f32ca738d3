"""Byte-level fuzz of ``priffe import`` (issue 11): no exception escapes, nothing is lost.

Real files are mutated the way files get damaged (a flipped bit, a stray
``{ " [ %``, NUL, invalid UTF-8, a line deleted or repeated, one very long
line) and imported, every version under the same name into one archive, so
the correction and recomputation paths run too. After each import the
summary accounts for every record the reader saw; at the end the database
passes SQLite's integrity, foreign-key and FTS checks and no rubber is
settled twice. ``HYPOTHESIS_PROFILE=deep`` runs many more cases.
"""

from __future__ import annotations

import io
import random
import sqlite3
from pathlib import Path

import pytest
from archive_support import distinct_texts
from conftest import CORPUS_FILES, DEEP, EXAMPLE_FILES, EXAMPLES, FIXTURE_FILES

from priffe_records import read
from priffe_records.archive.importing import import_file
from priffe_records.archive.schema import open_archive

pytestmark = pytest.mark.slow  # fuzz: hundreds of imports
LONG = DEEP
CASES = 2000 if LONG else 120
LONG_LINE = 20_000  # in the random cases; one case below has a longer one
INSERTS = [b"{", b"}", b'"', b"[", b"]", b"%", b"\x00", b"\xff", b"\xc3", b"\xe2\x82",
           b"#", b"\n", b"\n\n"]
NUMBER_TAGS = (b"[Rubber ", b"[Board ", b"[Result ", b"[Score ", b"[Honours ",
               b"[ScoreRubber ", b"[Settlement ")
# Values real files hold where a number belongs.
WILD = [b"\xc2\xb2", b"99999999999999999999", b"14", b"999999", b"-3", b"", b"NS 14 EW -1",
        b"N 99999999999999999999;S 1;E 1;W 1"]


def sources() -> list[Path]:
    return EXAMPLE_FILES + FIXTURE_FILES + CORPUS_FILES


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One damage of the kinds real files show."""
    if not data:
        return rng.choice(INSERTS)
    kind = rng.randrange(7)
    at = rng.randrange(len(data))
    if kind == 0:  # a flipped bit
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
    if kind == 1:  # a stray character or an invalid byte
        return data[:at] + rng.choice(INSERTS) + data[at:]
    lines = data.split(b"\n")
    n = rng.randrange(len(lines))
    if kind == 2:  # a line deleted
        return b"\n".join(lines[:n] + lines[n + 1:])
    if kind == 3:  # a line repeated
        return b"\n".join(lines[:n + 1] + lines[n:])
    if kind == 4:  # a very long line of cards
        return b"\n".join([*lines[:n], b"SA " * (LONG_LINE // 3), *lines[n:]])
    if kind == 5:  # a tag value from the wild
        tags = [i for i, line in enumerate(lines) if line.startswith(NUMBER_TAGS)]
        if tags:
            i = rng.choice(tags)
            lines[i] = lines[i].split(b' "', 1)[0] + b' "' + rng.choice(WILD) + b'"]'
            return b"\n".join(lines)
    return data[:at]  # cut short (a copy that did not finish)


def test_import_survives_byte_level_damage(tmp_path: Path) -> None:
    files = sources()
    rng = random.Random(11)
    db = open_archive(tmp_path / "fuzz.db")
    try:
        for case in range(CASES):
            source = files[case % len(files)]
            data = source.read_bytes()
            for _ in range(1 + rng.randrange(3)):
                data = mutate(data, rng)
            read_back = list(read(io.BytesIO(data), errors="collect", name=source.name))
            s = import_file(db, io.BytesIO(data), name=source.name,
                            reject_invalid=case % 7 == 0)
            # Every record the reader saw is accounted for, none twice.
            assert s.records == len(read_back), (case, source.name)
            assert s.new + s.updated + s.duplicates + s.rejected == s.records, (case, s)
    finally:
        db.close()
    conn = sqlite3.connect(tmp_path / "fuzz.db")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        conn.execute("INSERT INTO deals_fts(deals_fts) VALUES ('integrity-check')")
        assert conn.execute("SELECT count(*) FROM deals_fts").fetchone() == \
            conn.execute("SELECT count(*) FROM deals").fetchone()
        # No rubber settled twice: one row per seat, at most four per rubber.
        assert conn.execute("SELECT max(n) FROM (SELECT count(*) AS n FROM settlements "
                            "GROUP BY rubber_id)").fetchone()[0] in (None, 1, 2, 3, 4)
        # Every rubber row belongs to a deal of its partie (recomputed, none left over).
        assert conn.execute("SELECT count(*) FROM rubbers r WHERE NOT EXISTS (SELECT 1 FROM "
                            "deals d WHERE d.rubber_id = r.id)").fetchone()[0] == 0
    finally:
        conn.close()


def test_a_fresh_import_of_a_damaged_file_stores_every_record(tmp_path: Path) -> None:
    """Damage in one record never costs another (schema v8): a fresh import stores every
    distinct text the reader yields and replaces nothing, whatever the damage did to the
    parties (a misspelt Event splits one in runs; a repeated line makes two records).
    Besides the sources, a pairs file written board by board (each board at six tables),
    where a split run used to take the next tables' records for corrections."""
    from test_archive_identity import bridgewebs_pairs

    travellers = tmp_path / "travellers.pbn"
    travellers.write_text(bridgewebs_pairs(2, tables=6, boards=3, sections="A",
                                           by_table=False), "utf-8")
    files = [travellers, *sources()]
    rng = random.Random(12)
    for case in range(CASES // 2):
        source = files[case % len(files)] if case % 2 else travellers
        data = source.read_bytes()
        for _ in range(1 + rng.randrange(3)):
            data = mutate(data, rng)
        records = list(read(io.BytesIO(data), errors="collect", name=source.name))
        db = open_archive(":memory:")
        try:
            s = import_file(db, io.BytesIO(data), name=source.name)
            stored = db.execute("SELECT count(*) FROM deals").fetchone()[0]
        finally:
            db.close()
        assert s.updated == 0 and stored == s.new == distinct_texts(records), (case, s)


def test_import_of_a_file_with_one_very_long_line(tmp_path: Path) -> None:
    """A megabyte of cards on one line (long mode; 100 KB in CI): flagged, nothing lost."""
    size = 1_000_000 if LONG else 100_000
    lines = (EXAMPLES / "partie-uppsala.ppn").read_bytes().split(b"\n")
    data = b"\n".join([*lines[:30], b"SA " * (size // 3), *lines[30:]])
    db = open_archive(tmp_path / "a.db")
    try:
        s = import_file(db, io.BytesIO(data), name="long.ppn")
    finally:
        db.close()
    assert s.records == len(list(read(io.BytesIO(data), errors="collect")))
    assert s.new == s.records and s.with_errors >= 1  # that record, flagged, not lost


@pytest.mark.parametrize("seed", range(3))
def test_cli_import_of_damaged_files_never_shows_a_traceback(tmp_path: Path,
                                                             seed: int) -> None:
    from archive_support import run

    rng = random.Random(seed)
    paths = []
    for i, source in enumerate(sources()[:4]):
        path = tmp_path / f"{i}-{source.name}"
        path.write_bytes(mutate(mutate(source.read_bytes(), rng), rng))
        paths.append(str(path))
    res = run("import", *paths, "--db", str(tmp_path / "a.db"))
    assert res.exit_code == 0, res.output
    assert f"{len(paths)} file" in res.stdout
