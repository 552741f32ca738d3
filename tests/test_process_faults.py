"""Faults of the processes around the engine: exit codes, repeated findings, workers.

``parse`` exits 1 whenever it reports an error (as ``validate`` does), not only for an
unreadable record. A finding said many times in the same words is printed three times
and counted, in every command that prints findings; ``--json`` keeps them all. The
``--jobs`` workers end with their parent, even a parent killed with SIGKILL. The
real-process checks run the installed ``priffe`` command.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from archive_support import big_file, stalling_process
from click.testing import CliRunner

from priffe_records.cli import cli
from priffe_records.cli.common import EXIT_FINDINGS, EXIT_OK
from priffe_records.format.record import Location
from priffe_records.rules import parallel
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.repeats import More, counted

# A Dealer that is no seat: the reader keeps the record, with a located error on it.
NO_SEAT = '[Event "Klubbkväll"]\n[Board "1"]\n[Dealer "Q"]\n[Contract "Spela"]\n'
# A Deal value the reader cannot read: the record is kept, with a located error.
BAD_DEAL = '[Event "Klubbkväll"]\n[Board "1"]\n[Deal "W:garbage"]\n'


def priffe_exe() -> str:
    """The installed ``priffe`` script beside this interpreter (or on PATH)."""
    exe = shutil.which("priffe", path=str(Path(sys.executable).parent)) or shutil.which("priffe")
    if exe is None:
        pytest.skip("the priffe command is not installed in this environment")
    return exe


def _parse(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, ["parse", *args])
    return r.exit_code, r.stdout, r.stderr


# ---------------------------------------------------------------- parse's exit code


@pytest.mark.parametrize("text", [NO_SEAT, BAD_DEAL], ids=["bad-dealer", "bad-deal"])
def test_parse_exits_1_when_it_reports_an_error(tmp_path: Path, text: str) -> None:
    f = tmp_path / "a.ppn"
    f.write_text(text + '\n[Event "ok"]\n[Board "2"]\n', "utf-8")
    code, out, err = _parse(str(f), "--lang", "en")
    assert code == EXIT_FINDINGS, err
    assert f"{f}:" in err and "warning" not in err  # the located error itself
    assert "1 record has errors" in err
    assert "Board=2" in out, "the other records are still shown"


def test_parse_says_it_in_swedish_too(tmp_path: Path) -> None:
    f = tmp_path / "a.ppn"
    f.write_text(NO_SEAT + "\n" + NO_SEAT, "utf-8")
    code, _, err = _parse(str(f), "--lang", "sv")
    assert code == EXIT_FINDINGS and "2 givar har fel" in err


def test_parse_of_a_warning_only_exits_0(tmp_path: Path) -> None:
    """A missing blank line is a warning (the records are split where the next starts)."""
    f = tmp_path / "a.ppn"
    f.write_text('[Event "a"]\n[Board "1"]\n[Board "2"]\n', "utf-8")
    code, out, err = _parse(str(f))
    assert code == EXIT_OK, err
    assert "warning" in err and out.count("Board=") == 2


@pytest.mark.slow
def test_installed_parse_exits_1_on_a_record_with_an_error(tmp_path: Path) -> None:
    f = tmp_path / "a.ppn"
    f.write_text(NO_SEAT, "utf-8")
    proc = subprocess.run([priffe_exe(), "parse", "--lang", "en", str(f)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == EXIT_FINDINGS, proc.stderr
    assert f"{f}:3:10: Dealer 'Q' is not a seat" in proc.stderr
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------- repeated findings counted

# 9 KB: North is dealt 9,000 aces of spades. Each ace after the first is the same R2
# error at the same place; printed one by one they made some 840 KB.
ACES = '[Event "x"]\n[Board "1"]\n[Deal "N:' + "A" * 9000 + '... - - -"]\n'
TWICE_R2 = "♠A is dealt twice to North: a deal uses every card once"


def _invoke(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture
def aces(tmp_path: Path) -> Path:
    f = tmp_path / "ess.ppn"
    f.write_text(ACES, "utf-8")
    return f


def test_validate_counts_what_it_would_repeat_R2(aces: Path) -> None:
    code, out, _ = _invoke("validate", str(aces), "--lang", "en")
    assert code == EXIT_FINDINGS
    assert out.count(TWICE_R2) == 3
    assert re.search(r"R2\s+… and 8,996 more like this", out)
    assert "9,000 errors" in out  # the totals still count every one
    assert len(out) < 2000
    code, out, _ = _invoke("validate", str(aces), "--lang", "sv")
    assert re.search(r"R2\s+… och 8\u00a0996 likadana till", out) and "9\u00a0000 fel" in out


def test_machines_get_every_finding(aces: Path) -> None:
    code, out, _ = _invoke("validate", str(aces), "--nl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == EXIT_FINDINGS and sum(r["message"] == TWICE_R2 for r in rows) == 8999
    assert "more like this" not in out


def test_score_counts_them_too(aces: Path) -> None:
    code, _, err = _invoke("score", str(aces), "--lang", "en")
    assert code == EXIT_FINDINGS
    assert err.count(TWICE_R2) == 3 and "R2: … and 8,996 more like this" in err
    assert len(err) < 2000


def test_score_counts_the_reader_errors_too(tmp_path: Path) -> None:
    """300 records with the same misspelt call: three with line and caret, then a count."""
    f = tmp_path / "x.ppn"
    f.write_text("".join(f'[Event "x"]\n[Board "{n}"]\n[Auction "N"]\nHjarterr\n\n'
                         for n in range(1, 301)), "utf-8")
    code, _, err = _invoke("score", str(f), "--lang", "en")
    assert code == EXIT_FINDINGS
    assert err.count("unknown call 'Hjarterr'") == 3 and f"{f}:14:1: unknown call" in err
    assert "PPN: … and 297 more like this" in err and len(err) < 1500


def test_replay_counts_the_reasons(aces: Path) -> None:
    code, out, _ = _invoke("replay", str(aces), "--lang", "en")
    assert code == EXIT_FINDINGS and "cannot be replayed" in out
    assert out.count(TWICE_R2) == 3 and "R2: … and 8,996 more like this" in out
    assert len(out) < 2000


def test_identical_but_for_the_place_across_records(tmp_path: Path) -> None:
    """Many records with the same bad Deal: the same words at other places are counted
    too, after the first three, in the record where the third stands."""
    f = tmp_path / "x.ppn"
    f.write_text("".join(f'[Event "x"]\n[Board "{n}"]\n[Deal "x"]\n\n' for n in range(1, 41)),
                 "utf-8")
    code, out, _ = _invoke("validate", str(f), "--lang", "en")
    assert code == EXIT_FINDINGS and "80 errors" in out
    assert out.count("must start with the first seat") == 6  # PPN and R2, 3 of each
    assert re.search(r"PPN\s+… and 37 more like this", out) and re.search(
        r"R2\s+… and 37 more like this", out)
    assert "record 4 " not in out  # nothing new to say about records 4-40


def _f(rule: str, text: str, line: int) -> Finding:
    return Finding(rule, Severity.ERROR, text, Location("a.ppn", line, 1), line)


def test_counted_keeps_order_and_shows_one_more_rather_than_count_it() -> None:
    four = [_f("R2", "same", n) for n in range(1, 5)]
    assert counted(four) == four  # "… and 1 more" would take a line as well
    five = [*four, _f("R11", "other", 9), _f("R2", "same", 5)]
    out = counted(five)
    assert out[:3] == five[:3]
    assert out[3] == More("R2", Severity.ERROR, 2, 3) and out[4] == five[4]
    assert len(out) == 5
    assert counted([_f("R2", "same", 1), _f("R2", "else", 1)] * 2) == \
        [_f("R2", "same", 1), _f("R2", "else", 1)] * 2


# ---------------------------------------------------------------- workers die with their parent


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (psutil if installed, else /proc)."""
    try:
        import psutil  # type: ignore[import-untyped]
    except ImportError:
        psutil = None
    if psutil is not None:
        return [c.pid for c in psutil.Process(pid).children()]
    if not Path("/proc/self/stat").exists():
        pytest.skip("neither psutil nor /proc to find the worker processes")
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, dead and waiting for its reaper, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc here: ask the process table
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def _gone_within(pids: list[int], seconds: float) -> list[int]:
    """The pids still running after ``seconds`` (polled; empty as soon as all are gone)."""
    end = time.monotonic() + seconds
    while (left := [p for p in pids if _running(p)]) and time.monotonic() < end:
        time.sleep(0.1)
    return left


def _workers_of(proc: subprocess.Popen[str], n: int, timeout: float = 120) -> list[int]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        kids = _children(proc.pid)
        if len(kids) >= n:
            return kids
        assert proc.poll() is None, "the command ended before its workers were seen"
        time.sleep(0.05)
    raise AssertionError(f"no {n} workers within {timeout} s")


def _large(path: Path) -> Path:
    """About 6 MB of parties: cut into many slices, a few seconds of work for two jobs."""
    text = big_file(path, 48, seed=700).read_text("utf-8")
    path.write_text("\n".join(text.replace("Höstpartiet", f"Höstpartiet {n}")
                              for n in range(48)), "utf-8")
    assert path.stat().st_size > 20 * parallel._MIN_SLICE
    return path


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("command", ["validate", "import"])
def test_workers_end_when_the_parent_is_killed(tmp_path: Path, command: str) -> None:
    """``kill -9`` of ``priffe validate/import --jobs 2``: its workers end within seconds,
    not blocked for ever on the pool's pipe holding memory and the file."""
    big = _large(tmp_path / "big.ppn")
    args = [priffe_exe(), command, "--jobs", "2", str(big)]
    if command == "import":
        # the parent waits in its transaction, the workers are up
        args = [*stalling_process(300), command, "--jobs", "2", str(big),
                "--db", str(tmp_path / "k.db")]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        if command == "import":
            assert proc.stderr is not None
            assert "test stall" in proc.stderr.readline()
        workers = _workers_of(proc, 2)
        assert all(_running(p) for p in workers)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    left = _gone_within(workers, 5)
    for pid in left:  # no orphan outlives a failing test
        os.kill(pid, signal.SIGKILL)
    assert left == []


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_worker_without_prctl_sees_its_parent_go(tmp_path: Path) -> None:
    """The portable way (no PR_SET_PDEATHSIG): the watching thread ends the worker."""
    script = (
        "import os, sys, time\n"
        "from priffe_records.rules import parallel\n"
        "parent = os.getpid()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    parallel.watch_parent(parent, every=0.05)\n"
        "    os._exit(3)  # not reached while the parent lives\n"
        "time.sleep(0.5)\n"
        "print(pid, os.waitpid(pid, os.WNOHANG)[0], flush=True)\n"
        "os._exit(0)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    child, reaped = int(out[0]), int(out[1])
    left = _gone_within([child], 5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert reaped == 0, "the worker ran on while its parent lived"
    assert left == []


def test_cli_workers_are_bound_to_their_parent(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``validate --jobs 2`` through CliRunner: each worker asks to die with its parent
    (the forked workers inherit the patched function) and the output is one job's."""
    monkeypatch.setattr(parallel, "_MIN_SLICE", 1 << 12)
    big = big_file(tmp_path / "b.ppn", 24, seed=710)
    seen = tmp_path / "bound"
    seen.mkdir()
    real = parallel._die_with_parent

    def noting() -> bool:
        (seen / str(os.getpid())).touch()
        return real()

    monkeypatch.setattr(parallel, "_die_with_parent", noting)
    runner = CliRunner()
    two = runner.invoke(cli, ["validate", "--jobs", "2", str(big)])
    one = runner.invoke(cli, ["validate", "--jobs", "1", str(big)])
    assert (two.exit_code, two.output) == (one.exit_code, one.output)
    pids = {int(p.name) for p in seen.iterdir()}
    assert len(pids) == 2 and os.getpid() not in pids
