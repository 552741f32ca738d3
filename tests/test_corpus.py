"""Real PBN files (../shared/pbn/corpus): read, locate errors, round-trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS_FILES

from priffe_records import BadRecord, dumps, loads, read
from priffe_records.cli import cli

FILES = CORPUS_FILES
pytestmark = pytest.mark.skipif(not FILES, reason="../shared/pbn/corpus is not present")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name[:40])
def test_every_corpus_file_reads_without_a_crash(path: Path) -> None:
    records = list(read(path, errors="collect"))
    assert records
    problems = [e for r in records for e in r.errors]
    if "errors" in path.name:
        assert problems, "the negative test file must give errors or warnings"
        for e in problems:
            assert e.location.file == str(path)
            assert e.location.line > 0 and e.location.column > 0
    else:
        assert not [r for r in records if isinstance(r, BadRecord)]
        assert not [e for e in problems if not e.is_warning]


def test_error_file_errors_are_located_exactly(corpus_dir: Path) -> None:
    [path] = corpus_dir.glob("*errors_21.pbn")
    records = list(read(path, errors="collect"))
    errs = [e for r in records for e in r.errors]
    assert [(e.location.line, e.location.column) for e in errs] == [(7, 16), (11, 16)]
    assert all("OptimumScore" in e.message for e in errs)
    # A bad value costs a warning, not the record (issue 11).
    assert all(e.is_warning for e in errs) and not any(isinstance(r, BadRecord) for r in records)


@pytest.mark.parametrize("path", [p for p in FILES if "errors" not in p.name],
                         ids=lambda p: p.name[:40])
def test_corpus_file_round_trips_through_fmt(path: Path, tmp_path: Path) -> None:
    original = list(read(path))
    out = tmp_path / "out.ppn"
    result = CliRunner().invoke(cli, ["fmt", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    again = list(read(out))
    assert again == original
    text = out.read_text("utf-8")
    assert dumps(loads(text)) == text
