"""The replay facts hook: a family hands the replay plain facts, the replay imports no family.

Préférence's replay is drawn from its family's facts; Priffe's is still built by
``replay/model.py`` from its outcomes, so its family gives none yet.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from test_family_plugin import TWO_DEALS, with_duel  # noqa: F401 (the fixture)

from priffe_records.cli import cli
from priffe_records.format.reader import loads
from priffe_records.format.record import Record
from priffe_records.game.cards import Seat
from priffe_records.rules.family import family_named
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
    east = f.hands[Seat.E]
    assert east is not None and len(east) == 10
    assert not set(f.discard) & set(east) and set(f.talon) - set(f.discard) <= set(east)
    assert [len(f.hands[s] or ()) for s in (Seat.N, Seat.S)] == [10, 10]
    assert f.seats == (Seat.N, Seat.E, Seat.S)
    assert set(f.order) == set(f.seats) and len(f.tricks) == 10
    assert f.won is not None and sum(f.won.values()) == 10


def test_a_partie_of_another_game_gives_no_preference_facts() -> None:
    priffe = _partie("../golden/replay-example.ppn")
    assert family_named("Preference").replay_facts(priffe) == {}  # type: ignore[arg-type]
    assert family_named("Priffe").replay_facts(priffe) == {}  # type: ignore[arg-type]


@pytest.mark.usefixtures("with_duel")
def test_a_plugin_family_without_the_hook_is_one_located_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A family written before replay_facts (the toy Duel has none yet): its records
    cannot be replayed, said at the Scoring tag, exit 2, no traceback."""
    monkeypatch.delattr(type(family_named("duel")), "replay_facts", raising=False)
    src = tmp_path / "duel.ppn"
    src.write_text(TWO_DEALS, "utf-8")
    res = CliRunner().invoke(cli, ["--lang", "en", "replay", str(src)])
    assert res.exit_code == 2 and res.exception is not None
    assert isinstance(res.exception, SystemExit), res.exception
    assert res.stderr.startswith(f"priffe: {src}:3:11: not a Priffe record")
