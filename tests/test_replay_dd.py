"""``priffe replay --dd``: each card's double-dummy cost under the replay, both games.

The cost a card is shown with is the solver's (tests/test_solver_deal.py ties the
family's deal to the record); here: the words, the languages, the budget's "not
analysed yet", stepping one trick, and a deal without a play.
"""

from __future__ import annotations

import io
import os
import pty
import re
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from archive_support import imported_archive, interruptible, priffe_process, run, run_async

from priffe_records.dd import Budget
from priffe_records.format.reader import loads
from priffe_records.format.record import Record
from priffe_records.game.language import use_language
from priffe_records.replay.dd import analyse, dd_lines

EXAMPLES = Path(__file__).parent.parent / "examples"
UPPSALA = str(EXAMPLES / "partie-uppsala.ppn")
GRAZ = str(EXAMPLES / "preference-graz.ppn")
TRICK = re.compile(r"^trick (\d+): ")


def _record(path: str, board: str) -> Record:
    for r in loads(Path(path).read_text("utf-8"), errors="collect"):
        if isinstance(r, Record) and r.get("Board") == board:
            return r
    raise AssertionError(board)


def _dd_part(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Double dummy:"))
    return lines[start:]


def test_preference_deal_shows_every_cards_cost() -> None:
    res = run("--lang", "en", "replay", GRAZ, "--board", "1", "--dd")
    assert res.exit_code == 0, res.output
    part = _dd_part(res.output)
    assert part[0] == "Double dummy: S takes 7 tricks with best play by all"
    tricks = [line for line in part if TRICK.match(line)]
    assert [int(TRICK.match(t).group(1)) for t in tricks] == list(range(1, 11))  # type: ignore[union-attr]
    assert tricks[0].startswith("trick 1: S ♣7") and "?" not in "".join(part)
    costs = [int(c) for c in re.findall(r"−(\d+) \(best ", "".join(tricks))]
    view = analyse(_record(GRAZ, "1"), Budget())
    assert view is not None
    assert sorted(costs) == sorted(c.cost for c in view.play.cards if c.cost)  # type: ignore[misc]


def test_preference_tricks_carry_each_cards_mark() -> None:
    """The drawn tricks of a Préférence deal mark each card as Priffe's do: ``♠Q −1``."""
    res = run("--lang", "en", "replay", GRAZ, "--board", "1", "--dd")
    assert res.exit_code == 0, res.output
    drawn = [line for line in res.output[:res.output.index("Double dummy:")].splitlines()
             if re.match(r" +\d+   ", line)]  # the rows of the trick table
    marked = re.findall(r"([NES]) (\S+?)\*? −(\d+)", "  ".join(drawn))
    told = re.findall(r"([NES]) (\S+) −(\d+) \(best ", "  ".join(_dd_part(res.output)))
    assert marked == told and len(marked) == 4
    assert drawn[1].split() == ["2", "East", "E", "♠Q", "−1", "S", "♠K*", "South", "1", "1"]
    plain = run("--lang", "en", "replay", GRAZ, "--board", "1")
    assert "−" not in plain.output


def test_preference_page_carries_each_cards_mark(tmp_path: Path) -> None:
    out = tmp_path / "graz.html"
    res = run("--lang", "en", "replay", GRAZ, "--board", "1", "--dd", "--html", str(out))
    assert res.exit_code == 0, res.output
    assert '"an":{"1.0":"−1","2.0":"−1","2.1":"−1","3.1":"−1"}' in \
        out.read_text("utf-8").replace(" ", "")


def test_misere_deal_marks_what_the_budget_did_not_reach() -> None:
    """Board 2 of the Uppsala partie is a Tvångsnoll (forced misère): its opening tricks
    are the longest search, so a tiny budget leaves them (and the start) not analysed."""
    res = run("--lang", "en", "replay", UPPSALA, "--board", "2", "--dd", "--dd-budget", "0.001")
    assert res.exit_code == 0, res.output
    part = _dd_part(res.output)
    assert part[0] == "Double dummy: the value at the start is not analysed yet (the budget " \
                      "ran out)"
    assert part[1] == "trick 1: E ♦7 ?  S ♦A ?  W ♦K ?  N ♦5 ?"
    assert part[-2:] == ["? not analysed yet", "  the search had 0.001 s (--dd-budget); a "
                                               "larger budget analyses further back"]
    costly = any(" −1 " in line for line in part[1:14])  # the late tricks may be reached
    assert len(part) == 16 + costly and part[14].startswith("−1 beside") is costly
    table = res.output[:res.output.index("Double dummy:")]
    assert re.search(r"^ +1 +East +E ♦7 \? +S ♦A\* \? ", table, re.M)  # marked in the trick table


def test_html_viewer_carries_each_cards_mark(tmp_path: Path) -> None:
    out = tmp_path / "deal.html"
    res = run("--lang", "en", "replay", UPPSALA, "--board", "2", "--dd", "--dd-budget", "0.001",
              "--html", str(out))
    assert res.exit_code == 0, res.output
    page = out.read_text("utf-8")
    assert '"an":{"0.0":"?"' in page.replace(" ", "")  # trick 1, card 1: not analysed yet
    plain = tmp_path / "plain.html"
    run("--lang", "en", "replay", UPPSALA, "--board", "2", "--html", str(plain))
    assert '"an":' not in plain.read_text("utf-8").replace(" ", "")


def test_misere_deal_within_a_budget_reaches_the_last_tricks() -> None:
    view = analyse(_record(UPPSALA, "2"), Budget(nodes=20_000))
    assert view is not None and view.goal == "fewest"
    assert view.side == {s for s in view.side if s.value in "NS"} and len(view.side) == 2
    lines = [str(line) for line in dd_lines(view, trick=13)]
    assert lines[1] == "trick 13: E ♦10  S ♠Q  W ♠7  N ♥A"  # no choice left: costs nothing
    assert len(lines) == 2


def test_swedish_words() -> None:
    res = run("--lang", "sv", "replay", UPPSALA, "--board", "2", "--dd", "--dd-budget", "0.001")
    part = _dd_part_sv(res.output)
    assert part[0] == "Dubbeldummy: värdet vid start är inte analyserat än (budgeten tog slut)"
    assert part[1] == "stick 1: Ö ♦7 ?  S ♦Ä ?  V ♦K ?  N ♦5 ?"
    assert part[-2:] == ["? inte analyserat än", "  sökningen fick 0,001 s (--dd-budget); en "
                                                 "större budget analyserar längre bakåt"]
    graz = run("--lang", "sv", "replay", GRAZ, "--board", "1", "--dd").output
    assert "Dubbeldummy: S tar 7 stick med bästa spel av alla" in graz


def _dd_part_sv(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Dubbeldummy:"))
    return lines[start:]


def test_deal_without_a_play_says_why(tmp_path: Path) -> None:
    res = run("--lang", "en", "replay", GRAZ, "--board", "3", "--dd")  # both defenders out
    assert res.exit_code == 0, res.output
    assert ("Double dummy: nothing to analyse: both defenders dropped out: no card was "
            "played (P9)") in res.output
    gave_up = tmp_path / "graz.ppn"  # board 3's declarer (N) gives up instead
    gave_up.write_text(Path(GRAZ).read_text("utf-8").replace('[Dropout "E S"]',
                                                             '[Dropout "N"]', 1), "utf-8")
    res = run("--lang", "sv", "replay", str(gave_up), "--board", "3", "--dd")
    assert "Dubbeldummy: inget att analysera: spelföraren lade sig: inget kort spelades (P9)" \
        in res.output, res.output
    unknown = tmp_path / "unknown.ppn"  # a hand not known: the play cannot be followed
    unknown.write_text(Path(GRAZ).read_text("utf-8").split('[Board "2"]')[0].replace(
        '[Deal "', '[Deal "?', 1), "utf-8")
    res = run("--lang", "en", "replay", str(unknown), "--dd")
    assert "Double dummy: no play to analyse (a hand or the play is not known)" in res.output, \
        res.output


def test_the_mark_beside_a_card_is_explained_once() -> None:
    legend = ("−1 beside a card: it gave away one trick against double-dummy best play (all "
              "hands known); the cards in brackets would have kept it")
    res = run("--lang", "en", "replay", GRAZ, "--dd")
    assert res.exit_code == 0 and res.output.count(legend) == 1 and "−1 (best" in res.output
    assert res.output.index("−1 (best") < res.output.index(legend)
    assert "(♠K −1: ♠K gave away one trick against best play with all hands known)" in " ".join(
        run("--lang", "en", "replay", "--help").output.split())


def test_headline_counts_one_trick_and_one_seat() -> None:
    from priffe_records.dd import PlayAnalysis
    from priffe_records.game.cards import Seat
    from priffe_records.replay.dd import DDView, headline

    def line(side: set[Seat], par: int, goal: str = "most") -> str:
        return str(headline(DDView(par, frozenset(side), goal, PlayAnalysis(par, (), True))))

    with use_language("en"):
        assert line({Seat.S}, 1) == "Double dummy: S takes 1 trick with best play by all"
        assert line({Seat.S}, 7) == "Double dummy: S takes 7 tricks with best play by all"
        assert line({Seat.N, Seat.S}, 1, "fewest") == ("Double dummy: NS take 1 trick with "
                                                        "best play by all, wanting the fewest")
    with use_language("sv"):
        assert line({Seat.E, Seat.W}, 1) == "Dubbeldummy: ÖV tar 1 stick med bästa spel av alla"


def test_without_dd_nothing_is_analysed() -> None:
    res = run("--lang", "en", "replay", GRAZ, "--board", "1")
    assert "Double dummy" not in res.output


def test_serve_deal_page_shows_the_stored_analysis(tmp_path: Path) -> None:
    """``priffe serve`` shows what ``priffe analyse`` stored (it does not search itself),
    in the browser's language; a deal without one shows none."""
    pytest.importorskip("datasette")
    from priffe_records.cli.serve import build

    db = imported_archive(tmp_path, Path(GRAZ))
    assert run("analyse", str(db), "--nodes", "200000", "-j", "1").exit_code == 0
    board1 = _rows(db, "SELECT id FROM deals WHERE board = '1'")
    board2 = _rows(db, "SELECT id FROM deals WHERE board = '2'")
    _rows(db, f"DELETE FROM dd_deals WHERE deal_id = {board2}")
    ds = build(str(db), None)

    def page(deal: int, accept: str) -> str:
        res = run_async(ds.client.get(f"/klubb/deals/{deal}/replay",
                                      headers={"Accept-Language": accept}))
        assert res.status_code == 200
        return str(res.text)

    en = page(board1, "en")
    assert '<section class="dd" lang="en"><pre>Double dummy: S takes 7 tricks with best play ' \
           'by all\ntrick 1: S ♣7' in en
    assert "Dubbeldummy: S tar 7 stick" in page(board1, "sv-SE")
    assert 'class="dd"' not in page(board2, "en")


def _rows(db: Path, sql: str) -> int:
    conn = sqlite3.connect(db)
    try:
        row = conn.execute(sql).fetchone()
        conn.commit()
        return int(row[0]) if row else 0
    finally:
        conn.close()


def test_a_step_shows_the_trick_just_played_and_analyses_only_its_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from priffe_records.cli import replay as cli_replay
    from priffe_records.replay import dd as replay_dd
    from priffe_records.rules.family import default_family

    records = list(loads(Path(GRAZ).read_text("utf-8"), errors="collect"))
    replays = cli_replay.replays_of(records, default_family().presets["sv"])
    searched: list[str | None] = []
    real = replay_dd.analyse

    def counted(record: Record, budget: Budget, **how: Any):  # type: ignore[no-untyped-def]
        searched.append(record.get("Board"))
        return real(record, budget, **how)

    monkeypatch.setattr(replay_dd, "analyse", counted)
    notes = cli_replay._Analyses(60.0)
    with use_language("en"):
        lines = notes.text(replays[0], 3).splitlines()
        assert notes.text(replays[0], 0).splitlines() == lines[:1]  # the deal: its value
    assert lines[0].startswith("Double dummy: S takes 7") and lines[1].startswith("trick 3: ")
    assert lines[2].startswith("−1 beside a card: ")  # said under the first −1 shown
    assert len(lines) == 3 and searched == ["1"]  # once, and only the deal shown


class _Terminal(io.StringIO):
    """stderr as a terminal: what the progress line writes, kept."""

    def isatty(self) -> bool:
        return True


def _uppsala_replays() -> list[Any]:
    from priffe_records.cli import replay as cli_replay

    return cli_replay.replays_of(list(loads(Path(UPPSALA).read_text("utf-8"))), None)


def test_a_terminal_sees_one_progress_line_erased_before_the_replay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from priffe_records.cli import replay as cli_replay

    board_2 = _uppsala_replays()[1]
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with use_language("en"):
        lines = cli_replay._Analyses(0.6).text(board_2).splitlines()
    assert lines[0].endswith("(the budget ran out)")
    drawn = screen.getvalue().split("\r")
    assert drawn[0] == "" and drawn[-1] == "\x1b[K"  # redrawn in place, then erased
    assert drawn[1].startswith("Double dummy, board 2: ")
    # the count of tricks known goes up as the sweep goes back from the last trick
    counts = []
    for frame in drawn[1:-1]:
        found = re.fullmatch(r"Double dummy, board 2: (?:searching|(\d+) of 13 tricks analysed "
                             r"\(from trick (\d+) on\)), [01] s of 1 s\x1b\[K", frame)
        assert found, frame
        if found[1]:
            assert int(found[1]) + int(found[2]) == 14
            counts.append(int(found[1]))
    assert counts and counts == sorted(counts), counts


def test_piped_stderr_gets_no_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    from priffe_records.cli import replay as cli_replay

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert cli_replay._Analyses(0.2).text(_uppsala_replays()[1])
    assert sys.stderr.getvalue() == ""
    res = run("--lang", "en", "replay", UPPSALA, "--board", "2", "--dd", "--dd-budget", "0.2")
    assert res.exit_code == 0 and res.stderr == ""


def test_first_ctrl_c_shows_what_is_known_a_second_one_ends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first Ctrl-C during a search stops it (the deal is shown with the cards known);
    during a later deal's search Ctrl-C is no longer kept: the replay ends (exit 130)."""
    from priffe_records.cli import replay as cli_replay

    def ctrl_c(self: object, p: Any) -> None:
        if p.analysed >= 8:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stderr", _Terminal())
    monkeypatch.setattr(cli_replay._ProgressLine, "show", ctrl_c)
    notes = cli_replay._Analyses(60.0)
    board_1, board_2 = _uppsala_replays()[:2]
    with use_language("en"):
        lines = notes.text(board_2).splitlines()
    assert lines[0] == ("Double dummy: the value at the start is not analysed yet (stopped "
                        "by Ctrl-C)")
    assert lines[-2] == "trick 13: E ♦10  S ♠Q  W ♠7  N ♥A" and lines[-1] == "? not analysed yet"
    with use_language("sv"):
        assert notes.text(board_2).startswith("Dubbeldummy: värdet vid start är inte "
                                              "analyserat än (avbrutet med Ctrl-C)")
    with pytest.raises(KeyboardInterrupt):
        notes.text(board_1)


def _on_a_terminal(args: list[str], marks: list[bytes]) -> tuple[int, str, str]:
    """``priffe ARGS`` with stderr on a pseudo-terminal; SIGINT to its process group once
    the progress line has drawn each of ``marks`` (in turn, each after the last SIGINT).
    Exit status, stdout, stderr as drawn."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PRIFFE_LANG": "en"}
    proc = subprocess.Popen([*priffe_process(), *args],
                            stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL,
                            env=env, start_new_session=True, preexec_fn=interruptible)
    os.close(follower)
    drawn, seen = b"", 0
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        if select.select([leader], [], [], 0.05)[0]:
            try:
                drawn += os.read(leader, 4096)
            except OSError:
                break
        if marks and marks[0] in drawn[seen:]:
            os.killpg(proc.pid, signal.SIGINT)
            seen = len(drawn)
            marks = marks[1:]
    out = proc.communicate(timeout=300)[0].decode()
    os.close(leader)
    return proc.returncode, out, drawn.decode()


@pytest.mark.slow
def test_ctrl_c_on_a_terminal_stops_the_search_and_leaves_no_process() -> None:
    budget = "121.25"  # names this test's processes
    code, out, drawn = _on_a_terminal(["replay", UPPSALA, "--board", "2", "--dd",
                                       "--dd-budget", budget], [b"(from trick 6 on)"])
    assert code == 0, (out, drawn)
    assert "Double dummy: the value at the start is not analysed yet (stopped by Ctrl-C)" in out
    assert "trick 6: S ♦9 −1 (best ♠Q ♠5 ♥8)" in out  # reached before the Ctrl-C
    assert drawn.startswith("\rDouble dummy, board 2: ") and drawn.endswith("\r\x1b[K")
    left = subprocess.run(["pgrep", "-f", f"--dd-budget {budget}"], capture_output=True)
    assert left.stdout == b"", "a worker was left behind"


@pytest.mark.slow
def test_a_second_ctrl_c_on_a_terminal_ends_the_replay() -> None:
    # The first Ctrl-C while board 2 (the longest search) runs, the second once board 5's
    # (a Passnoll, seconds long) is drawn: a mark that can be drawn and passed within one
    # read of the terminal (board 1, a positive deal, takes milliseconds) would send the
    # first Ctrl-C into the next deal and the second never, and the replay ran to its end.
    code, out, _ = _on_a_terminal(["replay", UPPSALA, "--dd", "--dd-budget", "30"],
                                  [b"board 2: ", b"board 5: "])
    assert code == 130 and "(stopped by Ctrl-C)" in out


def test_a_lost_search_costs_only_its_deal(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    """The worker killed during board 2 (as out of memory): that deal says so where its
    analysis would be, the others are replayed and analysed, the exit status is 1."""
    from test_dd_api import kill_the_worker

    from priffe_records.cli import replay as cli_replay

    real_init = cli_replay._ProgressLine.__init__

    def on_a_terminal(self: Any, board: str | None, budget: float) -> None:
        real_init(self, board, budget)
        self.live = True  # the runner's stderr is not a terminal

    def show(self: Any, p: Any) -> None:
        if self.board == "2":
            kill_the_worker(p)

    monkeypatch.setattr(cli_replay._ProgressLine, "__init__", on_a_terminal)
    monkeypatch.setattr(cli_replay._ProgressLine, "show", show)
    res = run("--lang", "en", "replay", UPPSALA, "--board", "2", "--dd")
    assert res.exit_code == 1
    assert res.output.rstrip().endswith("Double dummy: the search ended without an answer "
                                        "(its process ended, exit code -9)")
    res = run("--lang", "sv", "replay", UPPSALA, "--rubber", "1", "--dd")
    assert res.exit_code == 1 and res.output.count("Dubbeldummy: sökningen slutade utan svar") == 1
    assert res.output.count("Dubbeldummy: NS tar") + res.output.count("Dubbeldummy: ÖV tar") >= 2
    page = tmp_path / "p.html"
    res = run("--lang", "en", "replay", UPPSALA, "--board", "2", "--dd", "--html", str(page))
    assert res.exit_code == 1 and "record 2: Double dummy: the search ended" in res.stderr
