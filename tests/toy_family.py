"""A third game family for the tests, written as a new family would be: its words for the
reader (``WORDS``, data only) and one object with the hooks of rules/family.py it has
(the optional groups' defaults for the rest), registered by an entry point naming the
words ("toy_family:WORDS"), and this module its plugin.

Duel, a made-up game: N and S play the eight aces to jacks of spades and hearts, four
tricks of two cards; the auction's calls are Bet and Fold (a raise is a Bet), the
contract a Bet; a record's ``Result`` is ``N <tricks> S <tricks>`` and must add up to
four (D1).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from priffe_records.format.errors import BadRecord
from priffe_records.format.record import Location, Record, Tag
from priffe_records.format.vocabulary import Vocabulary
from priffe_records.game.cards import Card, Rank, Seat, Suit
from priffe_records.game.language import Message, msg
from priffe_records.rules.family import (
    Check,
    Defaults,
    GameFamily,
    PartieOutcome,
    Sheet,
    SheetColumn,
    SheetDeal,
    hookimpl,
)
from priffe_records.rules.findings import Finding, error, tag_location

DECK = frozenset(Card(s, r) for s in (Suit.S, Suit.H)
                 for r in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK))
_RESULT = re.compile(r"N (\d) S (\d)")


def unknown_call(word: str) -> Message:
    return msg("unknown call {word!r} (Duel calls: Bet Fold)", word=word)


WORDS = Vocabulary(
    name="Duel",
    calls={"bet": "Bet", "raise": "Bet", "fold": "Fold"},
    contracts={"bet": "Bet"},
    unknown_call=unknown_call,
    family="toy_family",
    trick=2,
    long_row=msg("Play row has 3 cards: a Duel trick is two (D2)"),
)
COLUMNS = (SheetColumn("Board", "right"), SheetColumn("N", "right"), SheetColumn("S", "right"))


@dataclass(frozen=True)
class DuelOutcome:
    record: Record
    findings: tuple[Finding, ...]
    tricks: tuple[int, int] | None
    index: int = 0
    in_family: bool = True
    is_diagram: bool = False

    def placed(self, index: int) -> DuelOutcome:
        return replace(self, index=index, findings=tuple(f.at_record(index)
                                                         for f in self.findings))


@dataclass(frozen=True)
class DuelLine:
    outcome: DuelOutcome
    n: int
    s: int


@dataclass(frozen=True)
class DuelPartie:
    event: str | None
    site: str | None
    date: str | None
    won: tuple[int, int] = (0, 0)  # tricks of N and S over the partie
    lines: tuple[DuelLine, ...] = ()
    findings: tuple[Finding, ...] = field(default=())

    def with_findings(self, findings: tuple[Finding, ...]) -> DuelPartie:
        return replace(self, findings=findings)


class DuelBooks:
    def __init__(self, event: str | None, site: str | None, date: str | None) -> None:
        self.partie = DuelPartie(event, site, date)

    def add(self, o: DuelOutcome) -> DuelLine | None:
        if o.tricks is None:
            return None
        line = DuelLine(o, *o.tricks)
        p = self.partie
        self.partie = replace(p, won=(p.won[0] + line.n, p.won[1] + line.s),
                              lines=(*p.lines, line))
        return line

    def lost(self, where: Location, index: int) -> None:
        """An unreadable record changes no total here: nothing to keep."""

    def close(self) -> DuelPartie:
        return self.partie


@dataclass(frozen=True)
class Duel(Defaults[DuelOutcome]):
    name: str = "Duel"
    prefix: str = "D"
    deck: frozenset[Card] = DECK
    players: tuple[Seat, ...] = (Seat.N, Seat.S)
    tricks: int = 4
    vocabulary: Vocabulary = WORDS
    checks: tuple[Check, ...] = ()  # validate -v lists none of Duel's

    def next_dealer(self, dealer: Seat) -> Seat:
        return Seat.S if dealer is Seat.N else Seat.N

    @property
    def presets(self) -> dict[str, object]:
        return {}

    def scoring_tag(self, options: object = None) -> str:
        return self.name

    def analyse(self, record: Record, default: object, conventions: bool) -> DuelOutcome:
        m = _RESULT.fullmatch(record.get("Result") or "")
        if m is None or int(m[1]) + int(m[2]) != self.tricks:
            said = msg("Result must give N's and S's tricks, {n} in all (D1)", n=self.tricks)
            return DuelOutcome(record, (error("D1", said, tag_location(record, "Result")),),
                               None)
        return DuelOutcome(record, (), (int(m[1]), int(m[2])))

    def books(self, event: str | None, site: str | None, date: str | None) -> DuelBooks:
        return DuelBooks(event, site, date)

    def deal_tags(self, rng: random.Random, dealer: Seat) -> list[Tag]:
        cards = sorted(DECK, key=str)
        rng.shuffle(cards)
        return [Tag("Hands", f"N {' '.join(map(str, cards[:4]))} S "
                             f"{' '.join(map(str, cards[4:]))}")]

    def played_deals(self, n: int, seed: int) -> list[Record]:
        rng = random.Random(seed)
        out = []
        for board in range(1, n + 1):
            won = rng.randint(0, self.tricks)
            out.append(Record((Tag("Board", str(board)), Tag("Scoring", self.name),
                               Tag("Result", f"N {won} S {self.tricks - won}"))))
        return out

    def fill(self, records: Sequence[Record], sheets: Sequence[DuelPartie]) -> list[Record]:
        """A point a trick: Score written from each deal's line."""
        lines = {ln.outcome.index: (ln.n, ln.s) for sheet in sheets for ln in sheet.lines}
        return [rec.replace_tag("Score", "N {} S {}".format(*lines[i]))
                if i in lines else rec for i, rec in enumerate(records, 1)]

    def deal_columns(self, line: DuelLine) -> dict[str, object]:
        return {"tricks_ns": line.n, "tricks_ew": line.s}

    def partie_sheet(self, partie: PartieOutcome, items: Sequence[Record | BadRecord]
                     ) -> Sheet | None:
        """A row per deal with each player's tricks; standings: the tricks over the partie."""
        if not isinstance(partie, DuelPartie):
            return None
        rows = tuple(SheetDeal(ln.outcome.index, (ln.outcome.record.get("Board") or "",
                                                  str(ln.n), str(ln.s)))
                     for ln in partie.lines)
        first = rows[0].record if rows else 0
        title = " · ".join(x for x in (partie.event, partie.site, partie.date) if x)
        return Sheet(title or "Duel", partie.event, partie.site, partie.date, COLUMNS, rows,
                     first, (("N", partie.won[0]), ("S", partie.won[1])), "Tricks",
                     game=self.name, findings=partie.findings, own=partie)


DUEL: GameFamily[DuelOutcome] = Duel()


@hookimpl
def priffe_family() -> GameFamily[DuelOutcome]:
    return DUEL
