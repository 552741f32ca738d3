"""What the archive stores of a Préférence deal, as plain column values.

The archive (``archive/engine.py``) asks the family for these through its hooks: what
the partie's books computed of a deal (declarer, made, calls, tricks, the pot and each
seat's change of balance), and its own view. A Préférence partie has no rubbers, and the
claimed-points columns are Priffe's two-side totals, which a Préférence record does not
write. Keys are the archive's column names.
"""

from __future__ import annotations

from typing import Any

from priffe_records.game.cards import SEATS

from .books import PrefLine


def deal_columns(line: PrefLine) -> dict[str, Any]:
    """The books' view of a deal; a contract or declarer they did not get are left out
    (the record's own stay)."""
    o = line.outcome
    calls = tuple((c.seat.value, c.bid.value if c.bid is not None else c.token.text)
                  for c in o.auction.calls) if o.auction is not None else ()
    tricks: list[tuple[int, str | None, str | None, str | None, str | None, str | None,
                       str | None]] = []
    for t in o.play.tricks if o.play is not None else ():
        by_seat = {p.seat: p.token.text for p in t.cards}
        c_n, c_e, c_s, c_w = (by_seat.get(seat) for seat in SEATS)
        tricks.append((t.number, t.leader.value if t.leader else None,
                       t.winner.value if t.winner else None, c_n, c_e, c_s, c_w))
    made = None
    if o.declarer is not None and (o.tricks is not None or o.no_play):
        made = int(not o.gave_up and (o.tricks is None or o.tricks.get(o.declarer, 0) >= 6))
    changes: tuple[tuple[str, int], ...] = ()
    if line.score is not None:
        changes = tuple((s.value, v - line.ante) for s, v in line.score.items())
    out: dict[str, Any] = {"made": made, "calls": calls, "tricks": tuple(tricks),
                           "pot": line.pot, "balance_changes": changes}
    if o.contract is not None:
        out["contract"] = o.contract.value
    if o.declarer is not None:
        out["declarer"] = o.declarer.value
    return out


VIEWS: dict[str, str] = {
    # Each player's balance summed over every partie (antes included).
    "preference_standings": """
SELECT p.id AS player_id, p.name AS player, count(DISTINCT d.partie_id) AS parties,
  count(*) AS deals, sum(s.balance_change) AS balance
FROM seats s JOIN players p ON p.id = s.player_id JOIN deals d ON d.id = s.deal_id
WHERE d.game = 'Preference'
GROUP BY p.id ORDER BY balance DESC""",
}
