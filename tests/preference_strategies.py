"""Hypothesis strategies for Préférence records: its calls, card lists, values and 32-card deals."""

from __future__ import annotations

from hypothesis import strategies as st
from strategies import _token, comments, plain_tags

from priffe_records.format.record import Record, Section, Tag, Token, TokenKind
from priffe_records.game.calls import Call
from priffe_records.game.cards import Hand, Seat, sorted_cards
from priffe_records.rules.preference.bids import Bid
from priffe_records.rules.preference.deal import DECK

_deck = sorted_cards(DECK)
_seat3 = st.sampled_from(["N", "E", "S"])
_card_text = st.sampled_from([str(c) for c in _deck])

pref_call_tokens = st.one_of(
    st.sampled_from([b.value for b in Bid]).flatmap(lambda w: _token(TokenKind.CALL, w)),
    st.sampled_from([c.value for c in Call if c.value not in {b.value for b in Bid}]).flatmap(
        lambda w: _token(TokenKind.FOREIGN, w)),
    _token(TokenKind.UNKNOWN, "-"))
pref_card_tokens = st.one_of(_card_text.flatmap(lambda c: _token(TokenKind.CARD, c)),
                             _token(TokenKind.UNKNOWN, "-"))


def _numbers(scores: bool) -> st.SearchStrategy[str]:
    value = st.integers(-999, 999) if scores else st.integers(0, 10)
    return st.lists(st.tuples(_seat3, value), min_size=1, max_size=3,
                    unique_by=lambda t: t[0]).map(
        lambda items: (";" if scores else " ").join(
            f"{s} {v}" for s, v in sorted(items, key=lambda t: "NES".index(t[0]))))


@st.composite
def _deal(draw: st.DrawFn) -> str:
    cards = draw(st.permutations(_deck))
    dealer = draw(st.sampled_from([Seat.N, Seat.E, Seat.S]))
    hands = {s: Hand(tuple(sorted_cards(cards[i * 10:(i + 1) * 10])))
             for i, s in enumerate((Seat.N, Seat.E, Seat.S))}
    unknown = draw(st.sets(st.sampled_from([Seat.N, Seat.E, Seat.S]), max_size=2))
    return f"{dealer.value}:" + " ".join(
        "-" if s is Seat.W or s in unknown else hands[s].pbn() for s in dealer.rotation())


def _card_list(n: int) -> st.SearchStrategy[str]:
    return st.lists(_card_text, min_size=n, max_size=n, unique=True).map(" ".join)


_value_tags = st.one_of(
    st.sampled_from([b.value for b in Bid if b.is_bid]).map(lambda v: ("Contract", v)),
    _numbers(False).map(lambda v: ("Result", v)),
    _numbers(True).map(lambda v: ("Score", v)),
    _numbers(True).map(lambda v: ("Balance", v)),
    st.integers(0, 500).map(lambda v: ("Pot", str(v))),
    _card_list(2).map(lambda v: ("Talon", v)),
    _card_list(2).map(lambda v: ("Discard", v)),
    st.lists(_seat3, max_size=2, unique=True).map(lambda v: ("Dropout", " ".join(v))),
    _seat3.map(lambda v: ("Declarer", v)),
    _deal().map(lambda v: ("Deal", v)),
)


@st.composite
def preference_records(draw: st.DrawFn) -> Record:
    """A Préférence record with values in export form, sections of its own words."""
    tags = [Tag("Scoring", draw(st.sampled_from(
        ["Preference", "Preference;ante=5", "Preference;must_trump=off"])))]
    seen = {"Scoring"}
    for name, value in draw(st.lists(_value_tags, max_size=8)):
        if name not in seen:
            seen.add(name)
            tags.append(Tag(name, value, tuple(draw(comments))))
    tags.extend(t for t in draw(st.lists(plain_tags, max_size=2, unique_by=lambda t: t.name))
                if t.name not in seen
                and t.name not in ("Scoring", "Dealer"))
    if draw(st.booleans()):
        toks = draw(st.lists(pref_call_tokens, max_size=9))
        tags.append(Tag("Auction", draw(_seat3), tuple(draw(comments)), Section(tuple(toks))))
    if draw(st.booleans()):
        toks = draw(st.lists(pref_card_tokens, max_size=12))
        end = (Token(TokenKind.END, "*"),) if draw(st.booleans()) else ()
        tags.append(Tag("Play", draw(_seat3), (), Section(tuple(toks) + end)))
    return Record(tuple(tags), tuple(draw(comments)))
