"""Draw a :class:`~priffe_records.replay.model.DealReplay` for a terminal with rich.

Kept apart from :mod:`priffe_records.replay.model` so the engine and the model never
import rich. Every user-supplied string (names, event, commentary) goes in as
a :class:`~rich.text.Text`, never as markup, so ``[bold]`` in a name is just
text. :func:`full_view` is the whole deal at once (for pipes and files);
:func:`step_view` is one position of ``--step``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from priffe_records.game.cards import SUITS, Card, Seat
from priffe_records.replay.model import DealReplay, TrickView
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
from priffe_records.rules.findings import Finding

RED = "red"
WINNER = "bold"
ILLEGAL = "bold white on red"
DIM = "dim"
CARD_WIDTH = 9  # "Ö ♥10*" and two spaces: the cards of a trick line up in columns
_SEAT_VALUES = frozenset(s.value for s in Seat)  # a tally head that names one seat


def card_text(card: Card | None, w: Words, style: str = "") -> Text:
    if card is None:
        return Text("-", style=style)
    return Text(w.card(card), style=f"{RED if card.suit.is_red else ''} {style}".strip())


def hand_block(r: DealReplay, seat: Seat, cards: Sequence[Card] | None, w: Words) -> Text:
    """A seat's label, role markers and strength, then one line per suit."""
    out = Text()
    out.append(seat_label(r, seat, w), style="bold")
    second = " · ".join([m for m in (seat_marks(r, seat, w), hs_text(r.hs[seat.index], w))
                         if m])
    if second:
        out.append(f"\n{second}", style=DIM)
    return _suits(out, cards, w)


def _suits(out: Text, cards: Sequence[Card] | None, w: Words) -> Text:
    for suit in SUITS:
        out.append("\n")
        out.append(suit.symbol, style=RED if suit.is_red else "")
        if cards is None:
            out.append(" ?")
            continue
        out.append(" " + w.suit_cards([c for c in cards if c.suit is suit]))
    return out


def trick_centre(trick: TrickView | None, w: Words) -> RenderableType:
    """The cards of one trick placed by seat, in the middle of the table."""
    if trick is None:
        return Text("")
    by = {c.seat: c for c in trick.cards}

    def one(seat: Seat) -> Text:
        c = by.get(seat)
        if c is None:
            return Text("")
        style = ILLEGAL if not c.legal else (WINNER if seat is trick.winner else "")
        t = Text(f"{w.seat_short(seat)} ")
        t.append_text(card_text(c.card, w, style))
        if seat is trick.leader:
            t.append(" ▸", style=DIM)
        return t

    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="left")
    grid.add_column(justify="center")
    grid.add_column(justify="right")
    grid.add_row("", one(Seat.N), "")
    grid.add_row(one(Seat.W), Text(f"{w.trick} {trick.number}", style=DIM), one(Seat.E))
    grid.add_row("", one(Seat.S), "")
    return grid


def compass(r: DealReplay, w: Words, step: int = 0, trick: TrickView | None = None) -> Table:
    """The hands as they sit at the table, North at the top; a game of three has its
    talon in the empty seat."""
    left = r.left(step)

    def block(seat: Seat) -> RenderableType:
        if seat in r.seats:
            return hand_block(r, seat, left[seat.index], w)
        return Text("") if r.talon is None else _suits(Text(w.talon, style="bold"), r.talon, w)

    grid = Table.grid(padding=(0, 3))
    for _ in range(3):
        grid.add_column(min_width=22)
    grid.add_row("", block(Seat.N), "")
    grid.add_row(block(Seat.W), trick_centre(trick, w), block(Seat.E))
    grid.add_row("", block(Seat.S), "")
    return grid


def auction_text(r: DealReplay, w: Words) -> Text:
    out = Text()
    out.append(f"{w.auction}: ", style="bold")
    if not r.calls:
        out.append("—")
    for i, (text, call) in enumerate(calls_text(r, w)):
        if i:
            out.append(" · ")
        out.append(text + ("" if call.legal else " !"), style="" if call.legal else ILLEGAL)
    return out


def trick_table(r: DealReplay, w: Words, upto: int | None = None) -> Table:
    """Trick after trick: cards in the order played, leader ▸, winner bold with ``*``."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column(w.trick, justify="right")
    table.add_column(w.lead)
    table.add_column(w.cards)
    table.add_column(w.winner)
    for head in r.tally_heads:  # a side (NS) as written, a seat as the reader writes it
        table.add_column(w.seat_short(Seat(head)) if head in _SEAT_VALUES else w.sides(head),
                         justify="right")
    shown = r.tricks if upto is None else r.tricks[:upto]
    for t in shown:
        cards = Text()
        for i, c in enumerate(t.cards):
            piece = Text(f"{w.seat_short(c.seat)} ")
            if not c.legal:
                piece.append_text(card_text(c.card, w, ILLEGAL))
                piece.append("!", style=ILLEGAL)
            elif c.seat is t.winner and t.complete:
                piece.append_text(card_text(c.card, w, WINNER))
                piece.append("*", style=WINNER)
            else:
                piece.append_text(card_text(c.card, w))
            if c.annotation is not None:
                piece.append(f" {c.annotation}", style=DIM)
            if i < len(t.cards) - 1:
                piece.pad_right(CARD_WIDTH - piece.cell_len)
            cards.append_text(piece)
        for c in t.cards:
            for note in c.comments:
                cards.append(f"\n  {{{note}}}", style="italic")
        for f in t.notes:
            cards.append("\n? " + where(f, w), style=DIM)
        lead = w.seat(t.leader) if t.leader else "?"
        won = w.seat(t.winner) if t.winner and t.complete else ""
        table.add_row(str(t.number), lead, cards, won, *map(str, t.tally))
    return table


def score_table(r: DealReplay, w: Words) -> Table | None:
    lines = score_lines(r, w)
    if not lines:
        return None
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(style=DIM)
    table.add_column()
    for line in lines:
        table.add_row(line.rule, Text(line.text, style="bold" if line.total else ""))
    return table


def findings_text(found: Sequence[Finding], w: Words) -> Text:
    out = Text()
    out.append(f"{w.checks}:", style="bold")
    for line, is_error in check_lines(found, w):
        out.append("\n" + line, style=RED if is_error else "")
    return out


def header(r: DealReplay, w: Words) -> list[RenderableType]:
    parts: list[RenderableType] = [Text(title(r, w), style="bold"), Text(roles(r, w))]
    for c in r.comments:
        parts.append(Text(f"{{{c}}}", style="italic"))
    return parts


def _play_parts(r: DealReplay, w: Words, upto: int | None) -> list[RenderableType]:
    parts: list[RenderableType] = []
    if r.tricks:
        parts.append(Text(f"{w.play}:", style="bold"))
        parts.append(trick_table(r, w, upto))
    at_end = upto is None or upto >= len(r.tricks)
    if at_end and r.stop is not None:
        parts.append(Text(f"{w.stopped}:", style=RED))
        for f in r.stop_errors:
            parts.append(Padding(Text(where(f, w), style=RED), (0, 0, 0, 2)))
    if at_end and r.stop is None and r.claimed and r.result is not None:
        parts.append(Text(f"{w.claim}: {w.sides(r.result)} ({r.claimed})"))
    if at_end and r.stop is None:
        table = score_table(r, w)
        if table is not None:
            # a line apart from the trick table; with no tricks the contract's gap is enough
            parts.append(Text(f"\n{w.score}:" if r.tricks else f"{w.score}:", style="bold"))
            parts.append(table)
    if at_end and r.other_findings:
        parts.append(findings_text(r.other_findings, w))
    return parts


def _view(r: DealReplay, w: Words, step: int | None, brief: bool = False) -> RenderableType:
    if not r.playable:
        return Text(summary_line(r, w, brief))
    trick = r.tricks[step - 1] if step is not None and 0 < step <= len(r.tricks) else None
    parts = [*header(r, w), Text(""), compass(r, w, step or 0, trick), Text("")]
    hon = honours_line(r, w)
    if hon:
        parts.append(Text(hon))
    parts += [auction_text(r, w), Text(contract_line(r, w)), Text("")]
    parts += _play_parts(r, w, step)
    if step is not None:
        parts.append(Text(w.step_help, style=DIM))
    return Group(*parts)


def full_view(r: DealReplay, w: Words, brief: bool = False) -> RenderableType:
    """The whole deal at once, hands as dealt: what a pipe or a file gets (``brief``: see
    :func:`summary_line`)."""
    return _view(r, w, None, brief)


def step_count(r: DealReplay) -> int:
    """Positions of ``--step``: 0 is the deal as dealt, k is after trick k."""
    return len(r.tricks) + 1 if r.playable else 1


def step_view(r: DealReplay, w: Words, step: int) -> RenderableType:
    """One position: the cards left, the trick just played in the middle, the tricks so far."""
    return _view(r, w, step)
