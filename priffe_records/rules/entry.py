"""Deals as a secretary writes them down, turned into records of the partie.

Shared by ``priffe add`` (one answer at a time) and ``priffe sheet-import``
(one spreadsheet row a deal): the same words are read the same way and the
same engine checks the result, so a deal typed and a deal imported are the
same record. Nothing here knows of a terminal or a spreadsheet.

>>> parse_contract("hj"), parse_contract("Tvångsnoll")
(<Contract.HJARTER: 'Hjärter'>, <Contract.TVANGSNOLL: 'Tvångsnoll'>)
>>> parse_seat("Bertil", {Seat.E: "Bertil"}), parse_seat("ö", {}), parse_seat("syd", {})
(<Seat.E: 'E'>, <Seat.E: 'E'>, <Seat.S: 'S'>)
>>> str(parse_tricks("10", Side.EW)), str(parse_tricks("NS 8", None))
('NS 3 EW 10', 'NS 8 EW 5')
>>> str(parse_points("NS 80 ÖV 20")), str(parse_points("EW 40")), parse_points(" ")
('NS 80 EW 20', 'NS 0 EW 40', None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from priffe_records.format.reader import loads
from priffe_records.format.record import PLAYER_TAGS, Record, Tag
from priffe_records.format.values import is_unspecified
from priffe_records.format.writer import dumps
from priffe_records.game.calls import CallError, Contract, contracts_starting
from priffe_records.game.cards import SEATS, Seat, Side
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import listing, msg
from priffe_records.game.words import seat_from_word
from priffe_records.rules.family import family_for
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.scoring import SidePoints
from priffe_records.rules.priffe.sheet import DealRow, score_parties
from priffe_records.rules.validate import validate

# What every deal of a partie repeats; a new deal copies them from the one before.
PARTIE_TAGS = ("Event", "Site", "Date", *(PLAYER_TAGS[s] for s in SEATS), "Scoring")
# The tags a deal's entry writes (and an open deal leaves empty); Dropout is Préférence's.
ENTRY_TAGS = ("Declarer", "Contract", "Dropout", "Result", "Score", "Honours")
# Swedish sheets write the sides NS and ÖV.
_SIDE_ALIASES = re.compile(r"ÖV|OV|ØV", re.IGNORECASE)
_TWO_NUMBERS = re.compile(r"^(-?\d+)\s*[-–/ ]\s*(-?\d+)$")
_ONE_SIDE = re.compile(r"^(NS|EW)\s*(-?\d+)$", re.IGNORECASE)


class EntryError(PriffeError, ValueError):
    """A typed value that cannot be read; the message says what would be."""


class Entry(Protocol):
    """A deal as written on the sheet, in either game: it knows the tags it sets."""

    def tags(self) -> dict[str, str]: ...


def parse_contract(text: str) -> Contract:
    """A contract word in any accepted spelling, or the start of exactly one (``hj``)."""
    word = text.strip()
    if not word:
        raise EntryError(msg("no contract given"))
    try:
        return Contract.parse(word)
    except CallError as e:
        hits = contracts_starting(word)
        if len(hits) == 1:
            return hits.pop()
        if len(hits) > 1:
            raise EntryError(msg("{text!r} could be {choices}", text=word,
                                 choices=listing(sorted(c.value for c in hits), "or"))) from None
        raise EntryError(e.message) from None


def parse_seat(text: str, players: Mapping[Seat, str]) -> Seat:
    """A seat letter or name (N, Nord, Ö, West), or a player's name or its unique start."""
    key = text.strip().casefold()
    if not key:
        raise EntryError(msg("no declarer given"))
    seat = seat_from_word(key)
    if seat is not None:
        return seat
    named = {s: n.casefold() for s, n in players.items() if not is_unspecified(n)}
    exact = [s for s, n in named.items() if n == key]
    starts = exact or [s for s, n in named.items() if n.startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise EntryError(msg("{text!r} could be {choices}", text=text.strip(),
                             choices=listing([players[s] for s in starts], "or")))
    names = [players[s] for s in SEATS if s in named]
    return _no_seat(text.strip(), names)


def _no_seat(text: str, names: Sequence[str]) -> Seat:
    if names:
        raise EntryError(msg("{text!r} is neither a seat (N, E, S, W) nor a player ({names})",
                             text=text, names=", ".join(names)))
    raise EntryError(msg("{text!r} is not a seat: N, E, S or W", text=text))


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

    def tags(self) -> dict[str, str]:
        """The tag values the deal sets, in the record's words."""
        out = {"Declarer": self.declarer.value if self.declarer else "",
               "Contract": self.contract.value, "Result": str(self.tricks)}
        if self.score is not None:
            out["Score"] = str(self.score)
        if self.honours is not None:
            out["Honours"] = str(self.honours)
        return out


def is_open(record: Record) -> bool:
    """A deal laid out but not played yet: no contract, no result, nothing to replay."""
    return all(is_unspecified(record.get(name)) for name in ("Contract", "Result", "Auction",
                                                              "Play"))


def next_slot(records: Sequence[Record]) -> int:
    """Where the next deal goes: the first open deal of a laid-out evening, else the end."""
    for i, rec in enumerate(records):
        if is_open(rec):
            return i
    return len(records)


def _board_after(board: str | None) -> str:
    return str(int(board) + 1) if board is not None and board.isdigit() else "?"


def new_deal(previous: Record) -> Record:
    """The deal after ``previous``: the same partie, the next board, the next dealer (R3)."""
    tags = [Tag(n, v) for n in PARTIE_TAGS if (v := previous.get(n)) is not None]
    tags.insert(3, Tag("Board", _board_after(previous.get("Board"))))
    dealer = previous.get("Dealer")
    if dealer in {s.value for s in SEATS}:
        family = family_for(previous.get("Scoring"))
        tags.append(Tag("Dealer", family.next_dealer(Seat(dealer)).value))
    return Record(tuple(tags))


def slot_record(records: Sequence[Record], index: int) -> Record:
    """The record the deal at ``index`` fills: the open one there, or a new one after the last."""
    if index < len(records):
        return records[index]
    if not records:
        raise EntryError(msg("the file has no deals: lay the evening out first with "
                             "'priffe new -o FILE'"))
    return new_deal(records[-1])


def players_of(record: Record) -> dict[Seat, str]:
    """Who sits where in a deal, by its North … West tags."""
    return {s: name for s in SEATS if (name := record.get(PLAYER_TAGS[s])) is not None}


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


def r24_seats(players: Mapping[Seat, str], dealer: Seat) -> dict[Seat, str]:
    """R24's new seats: the dealer and forehand keep their places, the other two swap."""
    new = dict(players)
    a, b = dealer.partner, dealer.right
    new[a], new[b] = players[b], players[a]
    return new


def parse_seating(text: str, proposed: Mapping[Seat, str]) -> dict[Seat, str]:
    """Empty: the proposed seats; else four names, comma-separated, in seat order N, E, S, W."""
    if not text.strip():
        return dict(proposed)
    names = [n.strip() for n in text.split(",")]
    if len(names) != 4 or not all(names):
        raise EntryError(msg("{text!r}: write four names separated by commas, in seat order "
                             "N, E, S, W", text=text.strip()))
    return dict(zip(SEATS, names, strict=True))


def reseated(records: Sequence[Record], index: int, seats: Mapping[Seat, str]) -> list[Record]:
    """The partie with ``seats`` from the deal at ``index`` on, in every deal not yet played
    that still has the old seats (a deal already typed keeps its names)."""
    old = players_of(records[index])
    out = list(records)
    for i in range(index, len(out)):
        if not is_open(out[i]) or players_of(out[i]) != old:
            break
        for seat, name in seats.items():
            out[i] = out[i].replace_tag(PLAYER_TAGS[seat], name)
    return out


def with_entry(record: Record, entry: Entry) -> Record:
    """``record`` with the entry's values; a tag the entry does not set (a Score not
    written, a Préférence Result when nobody played) goes."""
    values = entry.tags()
    for name in ENTRY_TAGS:
        if name in values:
            record = record.replace_tag(name, values[name])
        elif record.tag(name) is not None:
            record = record.without_tag(name)
    return record


def placed(records: Sequence[Record], index: int, entry: Entry) -> list[Record]:
    """The partie with the entry in the deal at ``index`` (a new deal at the end)."""
    out = list(records)
    filled = with_entry(slot_record(records, index), entry)
    if index < len(out):
        out[index] = filled
    else:
        out.append(filled)
    return out


def verified_text(records: Sequence[Record], name: str) -> tuple[str, list[Record]]:
    """The file's new text, and its records as read back (located like the file will be).

    Raises when the text would not read back to the same records: nothing is
    written then.
    """
    text = dumps(records)
    again = list(loads(text, errors="collect", name=name))
    if again != list(records):
        raise PriffeError(msg("{file}: the new text does not read back to the same records; "
                              "nothing written (please report this)", file=name))
    return text, [r for r in again if isinstance(r, Record)]


def record_findings(records: Sequence[Record], index: int, *,
                    options: Options = PRESETS["sv"]) -> list[Finding]:
    """The errors and warnings of the deal at ``index``, checked in its partie.

    What the record cannot tell (no hands: honours as written) is left out.
    """
    return [f for f in validate(records, options=options)
            if f.record == index + 1 and f.severity is not Severity.UNVERIFIABLE]
