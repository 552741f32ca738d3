"""The bridge family object: every hook of ``rules/family.py``'s protocol, for contract
bridge as PBN 2.1 records it (docs/bridge.md).

>>> BRIDGE.vocabulary.accepts("MP"), len(BRIDGE.deck), BRIDGE.next_dealer(Seat.W).value
(True, 52, 'N')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record, Tag
from priffe_records.format.vocabulary import Vocabulary
from priffe_records.game.cards import FULL_DECK, SEATS, Card, Deal, Hand, Seat, sorted_cards
from priffe_records.game.language import msg_p
from priffe_records.rules import family
from priffe_records.rules.family import Check, GameFamily, PartieOutcome, Sheet
from priffe_records.rules.findings import Finding

from . import columns
from .analysis import BridgeOutcome, analyse
from .books import BridgeBooks, BridgeLine, BridgePartie
from .words import WORDS

if TYPE_CHECKING:
    from priffe_records.dd import Deal as SolverDeal
    from priffe_records.rules.replay_facts import ReplayFacts

# The checks validate -v lists, as docs/bridge.md groups the rules.
CHECKS: tuple[Check, ...] = (
    Check("deal", "B1", "B1", ("Deal",), msg_p("check", "deal")),
    Check("auction", "B2", "B5", ("Auction",), msg_p("check", "auction")),
    Check("play", "B6", "B8", ("Play",), msg_p("check", "play")),
    Check("result", "B9", "B9", ("Result",), msg_p("check", "result")),
    Check("score", "B10", "B11", ("Score",), msg_p("check", "score")),
)


@dataclass(frozen=True, slots=True)
class Bridge(family.Defaults[BridgeOutcome]):
    """Four players in two partnerships, 52 cards, 13 tricks; each deal scored alone. No
    practice deals, rubbers or typed entry: the optional groups' defaults."""

    name: str = "Bridge"
    prefix: str = "B"
    deck: frozenset[Card] = FULL_DECK
    players: tuple[Seat, ...] = SEATS
    tricks: int = 13
    vocabulary: Vocabulary = WORDS
    checks: tuple[Check, ...] = CHECKS

    def next_dealer(self, dealer: Seat) -> Seat:
        return dealer.left

    @property
    def presets(self) -> dict[str, Any]:
        return {}

    def scoring_tag(self, options: object = None) -> str:
        return "IMP"

    def analyse(self, record: Record, default: object, conventions: bool) -> BridgeOutcome:
        return analyse(record)

    def books(self, event: str | None, site: str | None, date: str | None) -> BridgeBooks:
        return BridgeBooks(event, site, date)

    def deal_tags(self, rng: random.Random, dealer: Seat) -> list[Tag]:
        cards = sorted_cards(FULL_DECK)
        rng.shuffle(cards)
        deal = Deal(tuple(Hand(tuple(sorted_cards(cards[i * 13:(i + 1) * 13])))  # type: ignore[arg-type]
                          for i in range(4)))
        return [Tag("Deal", deal.pbn(dealer))]

    def fill(self, records: Sequence[Record], sheets: Sequence[BridgePartie]) -> list[Record]:
        """The computed Score written in as North-South's points."""
        scores = {ln.outcome.index: ln.outcome.score for s in sheets for ln in s.lines}
        return [rec.replace_tag("Score", f"NS {scores[i]}") if scores.get(i) is not None
                else rec for i, rec in enumerate(records, 1)]

    def claim_columns(self, record: Record) -> tuple[dict[str, Any], tuple[Finding, ...]]:
        return columns.claim_columns(record)

    def deal_columns(self, line: BridgeLine) -> dict[str, Any]:
        return columns.deal_columns(line.outcome)

    def partie_sheet(self, partie: PartieOutcome, items: Sequence[Record | BadRecord]
                     ) -> Sheet | None:
        from .sheet import drawn

        return drawn(partie, items) if isinstance(partie, BridgePartie) else None

    def replay_facts(self, partie: PartieOutcome) -> dict[int, ReplayFacts]:
        from .replay import partie_facts

        return partie_facts(partie)

    def dd_deal(self, outcome: BridgeOutcome) -> SolverDeal | None:
        from .dd import dd_deal

        return dd_deal(outcome)


BRIDGE: GameFamily[BridgeOutcome] = Bridge()


@family.hookimpl
def priffe_family() -> GameFamily[BridgeOutcome]:
    return BRIDGE
