"""The Priffe family object: every hook of ``rules/family.py``'s protocol, for Priffe.

>>> len(PRIFFE.deck), PRIFFE.tricks
(52, 13)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Record, Tag
from priffe_records.format.vocabulary import Vocabulary
from priffe_records.game.cards import FULL_DECK, SEATS, Card, Seat
from priffe_records.game.language import msg_p
from priffe_records.rules import family
from priffe_records.rules.family import Check, EntryForm, GameFamily, PartieOutcome, Sheet
from priffe_records.rules.findings import Finding
from priffe_records.rules.priffe import columns
from priffe_records.rules.priffe.analysis import DealOutcome, analyse_record
from priffe_records.rules.priffe.options import FAMILY_WORD, PRESETS, Options
from priffe_records.rules.priffe.rubber import DealLine, PartieResult, PartieScorer, RubberEnd
from priffe_records.rules.priffe.words import WORDS

if TYPE_CHECKING:
    from priffe_records.dd import Deal
    from priffe_records.rules.priffe.sheet import PartieSheet
    from priffe_records.rules.replay_facts import ReplayFacts

_DEFAULT = PRESETS["sv"]

# The checks validate -v lists, as RULES.md groups the rules.
CHECKS: tuple[Check, ...] = (
    Check("deal", "R1", "R3", ("Deal",), msg_p("check", "deal")),
    Check("auction", "R4", "R9", ("Auction",), msg_p("check", "auction")),
    Check("play", "R10", "R13", ("Play",), msg_p("check", "play")),
    Check("score", "R14", "R18", ("Result", "Score", "Honours"), msg_p("check", "score")),
    Check("rubber", "R19", "R22", ("ScoreRubber",), msg_p("check", "rubber")),
    Check("settlement", "R23", "R24", ("Settlement",), msg_p("check", "settlement")),
)


def _own(options: object) -> Options:
    """The caller's options if they are Priffe's, else the default preset."""
    return options if isinstance(options, Options) else _DEFAULT


@dataclass(frozen=True, slots=True)
class Priffe(family.Defaults[DealOutcome]):
    """Four players in two partnerships, 52 cards, 13 tricks, rubbers (RULES.md R1–R24)."""

    name: str = FAMILY_WORD
    prefix: str = "R"
    deck: frozenset[Card] = FULL_DECK
    players: tuple[Seat, ...] = SEATS
    tricks: int = 13
    vocabulary: Vocabulary = WORDS
    checks: tuple[Check, ...] = CHECKS

    def next_dealer(self, dealer: Seat) -> Seat:
        """The seat on the dealer's left (R3)."""
        return dealer.left

    @property
    def presets(self) -> dict[str, Options]:
        return PRESETS

    def scoring_tag(self, options: object = None) -> str:
        return _own(options).scoring_tag()

    def analyse(self, record: Record, default: object, conventions: bool) -> DealOutcome:
        return analyse_record(record, _own(default), conventions)

    def books(self, event: str | None, site: str | None, date: str | None) -> PartieScorer:
        return PartieScorer(event, site, date)

    # The generator and the sheet load when asked for: validate needs neither.

    def deal_tags(self, rng: random.Random, dealer: Seat) -> list[Tag]:
        from priffe_records.rules.priffe.generate import random_deal

        return [Tag("Deal", random_deal(rng).pbn(dealer))]

    def played_deals(self, n: int, seed: int) -> list[Record]:
        from priffe_records.rules.priffe.generate import generate_records

        return generate_records(n, seed)

    def fill(self, records: Sequence[Record], sheets: Sequence[PartieSheet]) -> list[Record]:
        from priffe_records.rules.priffe.sheet import fill_records

        return fill_records(list(records), list(sheets))

    def claim_columns(self, record: Record) -> tuple[dict[str, Any], tuple[Finding, ...]]:
        return columns.claim_columns(record)

    def deal_columns(self, line: DealLine) -> dict[str, Any]:
        return columns.deal_columns(line)

    def rubber_ends(self, result: PartieResult) -> tuple[RubberEnd, ...]:
        return result.rubbers

    def rubber_rows(self, ends: Sequence[RubberEnd], last_of: dict[int, Record]
                    ) -> list[dict[str, Any]]:
        return [columns.rubber_columns(end, last_of.get(end.rubber)) for end in ends]

    # The solver loads when asked for: validate needs none of it.

    def dd_deal(self, outcome: DealOutcome) -> Deal | None:
        from priffe_records.rules.priffe.dd import dd_deal

        return dd_deal(outcome)

    def partie_sheet(self, partie: PartieOutcome, items: Sequence[Record | BadRecord]
                     ) -> Sheet | None:
        from priffe_records.rules.priffe.sheet import drawn, sheet_of

        if not isinstance(partie, PartieResult) or not (partie.lines or partie.findings):
            return None
        return drawn(sheet_of(partie, items))

    def replay_facts(self, partie: PartieOutcome) -> dict[int, ReplayFacts]:
        from .replay import partie_facts

        return partie_facts(partie)

    # The secretary's entry loads when asked for: validate needs none of it.

    @property
    def entry(self) -> EntryForm:
        from priffe_records.rules.priffe.entry import ENTRY

        return ENTRY


PRIFFE: GameFamily[DealOutcome] = Priffe()


@family.hookimpl
def priffe_family() -> GameFamily[DealOutcome]:
    return PRIFFE
