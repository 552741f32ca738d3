"""validate() streams findings record by record; the reference gathers a partie's findings and
sorts them when it ends: the same findings, byte for byte, on generated parties with
corruptions, the examples and the corpus. (Each family has one analysis and one replay;
the frozen validator digests hold them to their results before.)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from itertools import product
from pathlib import Path

import pytest
from conftest import CORPUS_FILES, PPN_FILES, scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from priffe_records import dumps, loads, read, validate
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record, Section, Token, TokenKind
from priffe_records.game.calls import Contract
from priffe_records.game.cards import SEATS, Card, Deal, Hand, Seat
from priffe_records.rules.findings import Finding
from priffe_records.rules.partie import parties
from priffe_records.rules.priffe import play
from priffe_records.rules.priffe.generate import PartieSpec, generate_partie
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.scoring import (
    SidePoints,
    honour_cards,
    honours,
    honours_from_counts,
)

# A whole partie an example.
SETTINGS = settings(scaled(0.25), suppress_health_check=[HealthCheck.too_slow,
                                                     HealthCheck.function_scoped_fixture])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
CARDS = [s + r for s in "SHDC" for r in "AKQJT98765432"]


def words(findings: Iterable[Finding]) -> list[tuple[object, ...]]:
    """Everything a finding shows: its printed line and every field, in order."""
    return [(str(f), f.rule, f.severity, f.message, f.location, f.record) for f in findings]


def reference_validate(records: list[Record | BadRecord], **kw: object) -> list[Finding]:
    """validate() as it was: each whole partie analysed, its findings sorted at its end."""
    return [f for p in parties(records, **kw) for f in p.findings]  # type: ignore[arg-type]


def assert_same(records: list[Record | BadRecord], **kw: object) -> None:
    streamed = words(validate(records, **kw))  # type: ignore[arg-type]
    assert streamed == words(reference_validate(records, **kw))


def _with_play(rec: Record, tokens: list[Token], ended: bool | None = None) -> Record:
    if ended is not None:
        tokens = [t for t in tokens if t.kind is not TokenKind.END]
        if ended:
            tokens.append(Token(TokenKind.END, "*"))
    tags = tuple(replace(t, section=Section(tuple(tokens))) if t.name == "Play" else t
                 for t in rec.tags)
    return Record(tags, rec.leading, rec.defaults, rec.location)


# Kinds of damage that pick among the play's cards, and how many they need.
_CARDS_NEEDED = {0: 2, 1: 1, 2: 1, 3: 2, 11: 2}


def corrupt(rec: Record, rng: random.Random) -> Record:
    """One random damage of the kind a score sheet or a typist makes."""
    assert rec.play is not None
    tokens = list(rec.play.tokens)
    cards = [k for k, t in enumerate(tokens) if t.kind is TokenKind.CARD]
    kind = rng.randrange(12)
    try:
        deal = Deal.parse(str(rec.get("Deal")))
    except ValueError:  # damaged before: damage something else
        kind = rng.choice((0, 1, 2, 3, 4, 5, 6, 10, 11))
    if len(cards) < _CARDS_NEEDED.get(kind, 0):  # a play cut down before: add a card instead
        kind = 4
    if kind == 0:  # two cards of the play swapped (a revoke or a wrong owner)
        a, b = rng.sample(cards, 2)
        tokens[a], tokens[b] = tokens[b], tokens[a]
    elif kind == 1:  # a card replaced by another (maybe one played before)
        k = rng.choice(cards)
        tokens[k] = replace(tokens[k], text=rng.choice(CARDS))
    elif kind == 2:  # an unknown card
        k = rng.choice(cards)
        tokens[k] = Token(TokenKind.CARD, "-")
    elif kind == 3:  # the play cut short, with or without a claim
        cut = rng.randrange(1, len(cards))
        return _with_play(rec, tokens[:cards[cut]], ended=rng.random() < 0.5)
    elif kind == 4:  # a card too many, or a trick too many
        extra = [Token(TokenKind.CARD, rng.choice(CARDS)) for _ in range(rng.choice((1, 4)))]
        body = [t for t in tokens if t.kind is not TokenKind.END]
        return _with_play(rec, body + extra, ended=rng.random() < 0.3)
    elif kind == 5:  # another contract: other trumps, maybe no declarer
        return rec.replace_tag("Contract", rng.choice(
            ["Hjärter", "Ruter", "Noll", "Spela", "Tvångsnoll", "Passnoll"]))
    elif kind == 6:  # the play starts at another seat
        return rec.replace_tag("Play", rng.choice("NESW"))
    elif kind == 7:  # one hand unknown, or two
        hands = [h.pbn() if h else "-" for h in deal.hands]
        for i in rng.sample(range(4), rng.choice((1, 2))):
            hands[i] = "-"
        return rec.replace_tag("Deal", "N:" + " ".join(hands))
    elif kind == 8:  # no deal at all
        return rec.replace_tag("Deal", "")
    elif kind == 9:  # two cards swapped between hands
        hands = [list(h.cards) for h in deal.hands if h is not None]
        if len(hands) < 2:
            return rec
        a, b = rng.sample(range(len(hands)), 2)
        i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
        text = "N:" + " ".join(
            ".".join("".join(c.rank.value for c in sorted(
                (c for c in h if c.suit.value == s), key=lambda c: -c.rank.order))
                for s in "SHDC") for h in hands)
        return rec.replace_tag("Deal", text)
    elif kind == 10:  # must_trump on
        return rec.replace_tag("Scoring", "Priffe;must_trump=yes")
    else:  # a claim added mid-way through a trick
        cut = rng.randrange(1, len(cards))
        return _with_play(rec, [*tokens[:cards[cut]], Token(TokenKind.END, "*")])
    return _with_play(rec, tokens)


def partie(seed: int, preset: str = "sv") -> list[Record]:
    spec = PartieSpec(options=PRESETS[preset], comments=True, claim_rate=0.3)
    return generate_partie(seed, spec, rubbers=2)


def damaged(seed: int, preset: str, damages: int) -> list[Record]:
    """A generated partie with ``damages`` random damages (a record may get several)."""
    recs = partie(seed, preset)
    rng = random.Random(seed)
    for _ in range(damages):
        i = rng.randrange(len(recs))
        recs[i] = corrupt(recs[i], rng)
    return recs


@SETTINGS
@given(SEEDS, st.sampled_from(["sv", "en"]), st.integers(1, 6))
def test_corrupted_parties_give_the_same_findings(seed: int, preset: str, damages: int) -> None:
    recs = damaged(seed, preset, damages)
    # Once as built, once as read back from text (locations, comments).
    assert_same(list(recs))
    assert_same(list(loads(dumps(recs))), options=PRESETS[preset], conventions=True)


def test_clean_path_is_taken_for_a_clean_play() -> None:
    """A clean play keeps ints: its tricks are built only when read."""
    rec = partie(3)[0]
    assert rec.play is not None
    res = play.replay(rec.play, Seat.parse(str(rec.get("Play"))),
                      Deal.parse(str(rec.get("Deal"))), None)
    assert not res.built  # not built yet
    assert len(res.tricks) == 13 or rec.play.ended


def _files() -> list[Path]:
    return PPN_FILES + CORPUS_FILES


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name[:40])
def test_real_files_give_the_same_findings(path: Path) -> None:
    assert_same(list(read(path, errors="collect")))


def _honours_by_card(deal: Deal, contract: Contract, options: Options) -> SidePoints | None:
    """R17 as the engine computed it before the bit masks: card by card."""
    cards = honour_cards(contract, options)
    counts: dict[Seat, int] = {}
    for seat in SEATS:
        hand = deal.hand(seat)
        if hand is not None:
            counts[seat] = sum(1 for c in hand.cards if c in cards)
    missing = len(cards) - sum(counts.values())
    unknown = [seat for seat in SEATS if deal.hand(seat) is None]
    if missing and not unknown:
        return None
    found: set[SidePoints] = set()
    for placement in product(unknown, repeat=missing):
        placed = dict(counts)
        for seat in placement:
            placed[seat] = placed.get(seat, 0) + 1
        found.add(honours_from_counts(placed, options.honours))
        if len(found) > 1:
            return None
    return found.pop()


@SETTINGS
@given(SEEDS, st.sampled_from(list(Contract)), st.sampled_from(sorted(PRESETS)))
def test_honours_on_bit_masks_equal_the_card_count(seed: int, contract: Contract,
                                                   preset: str) -> None:
    """Also for deals the deal check rejects: a card twice, hands unknown or short."""
    rng = random.Random(seed)
    deck = [Card.parse(c) for c in CARDS]
    rng.shuffle(deck)
    hands: list[Hand | None] = [Hand(tuple(deck[i * 13:(i + 1) * 13])) for i in range(4)]
    for _ in range(rng.randrange(3)):
        a, b = rng.sample(range(4), 2)
        ha, hb = hands[a], hands[b]
        assert ha is not None and hb is not None
        hands[a] = Hand((*ha.cards[1:], rng.choice(hb.cards)))  # a card dealt twice
    for i in rng.sample(range(4), rng.randrange(3)):
        hands[i] = None
    deal = Deal((hands[0], hands[1], hands[2], hands[3]))

    def outcome(fn: object) -> object:
        try:
            return fn(deal, contract, PRESETS[preset])  # type: ignore[operator]
        except ValueError as e:  # more honours than exist: a deal R2 rejects first
            return type(e)

    assert outcome(honours) == outcome(_honours_by_card)


_ODD_ITEMS = [
    '[Event "x"]\n[Deal "N:AKQ.- - -" x\n',  # unreadable: a BadRecord in the stream
    '[Event "Bridge"]\n[Contract "4S"]\n[Declarer "N"]\n',  # another game
    '[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]\n',  # a deal diagram
    '[Event "Klubbkväll"]\n[Contract "Noll"]\n[Declarer "N"]\n[Result "NS 7 EW 6"]\n',
]


def several_parties(seed: int, rng: random.Random, *, parties: int = 3, rubbers: int = 1,
                    damage: float = 0.2, odd: int = 5) -> str:
    """Parties in a row, some deals damaged, up to ``odd`` odd items put in between."""
    chunks: list[str] = []
    for k in range(parties):
        spec = PartieSpec(event=rng.choice(["Klubbkväll", "Torsdag"]), date=f"2026.0{k + 1}.01",
                          comments=True, claim_rate=0.3)
        recs = generate_partie(seed + k, spec, rubbers=rubbers)
        recs = [corrupt(r, rng) if rng.random() < damage else r for r in recs]
        chunks += [dumps([r], header=False) for r in recs]
    for _ in range(rng.randrange(1, odd + 1) if odd else 0):
        chunks.insert(rng.randrange(len(chunks) + 1), rng.choice(_ODD_ITEMS))
    return "\n".join(chunks)


@SETTINGS
@given(SEEDS, st.integers(0, 10_000))
def test_several_parties_with_odd_items_give_the_same_findings(seed: int, pick: int) -> None:
    """Partie changes, unreadable records, other games and diagrams between the deals."""
    text = several_parties(seed, random.Random(pick))
    records = list(loads(text, errors="collect"))
    assert any(isinstance(r, BadRecord) for r in records) or "AKQ.-" not in text
    assert_same(records)
