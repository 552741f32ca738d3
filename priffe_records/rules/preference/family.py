"""The Préférence family object: every hook of ``rules/family.py``'s protocol, for the game.

>>> PREFERENCE.vocabulary.accepts("Preference;ante=5"), PREFERENCE.vocabulary.accepts("Priffe")
(True, False)
>>> len(PREFERENCE.deck)
32
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record, Tag
from priffe_records.format.vocabulary import Vocabulary
from priffe_records.game.cards import Card, Hand, Seat, sorted_cards
from priffe_records.game.language import Message, msg, msg_p
from priffe_records.rules import family
from priffe_records.rules.family import Check, EntryForm, GameFamily, PartieOutcome, Sheet

from . import columns
from .analysis import PrefOutcome, analyse
from .books import PrefBooks, PrefLine, PrefPartie
from .deal import DECK
from .options import DEFAULT_OPTIONS, FAMILY_WORD, PrefOptions
from .table import PLAYERS, next_player
from .words import WORDS

if TYPE_CHECKING:
    from priffe_records.dd import Deal
    from priffe_records.rules.replay_facts import ReplayFacts

    from .sheet import PrefSheet


# The checks validate -v lists, as PREFERENCE.md groups the rules.
CHECKS: tuple[Check, ...] = (
    Check("deal and talon", "P1", "P1", ("Deal", "Talon"), msg_p("check", "deal and talon")),
    Check("auction", "P2", "P6", ("Auction",), msg_p("check", "auction")),
    Check("talon and contract", "P7", "P8", ("Contract", "Discard"),
          msg_p("check", "talon and contract")),
    Check("drop-outs", "P9", "P9", ("Dropout",), msg_p("check", "drop-outs")),
    Check("play", "P10", "P10", ("Play",), msg_p("check", "play")),
    Check("payments", "P11", "P13", ("Result", "Score", "Dropout"), msg_p("check", "payments")),
    Check("claims", "P14", "P14", ("Declarer", "Result", "Score", "Pot", "Balance"),
          msg_p("check", "claims")),
)


@dataclass(frozen=True, slots=True)
class Preference(family.Defaults[PrefOutcome]):
    """Three players at N, E, S, 32 cards and a talon, 10 tricks, a pot (PREFERENCE.md)."""

    name: str = FAMILY_WORD
    prefix: str = "P"
    deck: frozenset[Card] = DECK
    players: tuple[Seat, ...] = PLAYERS
    tricks: int = 10
    vocabulary: Vocabulary = WORDS
    checks: tuple[Check, ...] = CHECKS

    def next_dealer(self, dealer: Seat) -> Seat:
        """N → E → S → N (P2): W is no seat of the game."""
        return next_player(dealer)

    @property
    def presets(self) -> dict[str, PrefOptions]:
        return {}

    def scoring_tag(self, options: object = None) -> str:
        own = options if isinstance(options, PrefOptions) else DEFAULT_OPTIONS
        return own.scoring()

    def analyse(self, record: Record, default: object, conventions: bool) -> PrefOutcome:
        """``default`` (options for records without a Scoring tag) does not apply:
        a Préférence record always names its game."""
        return analyse(record)

    def books(self, event: str | None, site: str | None, date: str | None) -> PrefBooks:
        return PrefBooks(event, site, date)

    def deal_tags(self, rng: random.Random, dealer: Seat) -> list[Tag]:
        """Three hands of ten dealt from the dealer round, and the two cards of the talon."""
        cards = sorted_cards(DECK)
        rng.shuffle(cards)
        hands = {s: Hand(tuple(sorted_cards(cards[i * 10:(i + 1) * 10])))
                 for i, s in enumerate(PLAYERS)}
        text = " ".join("-" if s not in hands else hands[s].pbn() for s in dealer.rotation())
        return [Tag("Deal", f"{dealer.value}:{text}"),
                Tag("Talon", " ".join(str(c) for c in cards[30:]))]

    # The generator and the sheet load when asked for: validate needs neither.

    def played_deals(self, n: int, seed: int) -> list[Record]:
        from .generate import generate_partie

        return generate_partie(seed, deals=n)

    def fill(self, records: Sequence[Record], sheets: Sequence[PrefSheet]) -> list[Record]:
        from .sheet import fill_preference

        return fill_preference(list(records), list(sheets))

    def deal_columns(self, line: PrefLine) -> dict[str, Any]:
        return columns.deal_columns(line)

    def archive_views(self) -> dict[str, str]:
        return columns.VIEWS

    def standings(self) -> tuple[family.Standing, ...]:
        return (family.Standing(
            "preference_standings", ("parties", "deals", "balance"),
            msg("Préférence standings (balances, antes included, P13/P14)"),
            msg("Préférence: each player's balance summed over every partie (antes "
                "included).")),)

    # The solver loads when asked for: validate needs none of it.

    def dd_deal(self, outcome: PrefOutcome) -> Deal | None:
        from priffe_records.rules.preference.dd import dd_deal

        return dd_deal(outcome)

    def dd_no_play(self, outcome: PrefOutcome) -> Message | None:
        if not outcome.no_play:
            return None
        if outcome.gave_up:
            return msg("the declarer gave up: no card was played (P9)")
        return msg("both defenders dropped out: no card was played (P9)")

    def partie_sheet(self, partie: PartieOutcome, items: Sequence[Record | BadRecord]
                     ) -> Sheet | None:
        from .sheet import drawn, sheet_of

        return drawn(sheet_of(partie, items)) if isinstance(partie, PrefPartie) else None

    def replay_facts(self, partie: PartieOutcome) -> dict[int, ReplayFacts]:
        from .replay import partie_facts

        return partie_facts(partie)

    # The secretary's entry loads when asked for: validate needs none of it.

    @property
    def entry(self) -> EntryForm:
        from .entry import ENTRY

        return ENTRY


PREFERENCE: GameFamily[PrefOutcome] = Preference()


@family.hookimpl
def priffe_family() -> GameFamily[PrefOutcome]:
    return PREFERENCE
