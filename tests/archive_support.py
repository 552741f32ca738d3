"""Shared data and helpers for the archive tests (imported by tests/test_archive*.py)."""

from __future__ import annotations

import asyncio
import contextvars
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from priffe_records.archive.classify import canonical_text, content_hash
from priffe_records.cli import cli
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.format.writer import write
from priffe_records.rules.priffe.generate import PartieSpec, generate_partie

# A hand-written file: file-level % lines, leading comments, comments after
# tags, calls and cards, a record that breaks R15 (its Score), and a record
# that cannot be read (its Board tag pair is not closed, so its place in the
# partie is unknown; a misspelt call alone would cost only its auction). Names
# are Swedish, with diacritics.
MESSY = """\
% PPN 1.0
% EXPORT
{Klubbens första kväll}
[Event "Klubbkväll"]
[Site "Västerås"]
[Date "2026.11.29"]
[Rubber "1"]
[Board "1"]
[West "David"]
[North "Åsa"]
[East "Bertil"]
[South "Cecilia"]
[Dealer "N"]
[Deal "N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742"]
[Scoring "Priffe"]
[Declarer "E"]
[Contract "Hjärter"] {ett djärvt bud}
[Result "NS 10 EW 3"]
[Auction "E"]
Hjärter Pass Pass Pass
[Play "E"]
H9 H2 H4 HA {North takes the first trick}
H3 HQ HJ H7
D7 D6 D9 DA
D2 DJ D5 DQ
SA C5 C4 C6
S4 S7 S3 SK
DT C8 C9 CQ
HT S2 CT CJ
S6 ST S5 SJ
D4 DK C7 CK
H6 S9 C2 CA
H8 HK H5 C3
D8 S8 SQ D3
[Score "NS 80 EW 0"]
[ScoreRubber "NS 90 EW 0"]

[Event "Klubbkväll"]
[Site "Västerås"]
[Date "2026.11.29"]
[Rubber "1"]
[Board "2"]
[West "David"]
[North "Åsa"]
[East "Bertil"]
[South "Cecilia"]
[Dealer "E"]
[Declarer "N"]
[Contract "Spela"]
[Result "NS 13 EW 0"]
[Score "NS 80 EW 0"] ; storslam?
[Honours "NS 0 EW 0"]

[Event "Klubbkväll"]
[Site "Västerås"]
[Date "2026.11.29"]
[Board "3" x]
[Auction "S"]
Hjärterr Pass
"""


def run(*args: str, input: str | None = None) -> Result:
    """``priffe ARGS`` in-process; stdout and stderr are kept apart."""
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def partie_file(path: Path, seed: int, *, rubbers: int = 1, event: str = "Torsdagspriffe",
                site: str = "Lund", players: tuple[str, str, str, str] = (
                    "Anna", "Bertil", "Cecilia", "David"),
                date: str = "2026.10.01") -> Path:
    """A generated, legal partie written as a PPN file (comments included)."""
    spec = PartieSpec(players, event, site, date, rubbers=rubbers, comments=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    write(generate_partie(seed, spec), path)
    return path


def big_file(path: Path, parties: int, seed: int = 1) -> Path:
    """Many parties in one file (different dates, so many parties and rubbers)."""
    records = []
    for i in range(parties):
        spec = PartieSpec(("Elsa", "Gustav", "Ingrid", "Karl"), "Höstpartiet", "Gävle",
                          f"2025.{1 + i // 28:02d}.{1 + i % 28:02d}", rubbers=1)
        records += generate_partie(seed + i, spec)
    write(records, path)
    return path


def count(db: Path, table: str = "deals") -> int:
    with sqlite3.connect(db) as conn:
        n: int = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    conn.close()
    return n


def consistent(db: Path) -> None:
    """The database passes SQLite's integrity and foreign-key checks, and FTS is in step."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        conn.execute("INSERT INTO deals_fts(deals_fts) VALUES ('integrity-check')")
        deals = conn.execute("SELECT count(*) FROM deals").fetchone()[0]
        assert conn.execute("SELECT count(*) FROM deals_fts").fetchone()[0] == deals
    finally:
        conn.close()


def priffe_process() -> list[str]:
    """The command line that runs ``priffe`` in a fresh interpreter (this one's environment)."""
    return [sys.executable, "-c", "from priffe_records.cli import main; main()"]


def stall_after(after: int) -> None:
    """Make this process's imports stop (sleep) after ``after`` records of a file, inside
    its transaction, so a test can kill it mid-file deterministically."""
    import click

    from priffe_records.cli import archive

    original = archive._Progress.file

    @contextmanager
    def file(self: archive._Progress, path: Path) -> Iterator[Callable[[int, int], None]]:
        with original(self, path) as tick:
            def stalling(done: int, records: int) -> None:
                tick(done, records)
                if records == after:
                    click.echo("priffe: test stall", err=True)
                    time.sleep(600)
            yield stalling

    archive._Progress.file = file  # type: ignore[method-assign]


def stalling_process(after: int) -> list[str]:
    """``priffe`` in a fresh interpreter whose imports stall (see :func:`stall_after`)."""
    here = str(Path(__file__).parent)
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {here!r}); "
            f"import archive_support; archive_support.stall_after({after}); "
            "from priffe_records.cli import main; main()"]


def interruptible() -> None:
    # A job started with '&' by a shell without job control (a CI runner, a script)
    # inherits SIGINT ignored, and Python then never raises KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str, env: dict[str, str] | None = None,
          command: list[str] | None = None) -> subprocess.Popen[str]:
    """The installed command in its own process, interruptible by SIGINT like one run by hand."""
    return subprocess.Popen([*(command or priffe_process()), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=interruptible)


# Each table an import fills, with its ids and paths turned into what they point at
# (deal text, partie identity, rubber number, player name): two archives that hold the
# same facts compare equal however their ids were given and whichever file came first.
_DEAL = "(SELECT hash FROM deals WHERE id = t.deal_id)"
_PARTIE = "(SELECT identity FROM parties WHERE id = t.partie_id)"
_RUBBER = ("(SELECT p.identity || ' #' || r.number FROM rubbers r JOIN parties p "
           "ON p.id = r.partie_id WHERE r.id = t.rubber_id)")
_PLAYER = "(SELECT name FROM players WHERE id = t.player_id)"
NATURAL = {
    "parties": "SELECT event, site, date, identity FROM parties t",
    "players": "SELECT name, folded FROM players t",
    "rubbers": f"SELECT {_PARTIE}, number, complete, winner, total_ns, total_ew FROM rubbers t",
    "seats": f"SELECT {_DEAL}, seat, side, {_PLAYER}, balance_change FROM seats t",
    "calls": f"SELECT {_DEAL}, idx, seat, call FROM calls t",
    "tricks": f"SELECT {_DEAL}, number, leader, winner, card_n, card_e, card_s, card_w "
              "FROM tricks t",
    "findings": f"SELECT {_DEAL}, {_PARTIE}, rule, severity, message, line, col, message_json "
                "FROM findings t",
    "settlements": f"SELECT {_RUBBER}, seat, {_PLAYER}, points, claimed FROM settlements t",
}
# Deals: every column but the ids, the source file and the import time.
_NOT_DEAL = {"id", "partie_id", "rubber_id", "source", "imported_at"}


def natural_tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table an import computes, rows sorted, without ids, paths and times."""
    conn = sqlite3.connect(db)
    try:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(deals)") if r[1] not in _NOT_DEAL]
        queries = {**NATURAL, "deals": f"SELECT {_PARTIE}, {_RUBBER}, {', '.join(cols)} "
                                       "FROM deals t"}
        return {table: sorted(conn.execute(sql).fetchall(), key=repr)
                for table, sql in queries.items()}
    finally:
        conn.close()


def distinct_texts(records: list[Record | BadRecord]) -> int:
    """How many different texts these records are (the archive stores each once)."""
    return len({content_hash(r.text if isinstance(r, BadRecord) else canonical_text(r))
                for r in records})


def by_table(stats_json: str) -> dict[str, list[dict[str, object]]]:
    """``priffe stats --json``'s rows grouped by their ``table`` key (the key removed)."""
    import json

    tables: dict[str, list[dict[str, object]]] = {}
    for row in json.loads(stats_json):
        tables.setdefault(str(row.pop("table")), []).append(row)
    return tables


def run_async(coro: Coroutine[Any, Any, Any]) -> Any:
    """``asyncio.run`` in a thread of its own, in this thread's context (the language):
    Playwright's sync API, when a browser test started it, keeps an event loop running here."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(contextvars.copy_context().run, asyncio.run, coro).result()


def imported_archive(folder: Path, *paths: Path) -> Path:
    """A new archive ``folder/klubb.db`` with ``paths`` imported by the command."""
    db = folder / "klubb.db"
    res = CliRunner().invoke(cli, ["import", "--db", str(db), *map(str, paths)])
    assert res.exit_code == 0, res.output
    return db
