"""A self-contained HTML hand viewer: one file, no network, inline CSS and JavaScript.

The page is the template ``replay.html`` with the deals embedded as JSON in
a ``<script type="application/json">``. Every user-supplied string (names,
event, commentary) reaches the browser only as JSON data that the page puts
into the DOM with ``textContent``; and ``<``, ``>`` and ``&`` are written as
``\\u003c`` … so no string can end the script element. A Content-Security-
Policy forbids every load from outside, so the file works offline and stays
inert if opened from an untrusted place.

>>> safe_json({"name": "</script><b>&"})
'{"name": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from html import escape
from importlib import resources

from priffe_records.format.atomic import write_text_atomically
from priffe_records.game.cards import SEATS, SUITS, Card, Seat
from priffe_records.replay.model import DealReplay, TrickView
from priffe_records.replay.preference import PrefReplay, pref_deal_data
from priffe_records.replay.wording import (
    Words,
    calls_text,
    check_lines,
    contract_line,
    honours_line,
    hs_text,
    roles,
    score_lines,
    seat_label,
    summary_line,
    title,
    where,
)

MARKER = "/*__PRIFFE_DATA__*/"
_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
            "\u2029": "\\u2029"}


def safe_json(data: object) -> str:
    """JSON that can sit inside a ``<script>`` element whatever the strings hold."""
    text = json.dumps(data, ensure_ascii=False)
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _hand(cards: Sequence[Card] | None, w: Words) -> list[str] | None:
    """One string of ranks per suit (S H D C), ``None`` for an unknown hand."""
    if cards is None:
        return None
    return [w.suit_cards([c for c in cards if c.suit is s]) for s in SUITS]


def _card(card: Card | None, w: Words) -> dict[str, object]:
    if card is None:
        return {"text": "?", "red": False}
    return {"text": w.card(card), "red": card.suit.is_red}


def _trick(t: TrickView, w: Words) -> dict[str, object]:
    return {
        "number": t.number,
        "leader": t.leader.value if t.leader else None,
        "winner": t.winner.value if t.winner and t.complete else None,
        "winnerName": w.seat(t.winner) if t.winner and t.complete else "",
        "cards": [{"seat": c.seat.value, **_card(c.card, w), "legal": c.legal,
                   "comments": list(c.comments)} for c in t.cards],
        "ns": t.tally.ns,
        "ew": t.tally.ew,
        "errors": [where(f, w) for f in t.errors],
        "notes": [where(f, w) for f in t.notes],
    }


def _seat(r: DealReplay, seat: Seat, w: Words) -> dict[str, object]:
    marks = [m for m, s in ((w.dealer, r.dealer), (w.forehand, r.forehand)) if s is seat]
    if r.declarer is seat:
        marks.append(w.declarer)
    return {"seat": seat.value, "label": seat_label(r, seat, w), "marks": ", ".join(marks),
            "hs": hs_text(r.hs[seat.index], w)}


def deal_data(r: DealReplay, w: Words) -> dict[str, object]:
    """One deal as the page needs it: every label already in the chosen language."""
    head = {"title": title(r, w), "roles": roles(r, w), "comments": list(r.comments),
            "option": f"{title(r, w)} — {contract_line(r, w)}"}
    if not r.playable:
        return {**head, "summary": summary_line(r, w)}
    steps = len(r.tricks) + 1
    stop_text = (f"{w.stopped}: " + " · ".join(where(f, w) for f in r.stop_errors)
                 if r.stop is not None else None)
    claim = f"{w.claim}: {r.result} (R13)" if r.claimed and r.result and r.stop is None else None
    return {
        **head,
        "summary": None,
        "seats": [_seat(r, s, w) for s in SEATS],
        "left": [[_hand(h, w) for h in r.left(k)] for k in range(steps)],
        "honours": honours_line(r, w) or "",
        "auction": " · ".join(t + ("" if c.legal else " !") for t, c in calls_text(r, w)),
        "auctionErrors": [where(f, w) for c in r.calls for f in c.errors],
        "contract": contract_line(r, w),
        "tricks": [_trick(t, w) for t in r.tricks],
        "stop": stop_text,
        "claim": claim,
        "score": [{"rule": s.rule, "text": s.text} for s in score_lines(r, w)]
        if r.stop is None else [],
        "checks": [line for line, _ in check_lines(r.other_findings, w)],
    }


def page_data(replays: Sequence[DealReplay | PrefReplay], w: Words) -> dict[str, object]:
    labels = {"next": w.next, "previous": w.previous, "trick": w.trick, "lead": w.lead,
              "winner": w.winner, "score": w.score, "checks": w.checks, "auction": w.auction,
              "deal": w.deal_word, "help": w.step_help, "cardsLeft": w.cards_left,
              "seats": {s.value: w.seat(s) for s in SEATS},
              "short": {s.value: w.seat_short(s) for s in SEATS}}
    return {"lang": w.lang, "words": labels,
            "deals": [pref_deal_data(r, w) if isinstance(r, PrefReplay) else deal_data(r, w)
                      for r in replays]}


def template() -> str:
    return resources.files("priffe_records.replay").joinpath("replay.html").read_text("utf-8")


def render_page(replays: Sequence[DealReplay | PrefReplay], w: Words) -> str:
    """The whole page as text: the template with the data dropped in."""
    page = template().replace("<html lang=\"sv\">", f"<html lang=\"{w.lang}\">", 1)
    page = page.replace('aria-label="table"', f'aria-label="{escape(w.card_table)}"', 1)
    return page.replace(MARKER, safe_json(page_data(replays, w)), 1)


def write_page(path: str | os.PathLike[str], replays: Sequence[DealReplay | PrefReplay],
               w: Words) -> None:
    """Write the page atomically: a reader sees the old file or the new one, never half."""
    write_text_atomically(path, render_page(replays, w))
