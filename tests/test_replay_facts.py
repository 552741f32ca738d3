"""The replay facts hook: a family hands the replay plain facts, the replay imports no family.

Both families' replays are drawn from their facts by the one model, terminal drawer and
page; a family answers only for its own parties.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from test_bridge_seam import TWO_DEALS

from priffe_records.cli import cli
from priffe_records.format.reader import loads
from priffe_records.format.record import Record
from priffe_records.game.cards import Seat
from priffe_records.rules.family import ReplayHook, family_named
from priffe_records.rules.partie import parties

DATA = Path(__file__).parent / "data"


def _partie(name: str) -> object:
    return next(iter(parties(list(loads((DATA / name).read_text("utf-8"))))))


def test_preference_facts_give_the_declarers_hand_after_the_discard() -> None:
    """Board 1 of Graz: East takes the talon and discards two, so plays from ten cards
    that are the dealt hand plus the talon less the discard."""
    facts = family_named("Preference").replay_facts(_partie("preference-graz.ppn"))  # type: ignore[arg-type]
    f = facts[1]
    assert isinstance(f.record, Record) and f.index == 1 and f.declarer is Seat.E
    assert f.hands is not None and f.talon is not None and f.discard is not None
    east = f.hands[Seat.E.index]
    assert east is not None and len(east) == 10
    assert not set(f.discard) & set(east) and set(f.talon) - set(f.discard) <= set(east)
    assert [len(f.hands[s.index] or ()) for s in (Seat.N, Seat.S)] == [10, 10]
    assert f.hands[Seat.W.index] is None
    assert f.seats == (Seat.N, Seat.E, Seat.S) and f.tally_heads == ("N", "E", "S")
    assert f.order == f.seats and len(f.tricks) == 10
    assert f.result is not None and sum(f.tricks[-1].tally) == 10


def test_each_family_answers_only_for_its_own_parties() -> None:
    priffe, pref = _partie("../golden/replay-example.ppn"), _partie("preference-graz.ppn")
    assert family_named("Preference").replay_facts(priffe) == {}  # type: ignore[arg-type]
    assert family_named("Priffe").replay_facts(pref) == {}  # type: ignore[arg-type]
    [facts] = family_named("Priffe").replay_facts(priffe).values()  # type: ignore[arg-type]
    assert facts.tally_heads == ("NS", "EW") and facts.tricks[-1].tally == (10, 3)
    assert [s.rule for s in facts.score][-1] == "R19–R21" and facts.honours is not None


def test_a_plugin_family_without_the_hook_is_one_located_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A family without the replay group (bridge given the default, which answers nothing):
    its records cannot be replayed, said at the Scoring tag, exit 2, no traceback."""
    monkeypatch.setattr(type(family_named("bridge")), "replay_facts", ReplayHook.replay_facts)
    src = tmp_path / "bridge.pbn"
    src.write_text(TWO_DEALS, "utf-8")
    res = CliRunner().invoke(cli, ["--lang", "en", "replay", str(src)])
    assert res.exit_code == 2 and res.exception is not None
    assert isinstance(res.exception, SystemExit), res.exception
    assert res.stderr.startswith(f"priffe: {src}:7:11: not a Priffe record")
