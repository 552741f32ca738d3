"""The Préférence replay: three hands and the talon, the auction, two- or three-card tricks,
the payments, pot and balances — for the terminal and for the HTML viewer.

Every fact comes from the family's ``replay_facts`` hook
(:class:`~priffe_records.rules.replay_facts.ReplayFacts`): the validator's own trick
replay decides who led and who won, and the partie's books give the payments, so the
replay and ``validate`` agree; this module imports no family.

>>> from pathlib import Path
>>> from priffe_records import loads
>>> from priffe_records.replay.wording import words
>>> text = Path(__file__).parents[2].joinpath("tests/data/preference-graz.ppn").read_text()
>>> r = build_pref_replays(list(loads(text)))[1]
>>> print(next(x for x in text_lines(r, words("en")) if x.startswith("Trick")))
Trick 1: E ▸ ♥K  S ♥7  N ♥A*  → North
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record
from priffe_records.game.cards import SUITS, Card, Seat, sorted_cards
from priffe_records.game.language import Message, msg, msg_p, shown_date
from priffe_records.replay.compact import Strings, hand_ids, plays, trick_extras
from priffe_records.replay.model import NO_TALLY, CardView, TrickView
from priffe_records.replay.wording import Words, check_line, where
from priffe_records.rules.family import PartieOutcome, families
from priffe_records.rules.findings import Finding
from priffe_records.rules.partie import parties
from priffe_records.rules.replay_facts import ReplayFacts


@dataclass(frozen=True, slots=True)
class PrefReplay:
    """One Préférence record as the replay shows it: its family's facts, the findings
    shown (``-q`` keeps only the errors) and the tricks in the shared view model, so a
    ``--dd`` mark (:func:`~priffe_records.replay.dd.annotate`) is drawn in them."""

    facts: ReplayFacts
    index: int
    findings: tuple[Finding, ...]
    tricks: tuple[TrickView, ...]

    @property
    def record(self) -> Record:
        return self.facts.record

    @property
    def board(self) -> str | None:
        return self.facts.record.get("Board")

    @property
    def rubber(self) -> str | None:
        return None

    @property
    def stop(self) -> Finding | None:
        """The first illegal card, if any (the exit status says so)."""
        return next((f for t in self.tricks for f in t.errors), None)

    def hands(self, step: int) -> dict[Seat, list[Card] | None]:
        """Cards left in each hand after ``step`` tricks (hands as played)."""
        dealt = self.facts.hands
        out: dict[Seat, list[Card] | None] = {}
        for seat in self.facts.seats:
            hand = dealt.get(seat) if dealt is not None else None
            held = list(hand) if hand is not None else None
            if held is not None:
                gone = {p.card for t in self.tricks[:step] for p in t.cards if p.seat is seat}
                held = [c for c in held if c not in gone]
            out[seat] = held
        return out


def build_pref_replays(records: Sequence[Record | BadRecord]) -> dict[int, PrefReplay]:
    """The records of ``records`` whose family gives replay facts, by 1-based position."""
    out: dict[int, PrefReplay] = {}
    for p in parties(records):
        out.update(pref_replays(p))
    return out


def pref_replays(p: PartieOutcome) -> dict[int, PrefReplay]:
    """A partie's records arranged for replay from its family's facts, by their 1-based
    position (none for a partie whose family gives none, or answers no such hook: a
    plugin family written before the hook)."""
    for fam in families():
        hook = getattr(fam, "replay_facts", None)
        facts = hook(p) if hook is not None else None
        if facts:
            return {i: PrefReplay(f, i, f.findings, trick_views(f)) for i, f in facts.items()}
    return {}


# Préférence words the shared replay vocabulary lacks, as players say them: catalog entries
# like every other message, rendered in the replay's language.
_WORDS: dict[str, Message] = {
    "eldest": msg_p("pref replay", "eldest"), "discard": msg_p("pref replay", "discard"),
    "dropped out": msg_p("pref replay", "dropped out"),
    "gives up": msg_p("pref replay", "gives up"), "gave up": msg_p("pref replay", "gave up"),
    "hold": msg_p("pref replay", "hold"), "tricks": msg_p("pref replay", "tricks"),
    "payments": msg_p("pref replay", "payments"), "pot": msg_p("pref replay", "pot"),
    "balances": msg_p("pref replay", "balances"), "Talon": msg_p("pref replay", "Talon"),
}


def _t(w: Words, key: str) -> str:
    return _WORDS[key].render(w.lang)


def _name(r: PrefReplay, seat: Seat, w: Words) -> str:
    name = r.facts.player(seat)
    return f"{w.seat(seat)} ({name})" if name else w.seat(seat)


def _hand_text(cards: Sequence[Card] | None, w: Words) -> str:
    if cards is None:
        return "?"
    return "  ".join(f"{s.symbol} {w.suit_cards([c for c in cards if c.suit is s])}"
                     for s in SUITS)


def _seats(r: PrefReplay, values: Mapping[Seat, int] | None, signed: bool = True) -> str:
    if values is None:
        return "?"
    return "  ".join(f"{s.value} {values[s]:+d}" if signed else f"{s.value} {values[s]}"
                     for s in r.facts.seats if s in values)


def title(r: PrefReplay, w: Words) -> str:
    rec = r.facts.record
    date = rec.get("Date")
    parts = [x for x in (rec.get("Event"), rec.get("Site"), date and shown_date(date, w.lang)) if x]
    board = f"{w.deal_word.lower()} {r.board}" if r.board else f"#{r.index}"
    return " · ".join([*parts, board, "Préférence"])


def roles(r: PrefReplay, w: Words) -> str:
    o = r.facts
    parts = []
    if o.dealer is not None:
        parts.append(f"{w.dealer}: {w.seat(o.dealer)}")
    if o.first is not None:
        parts.append(f"{_t(w, 'eldest')}: {w.seat(o.first)}")
    if o.declarer is not None:
        parts.append(f"{w.declarer}: {_name(r, o.declarer, w)}")
    return " · ".join(parts)


def contract_text(r: PrefReplay, w: Words) -> str:
    o = r.facts
    parts = [f"{w.contract}: {o.contract.render(w.lang) if o.contract else '?'}"]
    if o.discard:
        parts.append(_t(w, "discard") + " " + " ".join(w.card(c) for c in o.discard))
    out = [s for s in o.dropouts if s is not o.declarer]
    if out:
        parts.append(_t(w, "dropped out") + ": " + ", ".join(w.seat(s) for s in out))
    if o.gave_up and o.declarer is not None:
        parts.append(f"{w.seat(o.declarer)} {_t(w, 'gives up')}")
    return " · ".join(parts)


def auction_text(r: PrefReplay, w: Words) -> str:
    calls = r.facts.calls
    if calls is None:
        return "—"
    return " · ".join(f"{c.seat.value} {c.words.render(w.lang) if c.words else '?'}" +
                      (f" ({_t(w, 'hold')})" if c.hold else "") for c in calls)


def trick_text(t: TrickView, w: Words) -> str:
    """``Trick 1: E ▸ ♥K  S ♥7  N ♥A*``: the leader marked, the winner starred, an illegal
    card with ``!``, a ``--dd`` mark after its card (``♥7 −1``)."""
    cards = "  ".join(f"{p.seat.value}{' ▸' if p.seat is t.leader else ''} "
                      f"{w.card(p.card) if p.card else '?'}"
                      f"{'*' if p.seat is t.winner else ''}{'' if p.legal else '!'}"
                      f"{'' if p.annotation is None else ' ' + p.annotation}"
                      for p in t.cards)
    taker = f"  → {w.seat(t.winner)}" if t.winner is not None else ""
    return f"{w.trick.capitalize()} {t.number}: {cards}{taker}"


def pay_lines(r: PrefReplay, w: Words) -> list[str]:
    o = r.facts
    out = []
    if o.won is not None:
        out.append(_t(w, "tricks") + ": " + _seats(r, o.won, signed=False))
    if o.ante:
        out.append(msg("ante: each pays {n} into the empty pot (P13)",
                       n=o.ante).render(w.lang))
    out.append(f"{_t(w, 'payments')} (P12): {_seats(r, o.payments)}")
    out.append(f"{_t(w, 'pot')}: {'?' if o.pot is None else o.pot}")
    if o.balances is not None:
        names = [o.player(s) or s.value for s in o.seats]
        out.append(_t(w, "balances") + ": " + "  ".join(
            f"{name} {o.balances.get(name, 0):+d}" for name in names))
    return out


def text_lines(r: PrefReplay, w: Words) -> list[str]:
    """The whole deal as plain lines: hands as dealt (the declarer's after the discard),
    the auction and contract, every trick, the errors, the payments."""
    hands = r.hands(0)
    talon = r.facts.talon
    lines = [title(r, w), roles(r, w), f"{w.auction}: {auction_text(r, w)} · {contract_text(r, w)}"]
    lines += [f"{_name(r, s, w)}: {_hand_text(hands[s], w)}" for s in r.facts.seats]
    if talon is not None:
        lines.append(_t(w, "Talon") + ": " + " ".join(w.card(c) for c in talon))
    lines += [trick_text(t, w) for t in r.tricks]
    lines += [where(f, w) for f in r.findings if f.is_error]
    return lines + pay_lines(r, w)


def pref_view(r: PrefReplay, w: Words) -> RenderableType:
    """A rich renderable of the whole deal (plain when printed without colour)."""
    parts: list[RenderableType] = []
    for i, line in enumerate(text_lines(r, w)):
        style = "bold" if i == 0 else ("red" if "!" in line and "Trick" in line else "")
        parts.append(Text(line, style=style))
    return Group(*parts)


def pref_step_count(r: PrefReplay) -> int:
    """Positions of ``--step``: 0 is the deal as dealt, k is after trick k."""
    return len(r.tricks) + 1


def step_lines(r: PrefReplay, w: Words, step: int) -> list[str]:
    """One ``--step`` position: the cards left, the tricks so far, the payments at the end."""
    hands = r.hands(step)
    talon = r.facts.talon
    lines = [title(r, w), roles(r, w), f"{w.auction}: {auction_text(r, w)} · "
             f"{contract_text(r, w)}"]
    lines += [f"{_name(r, s, w)}: {_hand_text(hands[s], w)}" for s in r.facts.seats]
    if talon is not None:
        lines.append(_t(w, "Talon") + ": " + " ".join(w.card(c) for c in talon))
    for t in r.tricks[:step]:
        lines.append(trick_text(t, w))
    if step:
        lines += [where(f) for f in r.facts.tricks[step - 1].findings]
    if step == len(r.tricks):
        lines += [where(f) for f in r.findings if f.is_error and f.rule != "P10"]
        lines += pay_lines(r, w)
    lines.append(w.step_help)
    return lines


def pref_step_view(r: PrefReplay, w: Words, step: int) -> RenderableType:
    return Group(*(Text(line, style="bold" if i == 0 else "")
                   for i, line in enumerate(step_lines(r, w, step))))


def trick_views(facts: ReplayFacts) -> tuple[TrickView, ...]:
    """The engine's tricks as the shared view model holds them (no sides: no tally)."""
    size = len(facts.order)
    return tuple(TrickView(t.number, t.leader, tuple(
        CardView(p.seat, p.card, p.legal, tuple(c.text for c in p.token.comments))
        for p in t.cards), t.winner, NO_TALLY,
        tuple(f for f in t.findings if f.is_error),
        tuple(f for f in t.findings if not f.is_error), size) for t in facts.tricks)


def pref_deal_data(r: PrefReplay, w: Words, table: Strings) -> dict[str, object]:
    """One deal in the shape the HTML viewer draws (see
    :func:`~priffe_records.replay.html.deal_data`): the talon sits in the empty W seat,
    and the tricks are counted per seat."""
    o = r.facts
    talon = tuple(sorted_cards(o.talon)) if o.talon else None
    head: dict[str, object] = {"t": title(r, w), "k": table(contract_text(r, w))}
    comments = [c.text for c in o.record.comments()]
    if comments:
        head["c"] = comments
    if o.hands is None and not r.tricks and o.calls is None:
        return {**head, "u": " · ".join([contract_text(r, w), *pay_lines(r, w)])}
    labels, marks = [], []
    for seat in o.seats:
        mark = [m for m, s in ((w.dealer, o.dealer), (w.declarer, o.declarer)) if s is seat]
        if seat in o.dropouts:
            mark.append(_t(w, "gave up") if seat is o.declarer else _t(w, "dropped out"))
        labels.append(table(_name(r, seat, w)))
        marks.append(table(", ".join(mark)))
    labels.append(table(_t(w, "Talon")))
    marks.append(table((_t(w, "discard") + " " + " ".join(w.card(c) for c in o.discard))
                       if o.discard else ""))
    hands = r.hands(0)
    views = r.tricks
    order = "".join(s.value for s in o.order)
    auction_errors = [where(f, w) for f in r.findings
                      if f.is_error and f.rule in ("P3", "P4", "P5", "P6")]
    checks = [check_line(f, w) for f in r.findings if f.rule != "P10"]
    out: dict[str, object] = {
        **head, "r": table(roles(r, w)), "s": labels, "m": marks, "q": [table("")] * 4,
        "d": [hand_ids(None if (h := hands[s]) is None else sorted_cards(h)) for s in o.seats]
        + [hand_ids(talon)],
        "p": plays(views, order), "h": table(""), "a": table(auction_text(r, w)), "o": order,
        **trick_extras(views, w),
        "sc": [table(x) for line in pay_lines(r, w) for x in ("P12", line)]}
    if auction_errors:
        out["ae"] = auction_errors
    if checks:
        out["ch"] = checks
    return out
