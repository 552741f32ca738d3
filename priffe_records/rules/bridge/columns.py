"""What the archive stores of a bridge deal, as plain column values keyed by the
archive's column names (``archive/engine.py`` asks through the family's hooks)."""

from __future__ import annotations

from typing import Any

from priffe_records.format.record import Record
from priffe_records.game.cards import SEATS, Side
from priffe_records.rules.findings import Finding

from .analysis import BridgeOutcome
from .auction import seat_tag
from .scoring import side_numbers


def claim_columns(record: Record) -> tuple[dict[str, Any], tuple[Finding, ...]]:
    """The Score tag's claim as North-South's and East-West's points."""
    declarer = seat_tag(record, "Declarer")
    claimed = side_numbers(record.get("Score"), declarer, False) if declarer else None
    if claimed is None or declarer is None:
        return {}, ()
    ns = claimed[0] if declarer.side is Side.NS else -claimed[0]
    return {"claimed_score_ns": ns, "claimed_score_ew": -ns}, ()


def deal_columns(o: BridgeOutcome) -> dict[str, Any]:
    """The checked deal: contract, declarer, calls, tricks, made, slam and score."""
    out: dict[str, Any] = {
        "calls": tuple((c.seat.value, c.text) for c in o.auction.calls) if o.auction else (),
        "tricks": tuple(
            (t.number, t.leader.value if t.leader else None,
             t.winner.value if t.winner else None,
             *({p.seat: p.token.text for p in t.cards}.get(s) for s in SEATS))
            for t in (o.play.tricks if o.play else ()))}
    if o.contract is not None:
        out["contract"] = str(o.contract)
        out["slam"] = {6: "small", 7: "grand"}.get(o.contract.level)
    if o.declarer is not None:
        out["declarer"] = o.declarer.value
        out["declaring_side"] = o.declarer.side.value
        if o.tricks is not None:
            ns = o.tricks if o.declarer.side is Side.NS else 13 - o.tricks
            out["tricks_ns"], out["tricks_ew"] = ns, 13 - ns
            if o.contract is not None:
                out["made"] = int(o.tricks >= o.contract.tricks_needed)
    if o.score is not None:
        out["score_ns"], out["score_ew"] = o.score, -o.score
    return out
