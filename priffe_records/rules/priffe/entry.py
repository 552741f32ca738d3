"""A Priffe deal as a secretary writes it down: contract, declarer, tricks, score, honours.

Priffe's answer to the entry hooks of :mod:`priffe_records.rules.family`
(``PRIFFE.entry``): the words ``priffe add`` asks for and a ``sheet-import``
row holds, read the same way, and R24's new seats after a rubber.
:mod:`priffe_records.rules.entry` places the deal and checks it.

>>> parse_contract("hj"), parse_contract("Tvångsnoll")
(<Contract.HJARTER: 'Hjärter'>, <Contract.TVANGSNOLL: 'Tvångsnoll'>)
>>> str(parse_tricks("10", Side.EW)), str(parse_tricks("NS 8", None))
('NS 3 EW 10', 'NS 8 EW 5')
>>> str(parse_points("NS 80 ÖV 20")), str(parse_points("EW 40")), parse_points(" ")
('NS 80 EW 20', 'NS 0 EW 40', None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from priffe_records.format.record import Record
from priffe_records.game.calls import FINAL_BID_CONTRACT, CallError, Contract, Written, read_written
from priffe_records.game.cards import SEATS, Seat, Side
from priffe_records.game.language import Message, listing, msg
from priffe_records.game.words import seat_letter, side_name
from priffe_records.rules.entry import (
    EntryError,
    ask_contract,
    parse_seat,
    players_of,
    unmarked,
)
from priffe_records.rules.family import Asking, Entry, SheetRow
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.scoring import SidePoints
from priffe_records.rules.priffe.sheet import DealRow, PartieSheet, score_parties

# Swedish sheets write the sides NS and ÖV.
_SIDE_ALIASES = re.compile(r"ÖV|OV|ØV", re.IGNORECASE)
_TWO_NUMBERS = re.compile(r"^(-?\d+)\s*[-–/ ]\s*(-?\d+)$")
_ONE_SIDE = re.compile(r"^(NS|EW)\s*(-?\d+)$", re.IGNORECASE)
# The final bids a secretary may write for a Tvångsnoll (R8), offered by tab completion.
_FORCING = tuple(b.value for b, c in FINAL_BID_CONTRACT.items() if not c.has_declarer)


def read_contract(text: str) -> Written:
    """A contract as written on the paper (``hj``, ``misär``, ``passnolla``, a final
    ``Klöver`` for its Tvångsnoll: calls.PAPER_WORDS), or the start of words that all say
    one thing."""
    word = text.strip()
    if not word:
        raise EntryError(msg("no contract given"))
    try:
        return read_written(word)
    except CallError as e:
        raise EntryError(e.message) from None


def parse_contract(text: str) -> Contract:
    """The contract :func:`read_contract` reads (R8 makes a final Klöver a Tvångsnoll)."""
    return read_contract(text).contract


def _sides(text: str) -> str:
    return _SIDE_ALIASES.sub("EW", text.strip())


def parse_tricks(text: str, side: Side | None) -> SidePoints:
    """``10`` (the tricks of ``side``, the declarer's), ``NS 3 EW 10`` or ``NS 3`` alone.

    A contract without a declarer has no side a bare number could count for.
    """
    t = _sides(text)
    if t.isdigit():
        if side is None:
            raise EntryError(msg("{text!r}: the contract has no declarer, so write the tricks "
                                 "of both sides: NS n EW m", text=t))
        n = int(t)
        if n > 13:
            raise EntryError(msg("{text!r}: a side takes 0 to 13 tricks", text=t))
        return SidePoints.one(side, n) + SidePoints.one(side.other, 13 - n)
    try:
        tricks = SidePoints.parse(t, total=13)
    except ValueError:
        raise EntryError(msg("{text!r} is not a number of tricks (0 to 13) or 'NS n EW m'",
                             text=t)) from None
    if min(tricks.ns, tricks.ew) < 0 or max(tricks.ns, tricks.ew) > 13:
        raise EntryError(msg("{text!r}: a side takes 0 to 13 tricks", text=t))
    return tricks


def parse_points(text: str) -> SidePoints | None:
    """Points per side (a score, honours): ``NS 80 EW 0``, ``EW 40`` or ``80-0``; empty or
    ``-``: none (``-`` also clears a value given before)."""
    t = _sides(text)
    if not t or t == "-":
        return None
    pair = _TWO_NUMBERS.match(t)
    if pair:
        return SidePoints(int(pair.group(1)), int(pair.group(2)))
    one = _ONE_SIDE.match(t)
    if one:
        return SidePoints.one(Side(one.group(1).upper()), int(one.group(2)))
    try:
        return SidePoints.parse(t)
    except ValueError:
        raise EntryError(msg("{text!r} is not points per side: write 'NS n EW m'",
                             text=text.strip())) from None


@dataclass(frozen=True, slots=True)
class DealEntry:
    """One deal as written on the sheet; ``score`` and ``honours`` only when written."""

    contract: Contract
    declarer: Seat | None
    tricks: SidePoints
    score: SidePoints | None = None
    honours: SidePoints | None = None
    kept: bool = False  # the score kept as written on the paper (a cell marked NS 20 EW 0*)

    def tags(self) -> dict[str, str]:
        """The tag values the deal sets, in the record's words."""
        out = {"Declarer": self.declarer.value if self.declarer else "",
               "Contract": self.contract.value, "Result": str(self.tricks)}
        if self.score is not None:
            out["Score"] = str(self.score)
        if self.honours is not None:
            out["Honours"] = str(self.honours)
        if self.kept and self.score is not None:
            out["Kept"] = "Score"
        return out


def rubber_ended_before(records: Sequence[Record], index: int, *,
                        options: Options = PRESETS["sv"]) -> bool:
    """Whether the deal before ``index`` ended a rubber (R22), so seats change now (R24)."""
    if index == 0:
        return False
    for sheet in score_parties(records[:index], options=options):
        for row in sheet.rows:
            if isinstance(row, DealRow) and row.record == index:
                return bool(row.ends_rubber)
    return False


def parse_seating(text: str, proposed: Mapping[Seat, str]) -> dict[Seat, str]:
    """Empty: the proposed seats; else four names, comma-separated, in seat order N, E, S, W."""
    if not text.strip():
        return dict(proposed)
    names = [n.strip() for n in text.split(",")]
    if len(names) != 4 or not all(names):
        raise EntryError(msg("{text!r}: write four names separated by commas, in seat order "
                             "N, E, S, W", text=text.strip()))
    return dict(zip(SEATS, names, strict=True))


@dataclass(frozen=True, slots=True)
class PriffeEntry:
    """Priffe's entry hooks: a deal's words, its sheet columns, R24's seats."""

    columns: tuple[str, ...] = ("Board", "Dealer", "Contract", "Declarer", "Result", "Honours",
                                "Score")
    computed: tuple[str, ...] = ("Σ NS", "Σ EW")  # running totals, computed again on import
    keepable: tuple[str, ...] = ("Score",)  # counted as written when kept (analysis.kept)

    @property
    def heading_words(self) -> Mapping[str, Mapping[str, str]]:
        """Priffe's sheet uses the shared headings."""
        return {}

    def read_row(self, row: SheetRow, players: Mapping[Seat, str]) -> DealEntry | None:
        """The row's deal, or ``None`` with a problem per bad cell."""
        contract = row.read("Contract", parse_contract)
        declarer: Seat | None = None
        wanted = bool(row.cells.get("Declarer")) or contract is None or contract.has_declarer
        if wanted:
            declarer = row.read("Declarer", lambda t: parse_seat(t, players))
        # Without the declarer's side a bare count can only be checked as a count.
        side = declarer.side if declarer is not None else Side.NS if wanted else None
        tricks = row.read("Result", lambda t: parse_tricks(t, side))
        kept = unmarked(row.cells.get("Score", ""))[1]
        score = row.read("Score", lambda t: parse_points(unmarked(t)[0]))
        honours = row.read("Honours", parse_points)
        if contract is None or tricks is None or (declarer is None and contract.has_declarer):
            return None
        return DealEntry(contract, declarer, tricks, score, honours, kept)

    def ask(self, ask: Asking, record: Record, before: Entry | None) -> DealEntry | None:
        """Contract, declarer (when the contract has one), tricks and the score written."""
        old = before if isinstance(before, DealEntry) else None
        written = ask_contract(ask, old.contract.value if old else None,
                               [*(c.value for c in Contract), *_FORCING], read_contract)
        if written is None:
            return None
        contract = written.contract
        if written.final_bid is not None:
            ask.say(msg("{bid} as the final bid: {contract}, no declarer (R8)",
                        bid=written.final_bid.value, contract=contract.value))
        players = players_of(record)
        declarer: Seat | None = None
        if contract.has_declarer:
            was = str(seat_letter(old.declarer)) if old and old.declarer else None
            declarer = ask.value(msg("Declarer (seat or player)"),
                                 partial(parse_seat, players=players),
                                 was, [*(str(seat_letter(s)) for s in SEATS), *players.values()])
        side = declarer.side if declarer is not None else Side.NS
        tricks = ask.value(msg("Tricks taken by {side}", side=side_name(side)),
                           partial(parse_tricks, side=side),
                           str(old.tricks[side]) if old else None)
        score = ask.value(msg("Score written on the sheet (empty: none)"), parse_points,
                          old.score.render() if old and old.score else None)
        return DealEntry(contract, declarer, tricks, score)

    def new_seats(self, ask: Asking, records: Sequence[Record], index: int, options: object
                  ) -> dict[Seat, str] | None:
        """At a rubber's end, the seats for the next rubber (R24), when the file does not
        say yet."""
        record = records[index]
        dealer = record.get("Dealer")
        players = players_of(record)
        own = options if isinstance(options, Options) else PRESETS["sv"]
        if (index == 0 or dealer not in {s.value for s in SEATS} or len(players) != 4
                or players != players_of(records[index - 1])
                or not rubber_ended_before(records, index, options=own)):
            return None
        a, b = Seat(dealer).partner, Seat(dealer).right
        proposed = {**players, a: players[b], b: players[a]}
        ask.say(msg("The rubber is over: new seats by R24 (the dealer and forehand stay, "
                    "the other two swap): {seats}",
                    seats=", ".join(f"{seat_letter(s)} {proposed[s]}" for s in SEATS)))
        return ask.value(msg("Seats (Enter: these; or four names N, E, S, W separated by "
                             "commas)"), lambda t: parse_seating(t, proposed))

    def dealer_out(self, seat: Seat) -> Message:
        """Every seat plays Priffe; a seat outside N, E, S, W is named as it is."""
        return msg("the first dealer {seat} does not play: {seats}", seat=seat_letter(seat),
                   seats=listing([seat_letter(s) for s in SEATS], "or"))

    def sheet_rows(self, sheet: object) -> list[tuple[int, tuple[str, ...] | None]] | None:
        """Each deal's record and its running totals (empty before the first score)."""
        if not isinstance(sheet, PartieSheet):
            return None
        return [(r.record, None if r.unreadable else
                 (str(r.totals.ns), str(r.totals.ew)) if r.totals else ("", ""))
                for r in sheet.rows if isinstance(r, DealRow)]


ENTRY = PriffeEntry()
