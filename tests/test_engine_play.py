"""The one replay of each family: clean tricks decided on card ids and kept as ints, built
into :class:`Trick` objects only when read, and the same tricks then as a worded replay."""

from __future__ import annotations

from dataclasses import replace

from preference_support import BOARD1, board1_with, swapped

from priffe_records import loads
from priffe_records.format.record import Record, Section
from priffe_records.game.cards import Deal, Seat
from priffe_records.rules.preference.analysis import analyse
from priffe_records.rules.priffe import play
from priffe_records.rules.priffe.generate import PartieSpec, generate_partie

TEXT = """[Event "x"]
[Scoring "Preference"]
[Play "N"]
SA SK   SQ
HA {a comment} HK HQ
  D7 D8
*
"""


def test_a_sections_line_starts_are_read_without_building_its_tokens() -> None:
    rec = next(iter(loads(TEXT, errors="collect")))
    assert isinstance(rec, Record) and rec.play is not None
    starts = rec.play.line_starts()  # tokens not built yet
    assert starts == (0, 3, 6, 8)
    lines = [t.location.line for t in rec.play.tokens if t.location]
    assert starts == tuple(i for i in range(len(lines)) if not i or lines[i] != lines[i - 1])
    assert rec.play.line_starts() == starts  # the same from the built tokens
    assert Section(tuple(replace(t, location=None) for t in rec.play.tokens)).line_starts() \
        is None


def test_a_clean_preference_play_builds_its_tricks_only_when_read() -> None:
    o = analyse(next(iter(loads(BOARD1))))
    assert o.play is not None and not o.play.findings
    assert not o.play.built
    tricks = o.play.tricks
    assert o.play.built and len(tricks) == 10
    assert [t.leader for t in tricks[1:]] == [t.winner for t in tricks[:-1]]  # P10
    assert {s: sum(t.winner is s for t in tricks) for s in o.play.seats} == o.play.won


def test_a_preference_revoke_is_worded_where_it_is_and_later_tricks_stay_clean() -> None:
    rec = next(iter(loads(board1_with(swapped(1, 2, 2, 2)), errors="collect")))
    assert isinstance(rec, Record)
    o = analyse(rec)
    assert o.play is not None and o.play.findings
    worded = [t.number for t in o.play.tricks if t.findings]
    assert worded and all(n <= 3 for n in worded)
    assert all(p.legal for t in o.play.tricks[3:] for p in t.cards)


def test_a_clean_priffe_play_keeps_ints_and_its_rows_need_no_trick() -> None:
    rec = generate_partie(5, PartieSpec(claim_rate=0.0), rubbers=1)[0]
    assert rec.play is not None
    lead, deal = Seat.parse(str(rec.get("Play"))), Deal.parse(str(rec.get("Deal")))
    res = play.replay(rec.play, lead, deal, None)
    rows = res.rows()
    assert not res.built and len(rows) == 13
    assert rows == tuple((t.number, t.leader, t.winner,
                          tuple({p.seat: p.token.text for p in t.cards}.get(s)
                                for s in (Seat.N, Seat.E, Seat.S, Seat.W)))
                         for t in res.tricks)
