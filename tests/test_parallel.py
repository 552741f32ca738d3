"""Several processes check a file exactly as one does (issue 9 point 7): the same findings,
byte for byte, the same boards, whatever the number of jobs; and a file they cannot cut
safely is checked in one process."""

from __future__ import annotations

import functools
import itertools
import json
import os
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS_FILES, EXAMPLE_FILES
from test_engine_equivalence import several_parties, words

from priffe_records import dumps, read, validate
from priffe_records.cli import cli
from priffe_records.format.cuts import fresh_starts
from priffe_records.format.record import Record
from priffe_records.rules import parallel
from priffe_records.rules.findings import Finding
from priffe_records.rules.gcscope import collector_tuned
from priffe_records.rules.preference.generate import PrefSpec
from priffe_records.rules.preference.generate import generate_partie as pref_partie
from priffe_records.rules.priffe.generate import PartieSpec, generate_partie

pytestmark = pytest.mark.slow  # worker processes in nearly every test


@dataclass(frozen=True)
class Checked:
    """A file's findings and the Board of each record, in file order, and who did it."""

    findings: list[Finding]
    boards: list[str | None]
    jobs: int  # processes that did the work (1: the file was checked in this one)
    slices: int  # the pieces the file was checked in


def check_file(path: str | os.PathLike[str], *, name: str | None = None, jobs: int = 1,
               options: object = None, conventions: bool = False) -> Checked:
    """All of validate's one path (:func:`parallel.checked`) at once."""
    boards: list[str | None] = []
    run = parallel.checked(path, boards.append, name=name, jobs=jobs, options=options,
                           conventions=conventions)
    found: list[Finding] = []
    with collector_tuned():
        while True:
            try:
                found.append(next(run))
            except StopIteration as done:
                return Checked(found, boards, jobs if done.value > 1 else 1, done.value)


@pytest.fixture(autouse=True)
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test files are small: cut them into slices of a few records all the same."""
    monkeypatch.setattr(parallel, "_MIN_SLICE", 2048)


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


def cut_before(monkeypatch: pytest.MonkeyPatch, path: Path, records: list[int]) -> None:
    """Make the parent cut before these records (1-based; each must start afresh), whatever
    their parties: a partie that goes on across a cut goes on in the next slice."""
    data = path.read_bytes()
    items = list(read(path, errors="collect"))
    lines = {items[n - 1].location.line for n in records}  # type: ignore[union-attr]
    chosen = [(o, data.count(b"\n", 0, o) + 1) for o in fresh_starts(data)]
    chosen = [(o, line) for o, line in chosen if line in lines]
    assert len(chosen) == len(records)
    monkeypatch.setattr(parallel, "_cuts", lambda f, size, jobs, most: iter(chosen))


def test_a_partie_across_a_cut_goes_on_in_the_next_slice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = parties_file(tmp_path / "p.ppn", 4, odd=False)
    boards = one_process(path)[1]
    second = boards.index("1", 1)  # the second partie's first deal, then one record on
    cut_before(monkeypatch, path, [second + 2])
    done = check_file(path, jobs=2)
    assert done.slices == 2  # no slice checked again: the books went on to the next
    assert (words(done.findings), done.boards) == one_process(path)


def test_a_file_of_one_partie_is_shared_by_the_workers(tmp_path: Path) -> None:
    """One long partie (rubbers of Priffe, some deals damaged) is cut like any file: each
    worker reads and analyses its slice, the books go on from slice to slice."""
    records = generate_partie(7, PartieSpec(rubbers=12))
    text = dumps(records).replace('[ScoreRubber "NS', '[ScoreRubber "NS 1', 3)
    path = tmp_path / "one.ppn"
    path.write_text(text)
    done = check_file(path, jobs=2)
    assert done.jobs == 2 and done.slices > 2
    assert (words(done.findings), done.boards) == one_process(path)
    assert [f.rule for f in done.findings if f.is_error] == ["R23"] * 3


def test_a_slice_is_as_big_for_a_big_file_as_for_a_small_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker holds its whole slice analysed (some 25 times its bytes) while it waits for
    the books, so slices of a share of the file made its memory grow with the file (130 MB
    at 50,000 deals). Slices hold at most SLICE bytes (and a record), whatever the file."""
    monkeypatch.setattr(parallel, "_MIN_SLICE", 1 << 10)
    monkeypatch.setattr(parallel, "SLICE", 1 << 11)
    sizes: dict[str, list[int]] = {}
    real = parallel.relay

    def noting(*args: object, **kw: object) -> object:
        for done in real(*args, **kw):  # type: ignore[arg-type]
            if done.piece is not None:
                sizes[str(args[0])].append(done.piece.end - done.piece.start)
            yield done

    monkeypatch.setattr(parallel, "relay", noting)
    for rubbers in (3, 40):
        path = tmp_path / f"one-{rubbers}.ppn"
        path.write_text(dumps(generate_partie(7, PartieSpec(rubbers=rubbers))))
        sizes[str(path)] = []
        done = check_file(path, jobs=2)
        assert (words(done.findings), done.boards) == one_process(path)
    small, big = sizes.values()
    assert len(big) > 4 * len(small) > 4
    assert max(big) <= parallel.SLICE + 1024 and max(small) <= parallel.SLICE + 1024, sizes


@pytest.mark.parametrize("seed", range(6))
def test_cuts_anywhere_give_what_one_process_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Cuts at random fresh records: inside parties, before an unreadable record, a diagram
    or another game's record; merging must put every partie back together."""
    path = parties_file(tmp_path / "p.ppn", 10 + seed)
    rng = random.Random(seed)
    n = len(one_process(path)[1])
    cut_before(monkeypatch, path, sorted(rng.sample(range(2, n + 1), 6)))
    done = check_file(path, jobs=2)
    assert (words(done.findings), done.boards) == one_process(path)


@pytest.mark.parametrize("seed", [4, 9, 10])
def test_a_slice_that_opens_no_partie_joins_the_one_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """A cut before an unreadable record, another game's record or a diagram: in one
    process that item belongs to the partie before (its books hear of a lost record)."""
    path = parties_file(tmp_path / "p.ppn", seed)
    boards = one_process(path)[1]
    odd = [n for n, board in enumerate(boards, 1) if board is None and n > 1]
    data = path.read_bytes()
    items = list(read(path, errors="collect"))
    fresh = {data.count(b"\n", 0, o) + 1 for o in fresh_starts(data)}
    odd = [n for n in odd if items[n - 1].location.line in fresh]  # type: ignore[union-attr]
    assert odd
    cut_before(monkeypatch, path, odd)
    done = check_file(path, jobs=2)
    assert done.slices == len(odd) + 1
    assert (words(done.findings), done.boards) == one_process(path)


def test_a_cut_before_every_record_checks_each_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cut before every record of one long partie: each slice is checked once (none
    again as pieces are merged), and the result is exact."""
    path = parties_file(tmp_path / "p.ppn", 3, odd=False)
    n = len(one_process(path)[1])
    cut_before(monkeypatch, path, list(range(2, n + 1)))
    runs: list[int] = []
    real = parallel.ProcessPoolExecutor.submit

    def counted(pool: object, fn: object, piece: parallel.Piece, *a: object) -> object:
        runs.append(piece.end - piece.start)
        return real(pool, fn, piece, *a)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel.ProcessPoolExecutor, "submit", counted)
    done = check_file(path, jobs=2)
    assert (words(done.findings), done.boards) == one_process(path)
    assert len(runs) == n == done.slices


def test_an_unreadable_record_is_named_by_its_place_in_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A message naming a lost record gives its number in the file, not in the slice."""
    path = parties_file(tmp_path / "p.ppn", 9)  # record 35 cannot be read
    boards = one_process(path)[1]
    partie = max(n for n, board in enumerate(boards[:35], 1) if board == "1")
    cut_before(monkeypatch, path, [partie])
    done = check_file(path, jobs=2)
    assert done.slices == 2
    assert (words(done.findings), done.boards) == one_process(path)
    [named] = [f for f in done.findings if "could not be read" in f.message]
    assert "record 35 (" in named.message and named.record == 36


def preference_file(path: Path) -> Path:
    """Préférence parties, a Priffe partie between them, one deal damaged."""
    recs = [*pref_partie(1, spec=PrefSpec(deals=9, date="1911.02.04")),
            *generate_partie(2, PartieSpec(event="Klubbkväll", date="2026.01.01")),
            *pref_partie(3, spec=PrefSpec(deals=12, date="1911.02.05"))]
    text = dumps(recs)
    text = text.replace('[Pot "', '[Pot "9', 1)
    path.write_text(text)
    return path


def test_preference_files_too(tmp_path: Path) -> None:
    path = preference_file(tmp_path / "pref.ppn")
    done = check_file(path, jobs=2)
    assert done.jobs == 2 and done.slices > 1
    assert (words(done.findings), done.boards) == one_process(path)
    assert any(f.rule.startswith("P") for f in done.findings)


def _real_files() -> list[Path]:
    return EXAMPLE_FILES + CORPUS_FILES


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
        as_json = runner.invoke(cli, ["validate", "--nl", "-j", jobs, str(path)])
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


def test_default_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    monkeypatch.setattr(parallel, "_load", lambda: 0.3)
    small = parties_file(tmp_path / "p.ppn", 8)
    assert parallel.default_jobs(small) == 1
    assert parallel.default_jobs(tmp_path / "missing.ppn") == 1
    with open(tmp_path / "big.ppn", "wb") as f:
        f.truncate(parallel.SMALL_FILE)
    assert parallel.default_jobs(tmp_path / "big.ppn") == 2
    monkeypatch.setattr(parallel, "_load", lambda: 3.9)  # busy, but a core still gains
    assert parallel.default_jobs(tmp_path / "big.ppn") == 2
    monkeypatch.setattr(parallel, "_load", lambda: 4.0)  # every core twice over
    assert parallel.default_jobs(tmp_path / "big.ppn") == 1


def test_load_is_the_one_minute_average() -> None:
    assert parallel._load() == pytest.approx(os.getloadavg()[0], abs=1.0)


def counted_boards(piece: parallel.Piece, inbox: parallel.Channel, outbox: parallel.Channel,
                   fail_at: int = -1) -> list[str | None] | None:
    """A worker for relay: the Boards of a piece, the state handed on a count of records."""
    boards = [rec.get("Board") if isinstance(rec, Record) else None
              for rec in piece.records("x")]
    before = inbox.recv()
    if before is None or piece.index == fail_at:
        outbox.send(None)
        if before is None:
            return None
        raise ValueError("worker failed")
    outbox.send(before + len(boards))
    return boards


@pytest.mark.parametrize("jobs", [1, 2])
def test_relay_hands_each_state_on_in_file_order(tmp_path: Path, jobs: int) -> None:
    path = parties_file(tmp_path / "p.ppn", 8)
    done = list(parallel.relay(path, counted_boards, 0, jobs=jobs))
    *pieces, end = done
    assert end.piece is None and end.value == len(one_process(path)[1])
    assert [b for d in pieces for b in d.value] == one_process(path)[1]  # type: ignore[attr-defined]
    assert len(pieces) > 2 if jobs == 2 else pieces[0].piece.whole  # type: ignore[union-attr]
    cut = [d.piece for d in pieces if d.piece is not None]
    assert cut[0].start == 0 and cut[-1].end == path.stat().st_size
    assert all(a.end == b.start for a, b in itertools.pairwise(cut))
    data = path.read_bytes()
    assert all(p.first_line == data.count(b"\n", 0, p.start) + 1 for p in cut)


def test_relay_raises_what_a_worker_raised_and_the_slices_after_end(tmp_path: Path) -> None:
    path = parties_file(tmp_path / "p.ppn", 8)
    work = functools.partial(counted_boards, fail_at=1)
    with pytest.raises(ValueError, match="worker failed"):
        list(parallel.relay(path, work, 0, jobs=2))


def test_a_relay_left_early_leaves_no_worker_waiting(tmp_path: Path) -> None:
    """The caller stops after the first slice: the slices after are told, the pool ends."""
    path = parties_file(tmp_path / "p.ppn", 8)
    done = parallel.relay(path, counted_boards, 0, jobs=2)
    first = next(done)
    assert first.piece is not None and first.piece.index == 0
    done.close()  # returns: no worker is left blocked on its inbox
