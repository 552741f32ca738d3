"""A Priffe partie's records as replay facts: hands, auction, tricks per side, the score.

The facts are the engine's: :func:`~priffe_records.rules.priffe.analysis.analyse_record`
(which runs the validator's trick replay) says who led and who won each trick, and the
partie's books (:class:`~priffe_records.rules.priffe.rubber.PartieScorer`) decide games,
bonuses and forfeits; only the points toward the next game, which the books' lines do
not carry, are followed here. What only Priffe words (the score breakdown R14–R21,
where the honours lie, R17) goes to the replay as messages it renders in its language.

>>> from pathlib import Path
>>> from priffe_records import loads
>>> from priffe_records.rules.partie import parties
>>> text = Path(__file__).parents[3].joinpath("tests/golden/replay-example.ppn").read_text()
>>> f = partie_facts(next(iter(parties(list(loads(text))))))[1]
>>> f.contract.render("en"), f.tricks[-1].tally, [s.rule for s in f.score][:3]
('Hearts', (10, 3), ['R14–R15', 'R16', 'R17'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from priffe_records.format.record import Section
from priffe_records.game.calls import Call, Contract
from priffe_records.game.cards import FULL_DECK, SEATS, SUITS, Card, Seat, Side, sorted_cards
from priffe_records.game.language import LANGUAGES, Message, Texts, language, msg, msg_p, render
from priffe_records.game.words import rank_name, seat_letter, side_name
from priffe_records.rules.family import PartieOutcome
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.priffe.evaluation import honour_tricks, show_hs
from priffe_records.rules.replay_facts import (
    CallView,
    CardView,
    ReplayFacts,
    ScoreLine,
    Strays,
    TrickView,
    Worded,
    comments,
    every_language,
    findings_by_record,
    record_comments,
    unshown,
    why_not,
    worded,
)

from .analysis import DealOutcome
from .options import HonoursVariant
from .rubber import DealLine, PartieResult
from .scoring import DealScore, SidePoints, honour_cards, honour_holders


@dataclass(frozen=True, slots=True)
class GameState:
    """Game points toward game and games won, before and after this deal (R18–R21)."""

    toward_before: SidePoints
    games_before: SidePoints
    bonus: SidePoints
    forfeit: SidePoints
    toward_after: SidePoints
    games_after: SidePoints
    rubber_total: SidePoints | None  # None once an earlier deal of the rubber was unscorable


def partie_facts(p: PartieOutcome) -> dict[int, ReplayFacts]:
    """Each Priffe record of a partie (or of :class:`Strays`) by its 1-based position;
    none for another game's partie."""
    if isinstance(p, Strays):
        found = findings_by_record(p.findings)
        return {o.index: _facts(o, found.get(o.index, o.findings), None)
                for o in p.lines if isinstance(o, DealOutcome)}
    if not isinstance(p, PartieResult):
        return {}
    found = findings_by_record(p.findings)
    out: dict[int, ReplayFacts] = {}
    toward: dict[int, SidePoints] = {}
    for line in p.lines:
        game = None
        if line.step is not None:
            game = _game(line, toward.get(line.seq, SidePoints()))
            toward[line.seq] = game.toward_after
        i = line.outcome.index
        out[i] = _facts(line.outcome, found.get(i, line.outcome.findings), game, line.unknown)
    return out


def _game(line: DealLine, toward_before: SidePoints) -> GameState:
    step = line.step
    assert step is not None
    games = line.games or SidePoints()
    made = step.game_made
    before = games - SidePoints.one(made, 1) if made is not None else games
    ds = line.outcome.score
    toward = SidePoints() if made is not None or ds is None else toward_before + ds.game
    return GameState(toward_before, before, step.bonus, step.forfeit, toward, games,
                     line.totals)


def _facts(o: DealOutcome, found: Sequence[Finding], game: GameState | None,
           unknown: Message | None = None) -> ReplayFacts:
    rec = o.record
    if not o.priffe:
        refusal = o.findings[0] if o.findings else None
        return ReplayFacts(record=rec, index=o.index, findings=o.findings, refusal=refusal,
                           why_not=(refusal,) if refusal is not None else ())
    calls, call_stop = _calls(o)
    tricks, trick_stop = _tricks(o) if call_stop is None else ((), None)
    stop = call_stop or trick_stop
    forehand = o.dealer.left if o.dealer is not None else (calls[0].seat if calls else None)
    shown = [*([stop] if stop else []), *(f for c in calls for f in c.errors)]
    if o.play is not None:  # in the trick list, or after the stop and so never reached
        shown += o.play.findings
    if o.auction is not None and call_stop is not None:
        shown += o.auction.findings
    result = o.tricks
    if o.play is not None and o.play.complete and stop is None:
        result = o.play.won
    contract = o.contract
    dealt = o.deal.hands if o.deal is not None else (None, None, None, None)  # N E S W
    facts = ReplayFacts(
        record=rec, index=o.index, players=o.players, dealer=o.dealer, forehand=forehand,
        declarer=o.declarer, hands=tuple(None if h is None else _in_order(h.cards) for h in dealt),
        hs=tuple(None if h is None else show_hs(honour_tricks(h)) for h in dealt),  # R30: 2½
        contract=_CONTRACT_WORDS[contract] if contract is not None else None,
        trump=contract.trump if contract is not None else None, calls=calls,
        tricks=tricks, stop=stop, claimed="R13" if o.play and o.play.claimed else None,
        result=str(result) if result is not None else None, honours=_honours(o),
        score=_score(o.score, result, game if stop is None else None,
                     unknown if stop is None else None),
        comments=record_comments(rec), other_findings=unshown(found, shown), findings=o.findings)
    return facts if facts.playable else replace(facts, why_not=why_not(rec, found))


def _words(word: Contract | Call) -> Texts:
    return Texts({lang: word.word(lang) for lang in LANGUAGES})


_CONTRACT_WORDS = {c: _words(c) for c in Contract}
_CALL_WORDS = {c: _words(c) for c in Call}


def _in_order(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards in the order a hand is shown (:func:`sorted_cards`' order). The deck's
    own card objects (the reader hands out those) are placed by their id(), with no
    Card hash, which is Python code, 13 times a hand; ties (a card dealt twice) keep
    their order. A card made elsewhere is placed by the card itself."""
    try:
        places = list(map(_PLACE_BY_ID.__getitem__, map(id, cards)))
    except KeyError:
        return tuple(sorted(cards, key=_PLACE))
    return tuple(map(_THIRD, sorted(zip(places, range(len(cards)), cards, strict=True))))


_PLACE = {c: i for i, c in enumerate(sorted_cards(FULL_DECK))}.__getitem__  # sorted_cards' order
_PLACE_BY_ID = {id(c): i for i, c in enumerate(sorted_cards(FULL_DECK))}
_THIRD = itemgetter(2)


# ------------------------------------------------------------------ the auction and play


def _calls(out: DealOutcome) -> tuple[tuple[CallView, ...], Finding | None]:
    """The auction's calls; an illegal one carries the engine's message and ends the replay."""
    if out.auction is None:
        return (), None
    views: list[CallView] = []
    for c in out.auction.calls:
        errs = tuple(f for f in out.auction.findings
                     if f.is_error and c.token.location is not None
                     and f.location == c.token.location)
        if not c.legal and not errs:
            errs = tuple(f for f in out.auction.findings if f.is_error)[:1]
        words = _CALL_WORDS[c.call] if c.call is not None else None
        views.append(CallView(c.seat, words, c.legal, errs))
        if not c.legal:
            return tuple(views), errs[0] if errs else None
    return tuple(views), None


def _tricks(out: DealOutcome) -> tuple[tuple[TrickView, ...], Finding | None]:
    """The validator's tricks, with running counts per side; cut at the first illegal card."""
    if out.play is None:
        return (), None
    if not out.play.findings:
        clean = _clean_tricks(out)
        if clean is not None:
            return clean, None
    views: list[TrickView] = []
    ns = ew = 0
    stop: Finding | None = None
    for t in out.play.tricks:
        cards = tuple(CardView(p.seat, p.card, p.legal,
                               comments([c.text for c in p.token.comments]))
                      for p in t.cards)
        if t.winner is not None and len(t.cards) == 4:
            if t.winner.side is Side.NS:
                ns += 1
            else:
                ew += 1
        errors = tuple(f for f in t.findings if f.severity is Severity.ERROR)
        notes = tuple(f for f in t.findings if f.severity is not Severity.ERROR)
        views.append(TrickView(t.number, t.leader, cards, t.winner, (ns, ew), errors, notes))
        if errors:
            stop = errors[0]
            break
    return tuple(views), stop


_ROTATION = {s: tuple((x, x.index) for x in s.rotation()) for s in SEATS}
_NS = frozenset(s for s in SEATS if s.side is Side.NS)


def _clean_tricks(out: DealOutcome) -> tuple[TrickView, ...] | None:
    """A play without findings from the engine's trick rows (leader, winner, each seat's
    card), which it gives without building a trick; ``None`` when a leader is unknown.

    Every card of such a play is played once, so a card's comments are found by its
    text; a play with an unknown card (``-``, allowed where the hands are unknown)
    goes the general way."""
    assert out.play is not None
    rows = out.play.rows()
    tag = out.record.tag("Play")
    section = tag.section if tag is not None else None
    said: dict[str, tuple[str, ...]] = {}
    if isinstance(section, Section):
        for i, (_, _, _, notes) in section.marked.items():
            if notes:
                said[section.texts[i]] = comments([c.text for c in notes])
    views: list[TrickView] = []
    ns = ew = 0
    for number, leader, winner, by_seat in rows:
        if leader is None or not _CARD_TEXTS.issuperset(by_seat):
            return None  # an unknown card ("-") is drawn by the general path
        cards = tuple([
            _PLAIN[s][text] if text not in said else
            CardView(s, Card.parse(text), True, said[text])
            for s, i in _ROTATION[leader] if (text := by_seat[i]) is not None])
        if winner is not None and len(cards) == 4:
            if winner in _NS:
                ns += 1
            else:
                ew += 1
        views.append(TrickView(number, leader, cards, winner, _TALLY[ns, ew]))
    return tuple(views)


# A legal card without comments is the same view in every deal: made once, shared; so is
# each count of tricks per side.
_PLAIN = {s: {str(c): CardView(s, c, True) for c in FULL_DECK} for s in SEATS}
_CARD_TEXTS = frozenset([*_PLAIN[Seat.N], None])  # a card's text, or none played yet
_TALLY = {(ns, ew): (ns, ew) for ns in range(14) for ew in range(14)}


# ------------------------------------------------------------------ honours (R17)


def _honours(out: DealOutcome) -> Honours | None:
    """Where the contract's honours lie and what they score (R17)."""
    if out.contract is None:
        return None
    cards = tuple(sorted_cards(honour_cards(out.contract, out.options)))
    holders = honour_holders(out.deal, frozenset(cards)) if out.deal is not None else None
    pairs = tuple((c, holders[c]) for c in cards) if holders is not None else None
    return Honours(cards, pairs, out.honours, out.options.honours)


class Honours(NamedTuple):
    """The contract's four honours (R17), who was dealt each, and what they score, worded
    in the language asked for; the same honours lie the same way deal after deal, so
    their line is made once per language."""

    cards: tuple[Card, ...]
    holders: tuple[tuple[Card, Seat], ...] | None
    points: SidePoints | None
    variant: HonoursVariant

    def render(self, lang: str | None = None) -> str:
        return _honours_line(self, lang or language())


@lru_cache(maxsize=4096)
def _honours_line(h: Honours, lang: str) -> str:
    label = _W["honours"].render(lang)
    if not h.cards:
        return f"{label}: {_W['honours_none'].render(lang)} (R17)"
    parts: list[str] = []
    if h.holders is not None:
        by_seat: dict[Seat, list[Card]] = {}
        for card, seat in h.holders:
            by_seat.setdefault(seat, []).append(card)
        parts = [f"{_word(seat_letter(s), lang)} {_card_group(cs, lang)}"
                 for s, cs in sorted(by_seat.items(), key=lambda kv: kv[0].index)]
    shown = render(_points(h.points), lang) if h.points is not None else "?"
    where = f": {', '.join(parts)}" if parts else ""
    return (f"{label} ({_card_group(h.cards, lang)}){where} → {shown} "
            f"(R17, {h.variant.said().render(lang)})")


@lru_cache(maxsize=64)
def _word(m: Message, lang: str) -> str:
    """A seat letter or rank word in ``lang`` (the same few, deal after deal)."""
    return m.render(lang)


def _card_group(cards: Sequence[Card], lang: str) -> str:
    """Cards grouped by suit, ``♥Ä K D Kn`` or ``♠Ä ♥Ä ♦Ä ♣Ä``."""
    return " ".join(suit.symbol + " ".join(_word(rank_name(c.rank), lang)
                                           for c in sorted_cards(held))
                    for suit in SUITS if (held := [c for c in cards if c.suit is suit]))


def _points(p: SidePoints) -> Worded | str:
    if p == SidePoints():
        return "0"
    shown = [s for s in Side if p[s]]
    return worded(" ".join(f"{{{s.value}}} {p[s]}" for s in shown),
                  **{s.value: _SIDES[s] for s in shown})


# ------------------------------------------------------------------ the score (R14–R21)

_HONOURS = msg_p("replay", "Honours")
_NO_HONOURS = msg_p("replay", "no honour points")
_W = {k: every_language(m) for k, m in {  # the score lines' words (catalogue, ``replay``)
    "take": msg_p("replay", "take"), "tricks": msg_p("replay", "tricks"),
    "odd": msg_p("replay", "odd tricks"), "over": msg_p("replay", "over"),
    "under": msg_p("replay", "under"), "penalty": msg_p("replay", "penalty tricks"),
    "each": msg_p("replay", "×"), "small_slam": msg_p("replay", "small slam"),
    "grand_slam": msg_p("replay", "grand slam"),
    "penalty_small_slam": msg_p("replay", "small penalty slam"),
    "penalty_grand_slam": msg_p("replay", "grand penalty slam"),
    "no_slam": msg_p("replay", "no slam"), "toward": msg_p("replay", "toward game"),
    "first_game": msg_p("replay", "makes its first game"),
    "second_game": msg_p("replay", "makes its second game"),
    "no_game": msg_p("replay", "no game"),
    "forfeit": msg_p("replay", "forfeits its points toward that game"),
    "deal_total": msg_p("replay", "Deal score"), "rubber_total": msg_p("replay", "Rubber so far"),
    "honours": _HONOURS, "honours_none": _NO_HONOURS,
}.items()}


_SIDES = {s: every_language(side_name(s)) for s in Side}  # NS, ÖV in Swedish


def _score(ds: DealScore | None, result: SidePoints | None, g: GameState | None,
           unknown: Message | None = None) -> tuple[ScoreLine, ...]:
    """The score breakdown, one line per rule, as the engine computed it; ``unknown``
    says why the rubber's totals are not known (an earlier deal unread or unscored)."""
    if ds is None:
        return ()
    side = _SIDES[ds.scoring_side]
    took = result[ds.scoring_side] if result is not None else None
    per = 20 if ds.penalty else 10
    base = worded("{n} {over} 6", n=ds.n, over=_W["over"]) if ds.contract.kind == "positive" \
        else worded("{n} {under} 7", n=ds.n, under=_W["under"])
    lines = [ScoreLine("R14–R15", worded(
        "{side} {take} {took} {tricks} ({base}): {n} {word} {each} {per} = {points}",
        side=side, take=_W["take"], took=took, tricks=_W["tricks"], base=base, n=ds.n,
        word=_W["penalty" if ds.penalty else "odd"], each=_W["each"], per=per,
        points=ds.trick_points))]
    if ds.slam:
        name = ("penalty_" if ds.penalty else "") + ("grand_slam" if ds.n == 7 else "small_slam")
        lines.append(ScoreLine("R16", worded("{side} {name} +{slam}", side=side,
                                            name=_W[name], slam=ds.slam)))
    else:
        lines.append(ScoreLine("R16", _W["no_slam"]))
    hp = ds.honours
    lines.append(ScoreLine("R17", worded("{honours}: {points}", honours=_W["honours"],
                                        points=_points(hp) if hp != SidePoints()
                                        else _W["honours_none"])))
    lines.append(ScoreLine("R15–R17", worded("{total}: {points}", total=_W["deal_total"],
                                            points=ds.total), total=True))
    lines.append(ScoreLine("R18", worded("{side} +{points} {toward}", side=side,
                                        points=10 * ds.n, toward=_W["toward"])))
    if g is None:
        if unknown is not None:
            lines.append(ScoreLine("R19–R21", worded(
                "{total}: {points}", total=_W["rubber_total"],
                points=msg("unknown, as {why}", why=unknown)), total=True))
        return tuple(lines)
    for s in Side:
        if g.bonus[s]:
            which = _W["first_game" if g.games_before[s] == 0 else "second_game"]
            lines.append(ScoreLine("R19–R20", worded("{side} {which}: +{bonus}", side=_SIDES[s],
                                                    which=which, bonus=g.bonus[s])))
        if g.forfeit[s]:
            lines.append(ScoreLine("R21", worded("{side} {forfeit}: −{points}", side=_SIDES[s],
                                                forfeit=_W["forfeit"], points=g.forfeit[s])))
    if g.bonus == SidePoints():
        lines.append(ScoreLine("R19", worded("{no_game} ({toward}: {points})",
                                            no_game=_W["no_game"], toward=_W["toward"],
                                            points=g.toward_after)))
    if g.rubber_total is not None:
        lines.append(ScoreLine("R19–R21", worded("{total}: {points}", total=_W["rubber_total"],
                                                points=g.rubber_total), total=True))
    return tuple(lines)

