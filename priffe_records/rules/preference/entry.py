"""A Préférence deal as a secretary writes it down: contract, declarer, drop-outs, tricks, score.

The Préférence side of :mod:`priffe_records.rules.entry` (which places the
deal and checks it): the same kind of answers, read in Préférence's words
(PREFERENCE.md P3, P8, P9), for the tags a score-sheet record has.

>>> parse_contract("pref"), parse_contract("handc")
(<Bid.PREFERENCE: 'Preference'>, <Bid.HAND_CLUBS: 'HandClubs'>)
>>> players = {Seat.N: "Anna", Seat.E: "Franz", Seat.S: "Maria"}
>>> parse_dropouts("Maria", players), parse_dropouts("", players)
((<Seat.S: 'S'>,), ())
>>> playing(Seat.E, (Seat.S,)), parse_tricks("3 7", (Seat.N, Seat.E))
((<Seat.N: 'N'>, <Seat.E: 'E'>), {<Seat.N: 'N'>: 3, <Seat.E: 'E'>: 7})
>>> PrefEntry(Bid.HEARTS, Seat.E, (), {Seat.N: 2, Seat.E: 6, Seat.S: 2}).tags()["Result"]
'N 2 E 6 S 2'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from priffe_records.format.record import Record
from priffe_records.game.cards import Seat
from priffe_records.game.language import Message, listing, msg
from priffe_records.game.words import seat_letter
from priffe_records.rules.entry import EntryError, ask_contract, parse_seat, players_of
from priffe_records.rules.family import Asking, Entry, SheetRow
from priffe_records.rules.preference.bids import (
    CONTRACTS,
    Bid,
    format_seat_numbers,
    parse_seat_numbers,
)

from .sheet import PrefRow, PrefSheet
from .table import PLAYERS

_WORDS = re.compile(r"[\s,;]+")


def parse_contract(text: str) -> Bid:
    """A contract (P8) in any accepted spelling, or the start of exactly one (``pref``)."""
    word = text.strip()
    if not word:
        raise EntryError(msg("no contract given"))
    try:
        bid = Bid.parse(word)
    except ValueError as e:
        hits = [b for b in CONTRACTS if b.value.casefold().startswith(word.casefold())]
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise EntryError(msg("{text!r} could be {choices}", text=word,
                                 choices=listing([b.value for b in hits], "or"))) from None
        raise EntryError(e.args[0]) from None
    if bid is Bid.PASS:
        raise EntryError(msg("Pass is no contract: {contracts}",
                             contracts=" ".join(b.value for b in CONTRACTS)))
    return bid


def parse_player(text: str, players: Mapping[Seat, str]) -> Seat:
    """A seat (N, E, S) or a player's name; W stays empty in Préférence (P1)."""
    seat = parse_seat(text, players)
    if seat not in PLAYERS:
        raise EntryError(msg("{text!r}: in Préférence the seats are N, E and S", text=text.strip()))
    return seat


def parse_dropouts(text: str, players: Mapping[Seat, str]) -> tuple[Seat, ...]:
    """Who dropped out (or, the declarer, gave up), in order (P9); empty or ``-``: nobody."""
    if text.strip() == "-":
        return ()
    return tuple(parse_player(w, players) for w in _WORDS.split(text.strip()) if w)


def playing(declarer: Seat, dropouts: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats that play the tricks; none when the declarer gave up or both defenders left."""
    if declarer in dropouts or len([s for s in dropouts if s is not declarer]) >= 2:
        return ()
    return tuple(s for s in PLAYERS if s not in dropouts)


def parse_tricks(text: str, seats: tuple[Seat, ...]) -> dict[Seat, int]:
    """``N 5 E 4 S 1``, or the numbers alone in the order of ``seats`` (``5 4 1``)."""
    words = text.split()
    if words and all(w.isdigit() for w in words):
        if len(words) != len(seats):
            raise EntryError(msg("{text!r}: give {count} numbers, the tricks of {seats}",
                                 text=text.strip(), count=len(seats),
                                 seats=" ".join(s.value for s in seats)))
        return {s: int(w) for s, w in zip(seats, words, strict=True)}
    try:
        return {Seat(s): n for s, n in parse_seat_numbers(text, scores=False).items()}
    except ValueError as e:
        raise EntryError(e.args[0]) from None


def parse_score(text: str) -> dict[Seat, int] | None:
    """The payments written on the paper, ``N 1;E -20;S -11``; empty or ``-``: none."""
    if text.strip() in ("", "-"):
        return None
    try:
        return {Seat(s): n for s, n in parse_seat_numbers(text, scores=True).items()}
    except ValueError as e:
        raise EntryError(e.args[0]) from None


@dataclass(frozen=True, slots=True)
class PrefEntry:
    """One Préférence deal as written on the sheet."""

    contract: Bid
    declarer: Seat
    dropouts: tuple[Seat, ...]
    tricks: dict[Seat, int] | None
    score: dict[Seat, int] | None = None

    def tags(self) -> dict[str, str]:
        """The tag values the deal sets (PREFERENCE.md's record table)."""
        out = {"Declarer": self.declarer.value, "Contract": self.contract.value}
        if self.dropouts:
            out["Dropout"] = " ".join(s.value for s in self.dropouts)
        if self.tricks is not None:
            out["Result"] = format_seat_numbers({s.value: n for s, n in self.tricks.items()},
                                                scores=False)
        if self.score is not None:
            out["Score"] = format_seat_numbers({s.value: n for s, n in self.score.items()},
                                               scores=True)
        return out


def read_row(row: SheetRow, players: Mapping[Seat, str]) -> PrefEntry | None:
    """A Préférence row's deal: contract, declarer, drop-outs, the tricks of those who
    played (an empty cell when nobody did, P9), payments; ``None`` after a bad cell."""
    before = row.failed
    contract = row.read("Contract", parse_contract)
    declarer = row.read("Declarer", partial(parse_player, players=players))
    dropouts = row.read("Dropout", partial(parse_dropouts, players=players)) or ()
    seats = playing(declarer, dropouts) if declarer is not None else PLAYERS
    tricks = row.read("Result", partial(parse_tricks, seats=seats)) \
        if seats or row.cells.get("Result") else None
    score = row.read("Score", parse_score)
    if contract is None or declarer is None or row.failed > before:
        return None
    return PrefEntry(contract, declarer, dropouts, tricks, score)


def ask_entry(ask: Asking, record: Record, before: Entry | None) -> PrefEntry | None:
    """Contract, declarer, who dropped out, the tricks of those who played, and the
    payments if written."""
    old = before if isinstance(before, PrefEntry) else None
    contract = ask_contract(ask, old.contract.value if old else None,
                            [b.value for b in CONTRACTS], parse_contract)
    if contract is None:
        return None
    players = {s: n for s, n in players_of(record).items() if s in PLAYERS}
    declarer = ask.value(msg("Declarer (seat or player)"), partial(parse_player, players=players),
                         old.declarer.value if old else None,
                         [*(s.value for s in PLAYERS), *players.values()])
    dropouts = ask.value(msg("Dropped out, in order (the declarer: gave up; empty: nobody)"),
                         partial(parse_dropouts, players=players),
                         " ".join(s.value for s in old.dropouts) if old else None)
    seats = playing(declarer, dropouts)
    tricks = ask.value(msg("Tricks of {seats}", seats=" ".join(s.value for s in seats)),
                       partial(parse_tricks, seats=seats),
                       " ".join(str(n) for n in old.tricks.values())
                       if old and old.tricks else None) if seats else None
    paid = old.score if old else None
    score = ask.value(msg("Payments written on the sheet (N 1;E -20;S -11; empty: none)"),
                      parse_score, ";".join(f"{s.value} {n}" for s, n in paid.items())
                      if paid else None)
    return PrefEntry(contract, declarer, dropouts, tricks, score)


@dataclass(frozen=True, slots=True)
class PrefEntryForm:
    """Préférence's entry hooks: its words, drop-outs and payments columns, no honours."""

    columns: tuple[str, ...] = ("Board", "Dealer", "Contract", "Declarer", "Dropout", "Result",
                                "Score")
    computed: tuple[str, ...] = ()
    keepable: tuple[str, ...] = ()  # P12's payments are always the rules' own

    @property
    def heading_words(self) -> Mapping[str, Mapping[str, str]]:
        """The Score column holds payments (PREFERENCE.md's record table)."""
        return {"en": {"Score": "Payments"}, "sv": {"Score": "Betalningar"}}

    def read_row(self, row: SheetRow, players: Mapping[Seat, str]) -> PrefEntry | None:
        return read_row(row, players)

    def ask(self, ask: Asking, record: Record, before: Entry | None) -> PrefEntry | None:
        return ask_entry(ask, record, before)

    def new_seats(self, ask: Asking, records: Sequence[Record], index: int, options: object
                  ) -> dict[Seat, str] | None:
        """The seats stay for the whole partie (no rubbers)."""
        return None

    def dealer_out(self, seat: Seat) -> Message:
        return msg("the first dealer {seat} does not play in Préférence: N, E or S (P2)",
                   seat=seat_letter(seat))

    def sheet_rows(self, sheet: object) -> list[tuple[int, tuple[str, ...] | None]] | None:
        """Each deal's record; the sheet computes nothing a row writes back."""
        if not isinstance(sheet, PrefSheet):
            return None
        return [(r.record, None if r.unreadable else ()) for r in sheet.rows
                if isinstance(r, PrefRow)]


ENTRY = PrefEntryForm()
