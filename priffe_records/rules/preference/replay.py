"""A Préférence partie's records as replay facts: three hands and the talon, the auction,
two- or three-card tricks counted per seat, and the payments, pot and balances.

The payments, pot and balances are the partie's books', so the replay and ``validate``
agree; the replay draws them with Priffe's through the same view.

>>> from pathlib import Path
>>> from priffe_records import loads
>>> from priffe_records.rules.partie import parties
>>> text = Path(__file__).parents[3].joinpath("tests/data/preference-graz.ppn").read_text()
>>> f = partie_facts(next(iter(parties(list(loads(text))))))[1]
>>> [s.value for s in f.seats], f.declarer, len(f.talon or ()), f.tally_heads
(['N', 'E', 'S'], <Seat.E: 'E'>, 2, ('N', 'E', 'S'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from priffe_records.game.cards import Card, Seat, sorted_cards
from priffe_records.game.language import msg, msg_p
from priffe_records.game.words import seat_letter
from priffe_records.rules.family import PartieOutcome
from priffe_records.rules.findings import Finding
from priffe_records.rules.preference.words import BID_NAMES
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

from .analysis import PrefOutcome
from .books import PrefLine, PrefPartie
from .table import PLAYERS, next_player


def partie_facts(p: PartieOutcome) -> dict[int, ReplayFacts]:
    """Each record of a Préférence partie (or of :class:`Strays`) by its 1-based position;
    none for another game's."""
    if isinstance(p, Strays):
        lines = [PrefLine(o, 0, None, None, None) for o in p.lines if isinstance(o, PrefOutcome)]
    elif isinstance(p, PrefPartie):
        lines = list(p.lines)
    else:
        return {}
    found = findings_by_record(p.findings)
    return {line.outcome.index: _facts(line, found.get(line.outcome.index, []))
            for line in lines}


def _facts(line: PrefLine, found: list[Finding]) -> ReplayFacts:
    o = line.outcome
    calls = _calls(o)
    call_stop = next((f for c in calls for f in c.errors), None)
    shown = [*(f for c in calls for f in c.errors), *(o.play.findings if o.play else ())]
    if call_stop is not None and o.auction is not None:
        shown += o.auction.findings
    won = o.tricks
    # the seats that play, in table order (the same clockwise turn as from the declarer)
    order = PLAYERS if o.play is None else tuple(s for s in PLAYERS if s in o.play.seats)
    tricks, trick_stop = _tricks(o, order) if call_stop is None else ((), None)
    stop = call_stop or trick_stop
    facts = ReplayFacts(
        record=o.record, index=o.index, seats=PLAYERS, order=order,
        players=(*o.players, None), dealer=o.dealer,
        forehand=next_player(o.dealer) if o.dealer is not None else None,
        declarer=o.declarer, dropouts=o.dropouts, gave_up=o.gave_up,
        hands=_hands(o), talon=o.cards.talon if o.cards is not None else None,
        discard=o.discard, contract=BID_NAMES[o.contract] if o.contract else None,
        trump=o.contract.suit if o.contract else None, calls=calls, tricks=tricks,
        tally_heads=tuple(s.value for s in order), stop=stop,
        claimed="P10" if o.play and o.play.claimed else None,
        result=_seats(won, signed=False) if won is not None else None,
        score=_pay_lines(line), comments=record_comments(o.record),
        other_findings=unshown(found, shown), findings=o.findings)
    return facts if facts.playable else replace(facts, why_not=why_not(o.record, found))


def _calls(o: PrefOutcome) -> tuple[CallView, ...]:
    """The auction's calls; an error said at a call's place makes it illegal (P4–P6)."""
    if o.auction is None:
        return ()
    errors = [f for f in o.auction.findings if f.is_error and f.location is not None]
    views = []
    for c in o.auction.calls:
        at = c.token.location
        errs = tuple(f for f in errors if at is not None and f.location == at)
        views.append(CallView(c.seat, BID_NAMES[c.bid] if c.bid else None, not errs, errs,
                              c.hold))
        if errs:
            break
    return tuple(views)


def _tricks(o: PrefOutcome, seats: tuple[Seat, ...]) -> tuple[tuple[TrickView, ...],
                                                               Finding | None]:
    """The engine's tricks with the tricks each of ``seats`` took so far; cut at the first
    illegal card, where the replay stops."""
    if o.play is None:
        return (), None
    won = dict.fromkeys(seats, 0)
    views = []
    for t in o.play.tricks:
        if t.winner is not None and len(t.cards) == len(seats):
            won[t.winner] = won.get(t.winner, 0) + 1
        errors = tuple(f for f in t.findings if f.is_error)
        views.append(TrickView(t.number, t.leader, tuple(
            CardView(p.seat, p.card, p.legal, comments([c.text for c in p.token.comments]))
            for p in t.cards), t.winner, tuple(won[s] for s in seats), errors,
            tuple(f for f in t.findings if not f.is_error), len(seats)))
        if errors:
            return tuple(views), errors[0]
    return tuple(views), None


def _hands(o: PrefOutcome) -> tuple[tuple[Card, ...] | None, ...]:
    """The cards each seat plays from, in the order a hand is shown (W has none): as
    dealt, the declarer's with the talon taken and the discard laid away (a hand game
    keeps the talon aside)."""
    if o.cards is None:
        return (None, None, None, None)
    talon = o.cards.talon
    out: list[tuple[Card, ...] | None] = []
    for seat in PLAYERS:
        hand = o.cards.hand(seat)
        held = None if hand is None else tuple(hand.cards)
        if held is not None and seat is o.declarer and o.contract is not None \
                and not o.contract.is_hand and talon and o.discard is not None:
            held = tuple(c for c in (*held, *talon) if c not in o.discard)
        out.append(None if held is None else tuple(sorted_cards(held)))
    return (*out, None)


_TRICKS = every_language(msg_p("pref replay", "tricks"))
_PAYMENTS = every_language(msg_p("pref replay", "payments"))
_POT = every_language(msg_p("pref replay", "pot"))
_BALANCES = every_language(msg_p("pref replay", "balances"))


_LETTERS = {s: every_language(seat_letter(s)) for s in PLAYERS}  # Ö in Swedish


def _seat_numbers(values: Mapping[Seat, int], signed: bool = True) -> Worded:
    """``N +0  E +1  S +9``, each seat written as the reader's language writes it."""
    shown = [s for s in PLAYERS if s in values]
    fields: dict[str, object] = {}
    for i, s in enumerate(shown):
        fields[f"s{i}"] = _LETTERS[s]
        fields[f"n{i}"] = f"{values[s]:+d}" if signed else str(values[s])
    return worded("  ".join(f"{{s{i}}} {{n{i}}}" for i in range(len(shown))), **fields)


def _seats(values: Mapping[Seat, int], signed: bool = True) -> str:
    return _seat_numbers(values, signed).render()


def _pay_lines(line: PrefLine) -> tuple[ScoreLine, ...]:
    """The tricks each seat took (P11), the ante (P13), the payments, pot and balances
    (P12), as the partie's books keep them."""
    o = line.outcome
    out = []
    if o.tricks is not None:
        out.append(ScoreLine("P11", worded("{tricks}: {n}", tricks=_TRICKS,
                                          n=_seat_numbers(o.tricks, signed=False))))
    if line.ante:
        out.append(ScoreLine("P13", msg("ante: each pays {n} into the empty pot",
                                        n=line.ante)))
    out.append(ScoreLine("P12", worded("{payments}: {n}", payments=_PAYMENTS,
                                      n="?" if line.score is None
                                      else _seat_numbers(line.score))))
    out.append(ScoreLine("P12", worded("{pot}: {n}", pot=_POT,
                                      n="?" if line.pot is None else line.pot)))
    if line.balances is not None:
        names = [o.player(s) or s.value for s in PLAYERS]
        out.append(ScoreLine("P12", worded("{balances}: {n}", balances=_BALANCES, n="  ".join(
            f"{name} {line.balances.get(name, 0):+d}" for name in names)), total=True))
    return tuple(out)

