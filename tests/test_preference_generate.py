"""Generated Préférence parties validate clean; every single corruption is caught by its rule."""

from __future__ import annotations

from conftest import scaled
from hypothesis import assume, given
from hypothesis import strategies as st

from priffe_records import dumps, loads
from priffe_records.format.record import Record, Section, Token, TokenKind
from priffe_records.game.cards import Card, Seat
from priffe_records.rules.preference.bids import Bid
from priffe_records.rules.preference.generate import PrefSpec, generate_partie
from priffe_records.rules.preference.options import PrefOptions
from priffe_records.rules.validate import validate

seeds = st.integers(0, 10**6)
_S = scaled(0.25)  # a whole partie an example


def trumping(seed: int) -> list[Record]:
    return generate_partie(seed, spec=PrefSpec(deals=12, options=PrefOptions(must_trump=True)))


def error_rules(records: list[Record]) -> set[str]:
    return {f.rule for f in validate(records) if f.is_error}


def with_tag(records: list[Record], i: int, name: str, value: str) -> list[Record]:
    out = list(records)
    out[i] = out[i].replace_tag(name, value)
    return out


def with_section(records: list[Record], i: int, name: str, tokens: list[Token]) -> list[Record]:
    rec = records[i]
    tags = tuple(t if t.name != name else type(t)(t.name, t.value, t.comments,
                                                  Section(tuple(tokens)))
                 for t in rec.tags)
    out = list(records)
    out[i] = Record(tags, rec.leading, rec.defaults, rec.location)
    return out


@_S
@given(seeds)
def test_generated_partie_validates_clean_and_round_trips(seed: int) -> None:
    recs = generate_partie(seed)
    assert validate(recs) == []
    assert list(loads(dumps(recs))) == recs


def test_generator_covers_every_kind_of_event() -> None:
    seen: set[str] = set()
    for seed in range(40):
        for rec in generate_partie(seed):
            drop = (rec.get("Dropout") or "").split()
            seen.add("give-up" if rec.get("Declarer") in drop else f"dropout{len(drop)}")
            seen.add("hand" if Bid.parse(rec.get("Contract") or "").is_hand else "talon")
            seen.add(rec.get("Scoring") or "")
            calls = [t.text for t in rec.auction.tokens] if rec.auction else []
            if calls[:2] == ["Pass", "Pass"]:
                seen.add("forced")
            if any(calls[i] == calls[j] != "Pass" for i in range(len(calls))
                   for j in range(i + 1, len(calls))):
                seen.add("hold")
    assert {"give-up", "dropout0", "dropout1", "dropout2", "hand", "talon", "forced",
            "hold"} <= seen
    assert any("must_trump=off" in s for s in seen) and "Preference" in seen


@_S
@given(seeds, st.integers(0, 11))
def test_wrong_score_is_P12(seed: int, i: int) -> None:
    recs = generate_partie(seed)
    score = (recs[i].get("Score") or "").split(";")
    items = [(p.split()[0], int(p.split()[1])) for p in score]
    items[0] = (items[0][0], items[0][1] + 1)
    items[1] = (items[1][0], items[1][1] - 1)
    bad = with_tag(recs, i, "Score", ";".join(f"{s} {v}" for s, v in items))
    assert "P12" in error_rules(bad)


@_S
@given(seeds, st.integers(0, 11))
def test_wrong_pot_is_P14(seed: int, i: int) -> None:
    recs = generate_partie(seed)
    bad = with_tag(recs, i, "Pot", str(int(recs[i].get("Pot") or 0) + 10))
    assert "P14" in error_rules(bad)


def _tricks(rec: Record) -> tuple[list[list[Token]], int]:
    assert rec.play is not None
    toks = list(rec.play.tokens)
    width = 2 if len(toks) == 20 else 3
    return [toks[k:k + width] for k in range(0, len(toks), width)], width


def _leaders(rec: Record, rows: list[list[Token]]) -> list[int]:
    """Column of each trick's leader, from the generator's own claims (winner leads next)."""
    trump = Bid.parse(rec.get("Contract") or "").suit
    lead, out = 0, []
    for row in rows:
        out.append(lead)
        width = len(row)
        order = [(lead + k) % width for k in range(width)]
        best = order[0]
        for col in order[1:]:
            c, b = Card.parse(row[col].text), Card.parse(row[best].text)
            if (c.suit is b.suit and c.rank.order > b.rank.order) or \
                    (c.suit is trump and b.suit is not trump):
                best = col
        lead = best
    return out


def _swap(seed: int, want_trump: bool) -> list[Record] | None:
    """Swap two cards of one player so that an earlier trick breaks follow suit or trumping."""
    recs = trumping(seed)
    for i, rec in enumerate(recs):
        if rec.play is None:
            continue
        trump = Bid.parse(rec.get("Contract") or "").suit
        rows, width = _tricks(rec)
        leads = _leaders(rec, rows)
        for t, row in enumerate(rows):
            led = Card.parse(row[leads[t]].text).suit
            for col in range(width):
                if col == leads[t]:
                    continue
                c = Card.parse(row[col].text)
                if want_trump != (c.suit is trump and led is not trump):
                    continue
                if not want_trump and c.suit is not led:
                    continue
                for t2 in range(t + 1, len(rows)):
                    d = Card.parse(rows[t2][col].text)
                    if d.suit is led or d.suit is trump:
                        continue
                    flat = [tok for r in rows for tok in r]
                    a, b = t * width + col, t2 * width + col
                    flat[a], flat[b] = flat[b], flat[a]
                    return with_section(recs, i, "Play", flat)
    return None


@_S
@given(seeds)
def test_revoke_is_P10(seed: int) -> None:
    bad = _swap(seed, want_trump=False)
    assume(bad is not None)
    assert bad is not None
    assert any(f.rule == "P10" and "must follow" in f.message
               for f in validate(bad) if f.is_error)


@_S
@given(seeds)
def test_failure_to_trump_is_P10(seed: int) -> None:
    bad = _swap(seed, want_trump=True)
    assume(bad is not None)
    assert bad is not None
    assert any(f.rule == "P10" and "must trump" in f.message
               for f in validate(bad) if f.is_error)


@_S
@given(seeds)
def test_bid_not_higher_is_P5(seed: int) -> None:
    recs = generate_partie(seed)
    for i, rec in enumerate(recs):
        calls = list(rec.auction.tokens) if rec.auction else []
        if len(calls) >= 2 and calls[0].text != "Pass" and calls[1].text != "Pass":
            calls[1] = Token(TokenKind.CALL, calls[0].text)  # middle hand may not hold
            assert "P5" in error_rules(with_section(recs, i, "Auction", calls))
            return
    assume(False)


@_S
@given(seeds)
def test_contract_below_bid_is_P8(seed: int) -> None:
    recs = generate_partie(seed)
    for i, rec in enumerate(recs):
        contract = Bid.parse(rec.get("Contract") or "")
        if contract.suit_value > 1:
            low = Bid.HAND_CLUBS if contract.is_hand else Bid.CLUBS
            calls = list(rec.auction.tokens) if rec.auction else []
            final = [Bid.parse(t.text) for t in calls if t.text != "Pass"][-1]
            if final.suit_value > 1:
                assert "P8" in error_rules(with_tag(recs, i, "Contract", low.value))
                return
    assume(False)


@_S
@given(seeds)
def test_discard_not_held_is_P7(seed: int) -> None:
    recs = generate_partie(seed)
    for i, rec in enumerate(recs):
        discard = rec.get("Discard")
        declarer = rec.get("Declarer")
        if discard and declarer:
            deal = (rec.get("Deal") or "").split(":")[1].split()
            first = Seat(rec.get("Dealer") or "N")
            hands = dict(zip([s.value for s in first.rotation()], deal, strict=True))
            other = next(s for s in "NES" if s != declarer)
            spades, hearts, diamonds, clubs = hands[other].split(".")
            suit, ranks = next((s, r) for s, r in zip("SHDC", (spades, hearts, diamonds, clubs),
                                                      strict=True) if r)
            bad = with_tag(recs, i, "Discard", f"{discard.split()[0]} {suit}{ranks[0]}")
            assert "P7" in error_rules(bad)
            return
    assume(False)
