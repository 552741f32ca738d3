"""``replay --dd``: what each played card cost against double-dummy best play, as lines.

A deal's analysis comes from the solver within a budget (the terminal) or from the
archive (``priffe serve``, when ``priffe analyse`` stored one); either way it is the
solver's :class:`~priffe_records.dd.PlayAnalysis`. Each card is written with its cost
(``♠K −1``) and, where it cost a trick, the best cards of its position; the deal's
value at the start heads the lines. Cards the budget did not reach (the early tricks of
a misère, whose search is the longest) are marked as not analysed yet, never guessed.

>>> from priffe_records.dd import CardCost, PlayAnalysis
>>> from priffe_records.game.cards import Card, Seat
>>> from priffe_records.game.language import use_language
>>> k, a = Card.parse("SK"), Card.parse("SA")
>>> view = DDView(None, frozenset({Seat.N, Seat.S}), "fewest", PlayAnalysis(None, (
...     CardCost(Seat.E, a, 1, None, None), CardCost(Seat.S, k, 1, 1, frozenset({a}))), False))
>>> with use_language("en"):
...     print(card_note(view.play.cards[1]), "|", card_note(view.play.cards[0]))
...     for line in dd_lines(view):
...         print(line)
♠K −1 (best ♠A) | ♠A ?
Double dummy: the value at the start is not analysed yet (the budget ran out)
trick 1: E ♠A ?  S ♠K −1 (best ♠A)
? not analysed yet
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from html import escape
from itertools import groupby

from priffe_records.dd import Budget, CardCost, PlayAnalysis, Progress, analyse_play
from priffe_records.format.record import Record
from priffe_records.game.cards import SEATS, Card, Seat
from priffe_records.game.language import Message, language, msg, msg_n
from priffe_records.game.words import card_name, seat_letter
from priffe_records.replay.model import TrickView
from priffe_records.rules.family import family_of

# A replay's own budget when none is given: every cost of a hard mid-range misère (board 2
# of examples/partie-uppsala.ppn) on a free core, with a margin; most deals need a second.
DEFAULT_BUDGET = Budget(seconds=60.0)


@dataclass(frozen=True, slots=True)
class DDView:
    """One deal's analysis as a replay shows it: the measured side and its aim ("most" or
    "fewest"), and the solver's answer."""

    par: int | None
    side: frozenset[Seat]
    goal: str
    play: PlayAnalysis


def analyse(record: Record, budget: Budget = DEFAULT_BUDGET, *,
            progress: Callable[[Progress], None] | None = None, background: bool = False,
            keep_on_interrupt: bool = False) -> DDView | Message:
    """The record's play analysed now, within ``budget``; when its family has no deal for
    the solver, the line that says why (the rules ended it before the first card, or a
    hand or the play is not known). The keywords are
    :func:`~priffe_records.dd.analyse_play`'s; the best cards are found only where a
    card cost a trick (the only ones shown), so the search ends with the last cost."""
    family = family_of(record)
    outcome = family.analyse(record, None, False)
    deal = family.dd_deal(outcome)
    if deal is None:
        why = family.dd_no_play(outcome)
        if why is not None:
            return msg("Double dummy: nothing to analyse: {why}", why=why)
        return msg("Double dummy: no play to analyse (a hand or the play is not known)")
    play = analyse_play(deal, budget, progress=progress, background=background,
                        keep_on_interrupt=keep_on_interrupt, every_best=False)
    return DDView(play.par, deal.side, deal.goal.value, play)


def from_store(side: str, goal: str, play: PlayAnalysis) -> DDView:
    """A stored analysis (``archive.analysis.stored``) as a replay shows it."""
    return DDView(play.par, frozenset(Seat(s) for s in side), goal, play)


def annotate(tricks: Sequence[TrickView], view: DDView) -> tuple[TrickView, ...]:
    """The replay's tricks with each analysed card's mark as its annotation (the terminal
    and the HTML viewer draw it after the card): ``−1``, ``?`` not analysed yet, none for
    a card that cost nothing."""
    costs = {(c.trick, c.seat): c for c in view.play.cards}
    return tuple(t._replace(cards=tuple(
        c._replace(annotation=cost_text(costs[t.number, c.seat]))
        if (t.number, c.seat) in costs else c for c in t.cards)) for t in tricks)


def html_block(view: DDView) -> str:
    """The lines as a section of a page (``priffe serve``'s deal page), escaped."""
    lines = "\n".join(escape(str(line)) for line in dd_lines(view))
    return f'<section class="dd" lang="{language()}"><pre>{lines}</pre></section>'


def card_note(c: CardCost) -> Message:
    """``♠K −1 (best ♠A)`` for a card that cost a trick, ``♠K`` for one that cost none,
    ``♠K ?`` for one not analysed yet."""
    if c.cost is None:
        return msg("{card} ?", card=card_name(c.card))
    if c.cost == 0:
        return card_name(c.card)
    return msg("{card} −{cost} (best {best})", card=card_name(c.card), cost=c.cost,
               best=_cards(c.best or frozenset()))


def cost_text(c: CardCost) -> str | None:
    """The short mark beside a card in a drawn hand or trick: ``−1``, ``?``, none for 0."""
    if c.cost is None:
        return "?"
    return f"−{c.cost}" if c.cost else None


def _cards(cards: frozenset[Card]) -> Message:
    return _joined([card_name(c) for c in sorted(cards, key=lambda c: c.sort_key)], " ")


def _joined(items: list[Message], sep: str) -> Message:
    """Messages side by side, each rendered in the language of the whole (no words of its
    own, so no catalog entry: as ``listing`` joins)."""
    return Message(sep.join(f"{{m{i}}}" for i in range(len(items))),
                   {f"m{i}": m for i, m in enumerate(items)})


def headline(view: DDView) -> Message:
    """The deal's double-dummy value at the start, for the measured side and its aim."""
    side = _joined([seat_letter(s) for s in SEATS if s in view.side], "")  # NS, ÖV in Swedish
    if view.par is None and view.play.interrupted:
        return msg("Double dummy: the value at the start is not analysed yet (stopped by "
                   "Ctrl-C)")
    if view.par is None:
        return msg("Double dummy: the value at the start is not analysed yet (the budget "
                   "ran out)")
    if len(view.side) == 1:  # Préférence's declarer alone: "S takes"
        takes = msg_n("Double dummy: {side} takes {n} trick with best play by all",
                      "Double dummy: {side} takes {n} tricks with best play by all", view.par,
                      side=side)
    else:
        takes = msg_n("Double dummy: {side} take {n} trick with best play by all",
                      "Double dummy: {side} take {n} tricks with best play by all", view.par,
                      side=side)
    if view.goal == "fewest":
        return _joined([takes, msg(", wanting the fewest")], "")
    return takes


def dd_lines(view: DDView, trick: int | None = None, explain: bool = False
             ) -> Iterator[Message]:
    """The headline, one line per trick (only ``trick`` when given), what ``−1`` means
    (``explain``: a replay says it once, under the first deal that shows one) and what
    ``?`` means when a card shown is not analysed yet."""
    yield headline(view)
    unknown = costly = False
    for number, group in groupby(view.play.cards, key=lambda c: c.trick):
        if trick is not None and number != trick:
            continue
        cards = list(group)
        unknown = unknown or any(c.cost is None for c in cards)
        costly = costly or any(c.cost for c in cards)
        each = [msg("{seat} {card}", seat=seat_letter(c.seat), card=card_note(c)) for c in cards]
        yield msg("trick {n}: {cards}", n=number, cards=_joined(each, "  "))  # in play order
    if explain and costly:
        yield msg("−1 beside a card: it gave away one trick against double-dummy best play "
                  "(all hands known); the cards in brackets would have kept it")
    if unknown:
        yield msg("? not analysed yet")
