"""Real PBN files (../shared/pbn/corpus): read, locate errors, round-trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS

from priffe_records import BadRecord, dumps, loads, read
from priffe_records.cli import cli

FILES = sorted(CORPUS.glob("*.pbn")) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason="../shared/pbn/corpus is not present")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name[:40])
def test_every_corpus_file_reads_without_a_crash(path: Path) -> None:
    records = list(read(path, errors="collect"))
    assert records
    if "errors" in path.name:
        bad = [r for r in records if isinstance(r, BadRecord)]
        assert bad, "the negative test file must give errors"
        for b in bad:
            for e in b.errors:
                assert e.location.file == str(path)
                assert e.location.line > 0 and e.location.column > 0
    else:
        assert not [r for r in records if isinstance(r, BadRecord)]


def test_error_file_errors_are_located_exactly(corpus_dir: Path) -> None:
    [path] = corpus_dir.glob("*errors_21.pbn")
    errs = [e for r in read(path, errors="collect") if isinstance(r, BadRecord) for e in r.errors]
    assert [(e.location.line, e.location.column) for e in errs] == [(7, 16), (11, 16)]
    assert all("OptimumScore" in e.message for e in errs)


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
