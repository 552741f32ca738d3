"""The tokenizer's tables are cached as plain data; a cache that cannot be used is rebuilt.

Valid text is read from the cached tables without Lark (tests/test_startup.py checks
the modules a command loads); here: the tables are written once and read after, a
corrupt or stale file is replaced by tables made afresh, an unwritable folder costs
nothing, and the tokenizer read from the cache reads as the one made from Lark.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from priffe_records.format import parser, scanner
from priffe_records.format.reader import loads
from priffe_records.format.scanner import Tables, cache_path, cached_scanner

TEXT = '[Event "Klubbkväll"]\n[Contract "Hjärter"]\n[Auction "N"]\nPass 1H\n'
GRAMMAR = parser.grammar_text()


class Builds:
    """Makes the tables from Lark and counts how often it was asked to."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> Tables:
        self.count += 1
        return scanner.tables(parser.get_parser())


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    parser._scanner.cache_clear()
    yield monkeypatch
    parser._scanner.cache_clear()


def _items(found: scanner.Scanner) -> list[object]:
    items = found.parse(TEXT)
    assert items is not None
    return [repr(i) for i in items]


def test_the_first_load_writes_the_tables_and_the_next_reads_them(tmp_path: Path) -> None:
    build = Builds()
    first = cached_scanner(GRAMMAR, str(tmp_path), build)
    [cache] = tmp_path.glob("scanner-*.json")
    stamp = cache.stat().st_mtime_ns
    again = cached_scanner(GRAMMAR, str(tmp_path), build)
    assert build.count == 1
    assert cache.stat().st_mtime_ns == stamp  # read, not rewritten
    assert _items(again) == _items(first)
    assert list(tmp_path.iterdir()) == [cache]  # no temporary file left behind


@pytest.mark.parametrize("planted", [b"garbage\n\x00\x01", b'{"patterns": 3}', b"[]",
                                     b'{"newline_types": []}', b""])
def test_a_corrupt_cache_file_is_rebuilt_and_replaced(tmp_path: Path, planted: bytes) -> None:
    path = cache_path(str(tmp_path), GRAMMAR)
    assert path is not None
    Path(path).write_bytes(planted)
    build = Builds()
    found = cached_scanner(GRAMMAR, str(tmp_path), build)
    assert build.count == 1
    assert _items(found) == _items(scanner.scanner(parser.get_parser()))
    assert json.loads(Path(path).read_text("utf-8"))["patterns"]  # replaced by good tables


def test_stale_tables_are_never_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another grammar, another Lark or another derivation names another file."""
    here = cache_path(str(tmp_path), GRAMMAR)
    assert here is not None and "lark" in Path(here).name
    assert cache_path(str(tmp_path), GRAMMAR + "\n") != here
    monkeypatch.setattr(scanner, "lark_version", lambda: "0.0.1")
    assert cache_path(str(tmp_path), GRAMMAR) != here
    monkeypatch.setattr(scanner, "lark_version", lambda: None)
    assert cache_path(str(tmp_path), GRAMMAR) is None


def test_the_lark_version_is_read_without_importing_lark() -> None:
    import lark

    assert scanner.lark_version() == lark.__version__


def test_an_unwritable_cache_folder_falls_back_silently(
        fresh: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    fresh.setenv("XDG_CACHE_HOME", str(blocked))
    assert parser.cache_folder() is None
    assert [r.get("Contract") for r in loads(TEXT)] == ["Hjärter"]
    assert capsys.readouterr() == ("", "")


def test_a_write_that_fails_is_no_error(tmp_path: Path) -> None:
    missing = tmp_path / "gone"
    found = cached_scanner(GRAMMAR, str(missing), Builds())
    assert _items(found) == _items(scanner.scanner(parser.get_parser()))
    assert not missing.exists()


def test_the_reader_uses_the_cache_folder(fresh: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fresh.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = list(loads(TEXT))
    assert len(list((tmp_path / "priffe-records").glob("scanner-*.json"))) == 1
    parser._scanner.cache_clear()
    assert list(loads(TEXT)) == first
