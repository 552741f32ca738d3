"""Property tests: generated parties are legal, survive a rewrite, and every single corruption
is caught with the right rule ID."""

from __future__ import annotations

import random
from dataclasses import replace

from conftest import scaled
from hypothesis import given
from hypothesis import strategies as st

from priffe_records import dumps, loads, validate
from priffe_records.format.record import Record, Section, Token, TokenKind
from priffe_records.game.calls import Call
from priffe_records.game.cards import Deal, Hand, Seat
from priffe_records.rules.priffe.generate import PartieSpec, generate_partie
from priffe_records.rules.priffe.options import PRESETS
from priffe_records.rules.priffe.play import replay
from priffe_records.rules.priffe.sheet import DealRow, score_parties

SETTINGS = scaled(0.12)  # a whole partie an example
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def partie(seed: int, rubbers: int = 2, preset: str = "sv") -> list[Record]:
    spec = PartieSpec(options=PRESETS[preset], comments=True, claim_rate=0.3)
    return generate_partie(seed, spec, rubbers=rubbers)


def error_rules(records: list[Record]) -> set[str]:
    return {f.rule for f in validate(records) if f.is_error}


def with_section(rec: Record, name: str, tokens: list[Token]) -> Record:
    tags = tuple(replace(t, section=Section(tuple(tokens))) if t.name == name else t
                 for t in rec.tags)
    return Record(tags, rec.leading, rec.defaults, rec.location)


@SETTINGS
@given(SEEDS, st.sampled_from(["sv", "en"]))
def test_generated_partie_validates_without_findings(seed: int, preset: str) -> None:
    assert validate(partie(seed, preset=preset)) == []


@SETTINGS
@given(SEEDS)
def test_scores_invariant_under_rewrite(seed: int) -> None:
    recs = partie(seed)
    back = list(loads(dumps(recs)))
    assert back == recs
    assert [s.rows for s in score_parties(back)] == [s.rows for s in score_parties(recs)]
    assert validate(back) == []


def _played(rec: Record) -> list[tuple[int, Seat, Token]]:
    """(trick index, seat, token) of every card in played order."""
    assert rec.play is not None
    play_tag = rec.tag("Play")
    assert play_tag is not None
    res = replay(rec.play, Seat(play_tag.value), Deal.parse(str(rec.get("Deal"))), None)
    return [(t.number - 1, p.seat, p.token) for t in res.tricks for p in t.cards]


def _slot(rec: Record, trick: int, seat: Seat) -> int:
    play_tag = rec.tag("Play")
    assert play_tag is not None
    return trick * 4 + Seat(play_tag.value).rotation().index(seat)


@SETTINGS
@given(SEEDS, st.integers(0, 10_000))
def test_swapping_two_dealt_cards_is_caught(seed: int, pick: int) -> None:
    recs = partie(seed, rubbers=1)
    i = pick % len(recs)
    rec = recs[i]
    played = _played(rec)
    rng = random.Random(pick)
    _, s1, t1 = rng.choice(played)
    _, s2, t2 = rng.choice([p for p in played if p[1] is not s1])
    deal = Deal.parse(str(rec.get("Deal")))
    hands = [list(h.cards) if h else [] for h in deal.hands]
    c1, c2 = t1.card, t2.card
    assert c1 is not None and c2 is not None
    hands[s1.index][hands[s1.index].index(c1)] = c2
    hands[s2.index][hands[s2.index].index(c2)] = c1
    new = Deal(tuple(Hand(tuple(h)) for h in hands))  # type: ignore[arg-type]
    recs[i] = rec.replace_tag("Deal", new.pbn(Seat(str(rec.get("Dealer")))))
    assert "R11" in error_rules(recs)


@SETTINGS
@given(SEEDS, st.integers(0, 10_000))
def test_card_played_twice_is_caught(seed: int, pick: int) -> None:
    recs = partie(seed, rubbers=1)
    i = pick % len(recs)
    rec = recs[i]
    assert rec.play is not None
    tokens = list(rec.play.tokens)
    cards = [k for k, t in enumerate(tokens) if t.kind is TokenKind.CARD]
    a, b = sorted(random.Random(pick).sample(cards, 2))
    tokens[b] = replace(tokens[b], text=tokens[a].text)
    recs[i] = with_section(rec, "Play", tokens)
    assert "R11" in error_rules(recs)


@SETTINGS
@given(SEEDS, st.integers(0, 10_000))
def test_revoke_is_caught(seed: int, pick: int) -> None:
    recs = partie(seed, rubbers=1)
    rng = random.Random(pick)
    for i in rng.sample(range(len(recs)), len(recs)):
        rec = recs[i]
        played = _played(rec)
        led = {tr: tok.card.suit for tr, _, tok in played[::4] if tok.card}
        first = {}
        for tr, seat, _tok in played:
            first.setdefault(tr, seat)
        followed = [(tr, s, tok) for tr, s, tok in played
                    if s is not first[tr] and tok.card and tok.card.suit is led[tr]]
        for tr, seat, _tok in followed:
            later = [(tr2, t2) for tr2, s2, t2 in played if s2 is seat and tr2 > tr
                     and t2.card and t2.card.suit is not led[tr]]
            if later:
                tr2, _tok2 = later[0]
                assert rec.play is not None
                tokens = list(rec.play.tokens)
                a, b = _slot(rec, tr, seat), _slot(rec, tr2, seat)
                tokens[a], tokens[b] = tokens[b], tokens[a]
                recs[i] = with_section(rec, "Play", tokens)
                fs = [f for f in validate(recs) if f.rule == "R11" and f.is_error]
                assert fs and f"trick {tr + 1}:" in fs[0].message, fs
                return


@SETTINGS
@given(SEEDS)
def test_bid_not_higher_is_caught(seed: int) -> None:
    recs = partie(seed, rubbers=1)
    for i, rec in enumerate(recs):
        assert rec.auction is not None
        calls = list(rec.auction.tokens)
        bids = [k for k, t in enumerate(calls) if t.kind is TokenKind.CALL and t.text != "Pass"]
        if bids and bids[0] + 1 < len(calls) and calls[bids[0]].text != Call.SPELA.value:
            k = bids[0] + 1
            calls[k] = replace(calls[k], text=calls[bids[0]].text)
            recs[i] = with_section(rec, "Auction", calls)
            assert "R5" in error_rules(recs)
            return


@SETTINGS
@given(SEEDS, st.integers(0, 10_000), st.sampled_from([-10, 10]))
def test_wrong_score_by_ten_is_caught(seed: int, pick: int, delta: int) -> None:
    recs = partie(seed, rubbers=1)
    i = pick % len(recs)
    rows = [r for r in score_parties(recs)[0].rows if isinstance(r, DealRow)]
    score = rows[i].score
    assert score is not None
    side_ns = score.ns >= score.ew
    new = (f"NS {score.ns + delta} EW {score.ew}" if side_ns
           else f"NS {score.ns} EW {score.ew + delta}")
    recs[i] = recs[i].replace_tag("Score", new)
    fs = [f for f in validate(recs) if f.is_error]
    assert len(fs) == 1
    slam = " slam" in rows[i].note
    assert fs[0].rule == "R15" or (slam and fs[0].rule == "R16")


@SETTINGS
@given(SEEDS)
def test_deal_after_the_rubber_ended_is_caught(seed: int) -> None:
    recs = partie(seed, rubbers=2)
    end = next(k for k, r in enumerate(recs) if r.get("Settlement"))
    recs[end + 1] = recs[end + 1].replace_tag("Rubber", str(recs[end].get("Rubber")))
    assert "R22" in error_rules(recs)
