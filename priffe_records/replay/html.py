"""A self-contained HTML hand viewer: one file, no network, inline CSS and JavaScript.

The page is the template ``replay.html`` with the deals embedded as JSON in
a ``<script type="application/json">``. Every user-supplied string (names,
event, commentary) reaches the browser only as JSON data that the page puts
into the DOM with ``textContent``; and ``<``, ``>`` and ``&`` are written as
``\\u003c`` … so no string can end the script element. A Content-Security-
Policy forbids every load from outside, so the file works offline and stays
inert if opened from an untrusted place.

>>> safe_json({"name": "</script><b>&"})
'{"name":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from html import escape
from importlib import resources

from priffe_records.format.atomic import write_text_atomically
from priffe_records.game.cards import SEATS, Rank, sorted_cards
from priffe_records.replay.compact import Strings, hand_ids, plays, trick_extras
from priffe_records.replay.model import DealReplay
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
    seat_marks,
    summary_line,
    title,
    where,
)

MARKER = "/*__PRIFFE_DATA__*/"
_ESCAPES = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
            ("\u2029", "\\u2029"))


def safe_json(data: object) -> str:
    """JSON that can sit inside a ``<script>`` element whatever the strings hold (one
    ``replace`` a character: a page of thousands of deals is megabytes)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in _ESCAPES:
        text = text.replace(char, escaped)
    return text


def deal_data(r: DealReplay, w: Words, table: Strings) -> dict[str, object]:
    """One deal as the page draws it, compact: cards as ids, the play as one string,
    repeated texts as numbers into ``table``; every label already in the chosen language.
    The page works out the hands left and the tricks per side after each trick."""
    head: dict[str, object] = {"t": title(r, w), "k": table(contract_line(r, w))}
    if r.comments:
        head["c"] = list(r.comments)
    if not r.playable:
        return {**head, "u": summary_line(r, w)}
    stop_text = (f"{w.stopped}: " + " · ".join(where(f, w) for f in r.stop_errors)
                 if r.stop is not None else None)
    claim = f"{w.claim}: {w.sides(r.result)} ({r.claimed})" \
        if r.claimed and r.result and r.stop is None else None
    talon = tuple(sorted_cards(r.talon)) if r.talon is not None else None
    hands = r.left(0)
    order = "".join(s.value for s in r.order)
    out: dict[str, object] = {
        **head,
        "r": table(roles(r, w)),
        "s": [table(seat_label(r, s, w) if s in r.seats else w.talon if talon else "")
              for s in SEATS],
        "m": [table(seat_marks(r, s, w)) for s in SEATS],
        "q": [table(hs_text(r.hs[s.index], w)) for s in SEATS],
        "d": [hand_ids(hands[s.index] if s in r.seats else talon) for s in SEATS],
        "p": plays(r.tricks, order),
        "h": table(honours_line(r, w) or ""),
        "a": table(" · ".join(t + ("" if c.legal else " !") for t, c in calls_text(r, w))),
        **trick_extras(r.tricks, w),
    }
    if r.tally_heads == tuple(order):  # tricks counted per seat: the seats that play
        out["o"] = order
    auction_errors = [where(f, w) for c in r.calls for f in c.errors]
    if auction_errors:
        out["ae"] = auction_errors
    if stop_text:
        out["st"] = stop_text
    if claim:
        out["cl"] = claim
    if r.stop is None:
        out["sc"] = [table(x) for s in score_lines(r, w) for x in (s.rule, s.text)]
    checks = [line for line, _ in check_lines(r.other_findings, w)]
    if checks:
        out["ch"] = checks
    return out


def page_data(replays: Sequence[DealReplay], w: Words) -> dict[str, object]:
    """The page's data: its words, the table of repeated texts, and every deal."""
    labels = {"next": w.next, "previous": w.previous, "trick": w.trick, "lead": w.lead,
              "winner": w.winner, "score": w.score, "checks": w.checks, "auction": w.auction,
              "deal": w.deal_word, "help": w.step_help, "cardsLeft": w.cards_left,
              "seats": {s.value: w.seat(s) for s in SEATS},
              "short": {s.value: w.seat_short(s) for s in SEATS},
              "ranks": {r.value: w.rank(r) for r in Rank}}
    table = Strings()
    deals = [deal_data(r, w, table) for r in replays]
    return {"lang": w.lang, "words": labels, "strings": table.texts, "deals": deals}


def template() -> str:
    return resources.files("priffe_records.replay").joinpath("replay.html").read_text("utf-8")


def render_page(replays: Sequence[DealReplay], w: Words) -> str:
    """The whole page as text: the template with the data dropped in."""
    page = template().replace("<html lang=\"sv\">", f"<html lang=\"{w.lang}\">", 1)
    page = page.replace('aria-label="table"', f'aria-label="{escape(w.card_table)}"', 1)
    ew = '<span id="side-ew">EW</span>'  # the side's name: ÖV in Swedish
    page = page.replace(ew, ew.replace(">EW<", f">{w.sides('EW')}<"), 1)
    return page.replace(MARKER, safe_json(page_data(replays, w)), 1)


def write_page(path: str | os.PathLike[str], replays: Sequence[DealReplay],
               w: Words) -> None:
    """Write the page atomically: a reader sees the old file or the new one, never half."""
    write_text_atomically(path, render_page(replays, w))
