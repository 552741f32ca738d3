"""A bridge partie's records as replay facts: four hands as dealt, the auction, the
tricks with the tricks each side took, and the result and duplicate score.

>>> from priffe_records.format.reader import loads
>>> from priffe_records.rules.partie import parties
>>> text = '''[Scoring "IMP"]\\n[Vulnerable "None"]\\n[Dealer "N"]
... [Deal "N:A8643.97642.Q.Q8 KT9.K3.K75.AK652 QJ752.T.AJT432.4 .AQJ85.986.JT973"]
... [Declarer "E"]\\n[Contract "5C"]\\n[Result "12"]
... [Play "S"]\\nSQ C3 S3 S9\\n*'''
>>> f = partie_facts(next(iter(parties(list(loads(text))))))[1]
>>> f.declarer.value, f.result, [t.winner.value for t in f.tricks], f.tricks[0].tally
('E', 'NS 1 EW 12', ['W'], (0, 1))
"""

from __future__ import annotations

from dataclasses import replace

from priffe_records.game.cards import Side, sorted_cards
from priffe_records.game.language import Message, msg, msg_n, msg_p
from priffe_records.rules.family import PartieOutcome
from priffe_records.rules.findings import Finding
from priffe_records.rules.replay_facts import (
    CallView,
    CardView,
    ReplayFacts,
    Said,
    ScoreLine,
    Strays,
    TrickView,
    comments,
    findings_by_record,
    record_comments,
    unshown,
    why_not,
)

from .analysis import BridgeOutcome
from .books import BridgePartie
from .contract import Contract

_CALLS: dict[str, Message] = {"Pass": msg_p("bridge call", "Pass"),
                              "X": msg_p("bridge call", "Double"),
                              "XX": msg_p("bridge call", "Redouble"),
                              "AP": msg_p("bridge call", "All pass")}
_PLAYERS = ("North", "East", "South", "West")


def partie_facts(p: PartieOutcome) -> dict[int, ReplayFacts]:
    """Each record of a bridge partie (or of :class:`Strays`) by its 1-based position."""
    if isinstance(p, Strays):
        outcomes = [o for o in p.lines if isinstance(o, BridgeOutcome)]
    elif isinstance(p, BridgePartie):
        outcomes = [line.outcome for line in p.lines]
    else:
        return {}
    found = findings_by_record(p.findings)
    return {o.index: _facts(o, found.get(o.index, [])) for o in outcomes}


def _facts(o: BridgeOutcome, found: list[Finding]) -> ReplayFacts:
    calls = tuple(CallView(c.seat, _word(c.text), c.fault is None,
                           (c.fault,) if c.fault else ())
                  for c in (o.auction.calls if o.auction else ()))
    stop = next((c.errors[0] for c in calls if c.errors), None)
    tricks = _tricks(o) if stop is None else ()
    stop = stop or next((e for t in tricks for e in t.errors), None)
    shown = [*(f for c in calls for f in c.errors), *(f for t in tricks for f in t.errors)]
    hands = tuple(tuple(sorted_cards(h.cards)) if h is not None else None
                  for h in o.deal.hands) if o.deal is not None else (None,) * 4
    facts = ReplayFacts(
        record=o.record, index=o.index, dealer=o.dealer, forehand=o.dealer,
        players=tuple(o.record.get(tag) for tag in _PLAYERS), declarer=o.declarer,
        hands=hands, contract=o.contract.words() if o.contract else None,
        trump=o.contract.trump if o.contract else None, calls=calls, tricks=tricks,
        stop=stop, claimed="B9" if o.play and o.play.claimed else None,
        result=_result(o), score=_score(o), comments=record_comments(o.record),
        other_findings=unshown(found, shown), findings=o.findings)
    return facts if facts.playable else replace(facts, why_not=why_not(o.record, found))


def _word(text: str) -> Said | None:
    bid = Contract.parse(text)
    return bid.words() if bid is not None else _CALLS.get(text)


def _tricks(o: BridgeOutcome) -> tuple[TrickView, ...]:
    """The tricks with the tricks each side took after each; cut after the first with an
    illegal card, where the replay stops."""
    views: list[TrickView] = []
    won = {Side.NS: 0, Side.EW: 0}
    for t in o.play.tricks if o.play else ():
        if t.winner is not None:
            won[t.winner.side] += 1
        errors = tuple(f for f in t.findings if f.is_error)
        views.append(TrickView(t.number, t.leader, tuple(
            CardView(p.seat, p.card, p.legal, comments([c.text for c in p.token.comments]))
            for p in t.cards), t.winner, (won[Side.NS], won[Side.EW]), errors))
        if errors:
            break
    return tuple(views)


def _result(o: BridgeOutcome) -> str | None:
    """``NS 9 EW 4``: the tricks each side took, in the file's words."""
    if o.tricks is None or o.declarer is None:
        return None
    ns = o.tricks if o.declarer.side is Side.NS else 13 - o.tricks
    return f"NS {ns} EW {13 - ns}"


def _score(o: BridgeOutcome) -> tuple[ScoreLine, ...]:
    """The contract made or how many down (B9), and the duplicate score (B10)."""
    if o.passed_out:
        return (ScoreLine("B10", msg("passed out: no score"), total=True),)
    if o.contract is None or o.tricks is None:
        return ()
    over = o.tricks - o.contract.tricks_needed
    made: Message = msg_n("down {n}", "down {n}", -over, n=-over) if over < 0 else \
        msg_n("made with {n} overtrick", "made with {n} overtricks", over, n=over) if over \
        else msg("made")
    out = [ScoreLine("B9", made)]
    if o.score is not None:
        ns, ew = f"{o.score:+d}", f"{-o.score:+d}"
        out.append(ScoreLine("B10", msg("score: North-South {ns}, East-West {ew}", ns=ns,
                                        ew=ew), total=True))
    return tuple(out)

