"""A file that holds no records says so and is left as it was (issue 28 item 8a).

An empty file, blank lines or the export header alone: ``validate`` said "0 records" and
nothing else, and ``fmt`` turned the file into a header-only one. Now both say the file
holds no records, as a located warning, and ``fmt`` writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from priffe_records.cli import cli

NOTHING = [b"", b"\n \n\n", b"% PPN 1.0\n% EXPORT\n", b"\xef\xbb\xbf"]


@pytest.mark.parametrize("content", NOTHING)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_says_the_file_holds_no_records(tmp_path: Path, content: bytes,
                                                 jobs: str) -> None:
    path = tmp_path / "tom.ppn"
    path.write_bytes(content)
    result = CliRunner().invoke(cli, ["validate", "-j", jobs, "--lang", "en", str(path)])
    assert result.exit_code == 0, result.output
    assert "  the file as a whole\n" in result.output
    assert "PPN     1:1  the file holds no records" in result.output
    assert "0 errors, 1 warning, 0 unverifiable in 1 file (0 records)" in result.output


def test_validate_says_it_in_swedish_and_in_rows(tmp_path: Path) -> None:
    path = tmp_path / "tom.ppn"
    path.write_bytes(b"")
    result = CliRunner().invoke(cli, ["validate", "--lang", "sv", str(path)])
    assert "filen som helhet" in result.output and "filen innehåller inga givar" in result.output
    result = CliRunner().invoke(cli, ["validate", "--nl", str(path)])
    assert '"line": 1, "column": 1' in result.output and "holds no records" in result.output


@pytest.mark.parametrize("content", NOTHING)
def test_fmt_leaves_the_file_as_it_was(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "tom.ppn"
    path.write_bytes(content)
    for args in (["fmt"], ["fmt", "--check"], ["fmt", "--diff"]):
        result = CliRunner().invoke(cli, [*args, "--lang", "en", str(path)])
        assert result.exit_code == 0, result.output
        assert f"{path}:1:1: warning: the file holds no records" in result.output
        assert path.read_bytes() == content
    result = CliRunner().invoke(cli, ["fmt", "-"], input=content)
    assert result.stdout_bytes == content and "holds no records" in result.stderr
