"""Several processes check a file exactly as one does (issue 9 point 7): the same findings,
byte for byte, the same boards, whatever the number of jobs; and a file they cannot cut
safely is checked in one process."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, EXAMPLES
from test_engine_equivalence import several_parties, words

from priffe_records import read, validate
from priffe_records.cli import cli
from priffe_records.format.record import Record
from priffe_records.rules import parallel
from priffe_records.rules.parallel import check_file


def one_process(path: Path) -> tuple[list[tuple[object, ...]], list[str | None]]:
    records = list(read(path, errors="collect"))
    boards = [r.get("Board") if isinstance(r, Record) else None for r in records]
    return words(validate(records)), boards


def parties_file(path: Path, seed: int, *, newline: str = "\n", odd: bool = True) -> Path:
    """Four parties of two rubbers, some deals damaged, odd items (unreadable, bridge,
    diagram) between them."""
    text = several_parties(seed, random.Random(seed), parties=4, rubbers=2, damage=0.15,
                           odd=2 if odd else 0)
    path.write_bytes(("% PPN 1.0\n% EXPORT\n\n" + text).replace("\n", newline).encode())
    return path


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_two_jobs_give_what_one_gives(tmp_path: Path, seed: int, newline: str) -> None:
    path = parties_file(tmp_path / "p.ppn", seed, newline=newline)
    done = check_file(path, jobs=2)
    assert done.jobs == 2 and done.slices > 1  # really cut and checked in two processes
    assert (words(done.findings), done.boards) == one_process(path)
    assert done.findings  # the damage was found


def test_inheritance_is_checked_in_one_process(tmp_path: Path) -> None:
    path = parties_file(tmp_path / "p.ppn", 3)
    text = path.read_text().replace('[Site "Uppsala"]', '[Site "#"]')
    path.write_text(text)
    done = check_file(path, jobs=2)
    assert done.jobs == 1
    assert (words(done.findings), done.boards) == one_process(path)


def test_a_partie_across_a_cut_is_checked_again_in_one_slice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = parties_file(tmp_path / "p.ppn", 4, odd=False)
    real = parallel._cut

    def mid_partie(p: object, pieces: int) -> list[parallel._Slice] | None:
        slices = real(p, pieces)  # type: ignore[arg-type]
        assert slices is not None and len(slices) > 1
        # Move the first cut one record on: the partie now straddles it.
        data = path.read_bytes()
        at = data.index(b"\n\n[", slices[1].start) + 2
        line = data[:at].count(b"\n") + 1
        return [parallel._Slice(0, at, 1), parallel._Slice(at, slices[-1].end, line)]

    monkeypatch.setattr(parallel, "_cut", mid_partie)
    done = check_file(path, jobs=2)
    assert done.slices == 1  # the two slices were merged and checked again
    assert (words(done.findings), done.boards) == one_process(path)


def _real_files() -> list[Path]:
    found = sorted(EXAMPLES.glob("*.ppn"))
    if CORPUS.is_dir():
        found += sorted(CORPUS.glob("*.pbn"))
    return found


@pytest.mark.parametrize("path", _real_files(), ids=lambda p: p.name[:40])
def test_real_files_with_two_jobs(path: Path) -> None:
    done = check_file(path, jobs=2)
    assert (words(done.findings), done.boards) == one_process(path)


def test_cli_jobs_output_is_identical(tmp_path: Path) -> None:
    path = parties_file(tmp_path / "p.ppn", 5)
    runner = CliRunner()
    outs = []
    for jobs in ("1", "2"):
        res = runner.invoke(cli, ["validate", "--jobs", jobs, str(path)])
        as_json = runner.invoke(cli, ["validate", "--json", "-j", jobs, str(path)])
        outs.append((res.exit_code, res.output, as_json.exit_code, as_json.output))
    assert outs[0] == outs[1]
    assert outs[0][0] == 1 and json.loads(outs[0][3].splitlines()[0])["rule"]


def test_records_run_together_without_blank_lines(tmp_path: Path) -> None:
    """The reader splits them with a warning; a cut there would lose it, so none is made."""
    path = parties_file(tmp_path / "p.ppn", 6)
    text = path.read_text()
    head, rest = text.split("\n\n", 1)
    path.write_text(head + "\n\n" + rest.replace('\n\n[Event', '\n[Event'))
    done = check_file(path, jobs=2)
    assert (words(done.findings), done.boards) == one_process(path)
    assert any("blank" in str(f) for f in done.findings)
