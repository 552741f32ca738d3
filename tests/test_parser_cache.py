"""The parser's tables are cached between runs, and a cache that cannot be used costs nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from priffe_records.format import parser
from priffe_records.format.reader import loads

TEXT = '[Event "Klubbkväll"]\n[Contract "Hjärter"]\n'


@pytest.fixture
def fresh_parser(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    parser._parser.cache_clear()
    parser._scanner.cache_clear()
    yield monkeypatch
    parser._parser.cache_clear()
    parser._scanner.cache_clear()


def test_the_first_build_writes_the_cache_and_the_next_reads_it(
        fresh_parser: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fresh_parser.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = list(loads(TEXT))  # no tokenizer cached: Lark makes its tables
    [cache] = (tmp_path / "priffe-records").glob("ppn-*")
    assert cache.stat().st_size > 1000
    stamp = cache.stat().st_mtime_ns
    parser._parser.cache_clear()
    parser._scanner.cache_clear()
    assert parser.get_parser().parse(TEXT)
    assert list(loads(TEXT)) == first
    assert cache.stat().st_mtime_ns == stamp  # loaded, not rewritten


def test_the_cache_name_changes_with_the_grammar(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar = parser.grammar_text()
    assert parser.cache_file(grammar) != parser.cache_file(grammar + "\n")


def test_an_unwritable_cache_folder_falls_back_silently(
        fresh_parser: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    fresh_parser.setenv("XDG_CACHE_HOME", str(blocked))
    assert parser.cache_file(parser.grammar_text()) is None
    assert [r.get("Contract") for r in loads(TEXT)] == ["Hjärter"]
    assert capsys.readouterr() == ("", "")


def test_a_corrupt_cache_file_is_ignored(fresh_parser: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    fresh_parser.setenv("XDG_CACHE_HOME", str(tmp_path))
    list(loads(TEXT))
    [cache] = (tmp_path / "priffe-records").glob("ppn-*")
    cache.write_bytes(b"garbage\n\x00\x01")
    parser._parser.cache_clear()
    assert parser.get_parser().parse(TEXT)
    assert [r.get("Contract") for r in loads(TEXT)] == ["Hjärter"]
