"""What the archive stores of a Priffe deal and rubber, as plain column values.

The archive (``archive/engine.py``) asks the family for these through its hooks and
never reads a Priffe type itself: the claims a record writes (Score, ScoreRubber,
Result), what the rubber books computed of a deal, and a rubber's end with its
settlement. Keys are the archive's column names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from priffe_records.format.record import PLAYER_TAGS, Record
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import SEATS, Seat
from priffe_records.game.language import msg
from priffe_records.rules.findings import Finding, warning
from priffe_records.rules.priffe.rubber import DealLine, RubberEnd, parse_settlement
from priffe_records.rules.priffe.scoring import (
    ClaimTooLarge,
    SidePoints,
    declaring_side,
    parse_points,
)

_INT64 = 2**63 - 1


def _known(value: str | None) -> str | None:
    return None if is_unspecified(value, dash=True) else value


def _pair(value: str | None) -> SidePoints | None:
    """Claimed points, when they read and fit a SQLite integer (the engine reports absurd
    ones)."""
    text = _known(value)
    try:
        p = parse_points(text) if text is not None else None
    except ValueError:
        return None
    return None if p is None or max(abs(p.ns), abs(p.ew)) > _INT64 else p


# The claims whose numbers go to integer columns, with the rule each belongs to.
_CLAIMS = (("Score", "R15"), ("ScoreRubber", "R23"), ("Settlement", "R23"))
_LONG_NUMBER = re.compile(r"\d{19}")  # 2**63 has 19 digits: shorter numbers always fit


def _numbers(tag: str, text: str) -> Iterable[int]:
    try:
        if tag == "Settlement":
            return parse_settlement(text).values()
        points = parse_points(text)
    except ClaimTooLarge:
        return (_INT64 + 1,)  # the rules report it where they read it; the archive says why
    except ValueError:
        return ()  # not a claim at all: the rules say so
    return (points.ns, points.ew)


def _unstorable(record: Record) -> tuple[Finding, ...]:
    """A located warning for each claimed number a SQLite integer cannot hold: its
    column stays empty, so the archive says why, at the tag (the text keeps it)."""
    out = []
    for tag, rule in _CLAIMS:
        text = _known(record.get(tag))
        if text is None or _LONG_NUMBER.search(text) is None:
            continue
        if any(abs(n) > _INT64 for n in _numbers(tag, text)):
            found = record.tag(tag)
            where = (found.value_location or found.location) if found is not None else None
            out.append(warning(rule, msg(
                "{tag} \"{value}\": a number beyond 2**63 cannot be stored as a number; the "
                "archive keeps it in the record's text only", tag=tag, value=text),
            where or record.location))
    return tuple(out)


def claim_columns(record: Record) -> tuple[dict[str, Any], tuple[Finding, ...]]:
    """The columns the record's own claims give, and why a claimed number is not stored."""
    score, total = _pair(record.get("Score")), _pair(record.get("ScoreRubber"))
    tricks = _pair(record.get("Result"))
    return {"tricks_ns": tricks.ns if tricks else None,
            "tricks_ew": tricks.ew if tricks else None,
            "claimed_score_ns": score.ns if score else None,
            "claimed_score_ew": score.ew if score else None,
            "claimed_rubber_ns": total.ns if total else None,
            "claimed_rubber_ew": total.ew if total else None}, _unstorable(record)


def deal_columns(line: DealLine) -> dict[str, Any]:
    """What the rubber books computed of a deal; a contract or tricks the engine did not
    get are left out (the record's own stay)."""
    o = line.outcome
    decl_side = declaring_side(o.contract, o.declarer) if o.contract is not None else None
    score = o.score
    calls = tuple((c.seat.value, c.call.value if c.call is not None else c.token.text)
                  for c in o.auction.calls) if o.auction is not None else ()
    # Cards as the reader canonicalised them (or "-"); a clean play builds no Trick.
    tricks = tuple((n, leader.value if leader else None, winner.value if winner else None,
                    c[0], c[1], c[2], c[3])
                   for n, leader, winner, c in (o.play.rows() if o.play is not None else ()))
    out: dict[str, Any] = {
        "rubber": line.rubber,
        "declarer": o.declarer.value if o.declarer is not None else None,
        "declaring_side": decl_side.value if decl_side is not None else None,
        "made": None if score is None or decl_side is None else int(not score.penalty),
        "scoring_side": score.scoring_side.value if score is not None else None,
        "scoring_tricks": score.n if score is not None else None,
        "penalty_tricks": (score.n if score.penalty else 0) if score is not None else None,
        "slam": {6: "small", 7: "grand"}.get(score.n) if score is not None else None,
        "score_ns": score.total.ns if score is not None else None,
        "score_ew": score.total.ew if score is not None else None,
        "rubber_ns": line.totals.ns if line.totals is not None else None,
        "rubber_ew": line.totals.ew if line.totals is not None else None,
        "calls": calls, "tricks": tricks}
    if o.contract is not None:
        out["contract"] = o.contract.value
    if o.tricks is not None:
        out["tricks_ns"], out["tricks_ew"] = o.tricks.ns, o.tricks.ew
    return out


def rubber_columns(end: RubberEnd, last: Record | None) -> dict[str, Any]:
    """A rubber's result; settlement names come from its last deal's tags (the engine
    labels a nameless seat "North", which is no player)."""
    claimed: dict[Seat, int] = {}
    text = _known(last.get("Settlement")) if last is not None else None
    if text is not None:
        try:
            claimed = {seat: n for seat, n in parse_settlement(text).items()
                       if abs(n) <= _INT64}
        except ValueError:
            claimed = {}
    names = {s: _known(last.get(PLAYER_TAGS[s])) for s in SEATS} if last is not None else {}
    computed = {seat: points for seat, _, points in end.settlement}
    settlements = tuple((seat.value, names.get(seat), computed.get(seat), claimed.get(seat))
                        for seat in SEATS if seat in computed or seat in claimed)
    totals = end.totals
    return {"number": end.rubber, "complete": int(end.finished),
            "winner": end.winner.value if end.winner is not None else None,
            "total_ns": totals.ns if totals is not None else None,
            "total_ew": totals.ew if totals is not None else None,
            "settlements": settlements}
