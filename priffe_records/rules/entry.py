"""Deals as a secretary writes them down, turned into records of the partie.

Shared by ``priffe add`` (one answer at a time) and ``priffe sheet-import``
(one spreadsheet row a deal): the same words are read the same way and the
same engine checks the result, so a deal typed and a deal imported are the
same record. Nothing here knows of a terminal or a spreadsheet.

>>> parse_seat("Bertil", {Seat.E: "Bertil"}), parse_seat("ö", {}), parse_seat("syd", {})
(<Seat.E: 'E'>, <Seat.E: 'E'>, <Seat.S: 'S'>)

What a game reads its own way (Priffe's tricks per side, Préférence's drop-outs)
comes from its family's entry hooks (:func:`entry_form`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from priffe_records.format.reader import loads
from priffe_records.format.record import PLAYER_TAGS, Record, Tag
from priffe_records.format.values import is_unspecified
from priffe_records.format.writer import dumps
from priffe_records.game.cards import SEATS, Seat
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import listing, msg
from priffe_records.game.words import plain_key, seat_from_word
from priffe_records.rules.family import Asking, Entry, EntryForm, family_for
from priffe_records.rules.findings import Finding, Severity, tag_location
from priffe_records.rules.repeats import is_unchecked
from priffe_records.rules.validate import validate

T = TypeVar("T")
# What every deal of a partie repeats; a new deal copies them from the one before.
PARTIE_TAGS = ("Event", "Site", "Date", *(PLAYER_TAGS[s] for s in SEATS), "Scoring")
# The tags a deal's entry writes (and an open deal leaves empty); Dropout is Préférence's.
ENTRY_TAGS = ("Declarer", "Contract", "Dropout", "Result", "Score", "Honours")
# A claimed value kept as written on the paper (the deal's Kept tag) is marked so on the
# sheet and in a spreadsheet cell (``NS 20 EW 0*``), and a cell so marked reads as kept.
KEPT_MARK = "*"


class EntryError(PriffeError, ValueError):
    """A typed value that cannot be read; the message says what would be."""


def entry_form(scoring: str | None) -> EntryForm:
    """The entry hooks of the game a Scoring value names; an error when that game's deals
    cannot be typed."""
    family = family_for(scoring)
    form = family.entry
    if form is None:
        raise EntryError(msg("{game} has no typed entry: write its records as PPN text",
                             game=family.name))
    return form


def ask_contract(ask: Asking, before: str | None, words: Iterable[str],
                 parse: Callable[[str], T]) -> T | None:
    """A deal's first question, its contract in the game's ``words`` (``before``: the
    answer being corrected); ``None`` when the user stops."""
    text = ask.first(msg("Contract (empty: stop)") if before is None else msg("Contract"),
                     before, words)
    if text is None:
        return None
    return ask.again(text, parse, msg("Contract"))


def parse_seat(text: str, players: Mapping[Seat, str]) -> Seat:
    """A seat letter or name (N, Nord, Ö, West), or a player: the whole name, its start or
    the start of one of its names (``Marta`` or ``ståhl`` for Märta Ståhl), in any case and
    with or without accents, when only one player's name fits."""
    key = plain_key(text)
    if not key:
        raise EntryError(msg("no declarer given"))
    seat = seat_from_word(text)  # before folding: Ö is a seat, O is not
    if seat is not None:
        return seat
    named = {s: plain_key(n) for s, n in players.items() if not is_unspecified(n)}
    exact = [s for s, n in named.items() if n == key]
    starts = exact or [s for s, n in named.items() if n.startswith(key)] or \
        [s for s, n in named.items() if any(part.startswith(key) for part in n.split())]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise EntryError(msg("{text!r} could be {choices}", text=text.strip(),
                             choices=listing([players[s] for s in starts], "or")))
    if names := [players[s] for s in SEATS if s in named]:
        raise EntryError(msg("{text!r} is neither a seat (N, E, S, W) nor a player ({names})",
                             text=text.strip(), names=", ".join(names)))
    raise EntryError(msg("{text!r} is not a seat: N, E, S or W", text=text.strip()))


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


def new_deal(previous: Record) -> Record:
    """The deal after ``previous``: the same partie, the next board, the next dealer (R3)."""
    tags = [Tag(n, v) for n in PARTIE_TAGS if (v := previous.get(n)) is not None]
    board = previous.get("Board")
    tags.insert(3, Tag("Board", str(int(board) + 1) if board is not None and board.isdigit()
                       else "?"))
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
    before = record
    for name in ENTRY_TAGS:
        if name in values:
            record = record.replace_tag(name, values[name])
        elif record.tag(name) is not None:
            record = record.without_tag(name)
    # A deal kept as written stays kept while nothing of it changes; a corrected deal is
    # checked afresh (and kept again if the secretary says so).
    if "Kept" in values:
        record = record.replace_tag("Kept", values["Kept"])
    elif record.tag("Kept") is not None and any(record.get(n) != before.get(n)
                                                for n in ENTRY_TAGS):
        record = record.without_tag("Kept")
    return record


def kept_tags(record: Record) -> frozenset[str]:
    """The claimed tags the deal's ``Kept`` tag names (``Kept "Score"``)."""
    text = record.get("Kept")
    return frozenset(n.strip() for n in text.split(";")) if text else frozenset()


def cell_of(record: Record, tag: str) -> str:
    """A tag's value as a spreadsheet cell: a value kept as written carries the mark."""
    value = record.get(tag) or ""
    return f"{value}{KEPT_MARK}" if value and tag in kept_tags(record) else value


def unmarked(text: str) -> tuple[str, bool]:
    """A cell's text without the kept mark, and whether it had one."""
    t = text.rstrip()
    return (t[:-len(KEPT_MARK)], True) if t.endswith(KEPT_MARK) else (text, False)


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
                    options: object = None) -> list[Finding]:
    """The errors and warnings of the deal at ``index``, checked in its partie.

    Of what the record cannot tell, only the "not checked" note stays (a typed deal has
    no hands: what is taken as written), for ``priffe add`` to say once a session;
    ``options``: a family's own rule variants, ``None`` for its defaults.
    """
    return [f for f in validate(records, options=options)
            if f.record == index + 1 and (f.severity is not Severity.UNVERIFIABLE
                                          or is_unchecked(f))]


def kept_as_written(records: Sequence[Record], index: int, findings: Sequence[Finding],
                    keepable: Sequence[str]) -> list[Record]:
    """The partie with the deal at ``index`` marked ``Kept`` for each claimed tag of
    ``keepable`` an error of ``findings`` points at: the secretary keeps its value as the
    paper has it, and the engine counts it so (docs/rules-decisions.md, "Kept")."""
    record = records[index]
    names = [name for name in keepable if record.tag(name) is not None and any(
        f.is_error and f.location == tag_location(record, name) for f in findings)]
    out = list(records)
    if names:
        out[index] = record.replace_tag("Kept", ";".join(names))
    return out


@dataclass
class _TagRow:
    """A saved deal's own tags as a sheet row, so its family reads them as it reads a
    row of ``sheet-import`` (``score --csv`` writes these same values)."""

    cells: dict[str, str]
    failed: int = 0

    def read(self, column: str, parse: Callable[[str], T]) -> T | None:
        try:
            return parse(self.cells.get(column, ""))
        except PriffeError:
            self.failed += 1
            return None


def entry_of(record: Record, form: EntryForm) -> Entry | None:
    """A saved deal as its game's entry: the answers ``priffe add --board`` offers to
    correct; ``None`` when its values do not read (then nothing is offered)."""
    row = _TagRow({c: record.get(c) or "" for c in form.columns})
    return form.read_row(row, players_of(record))


def board_index(records: Sequence[Record], board: str) -> int:
    """Where the deal numbered ``board`` is; an error when no deal or several have it."""
    found = [i for i, r in enumerate(records) if (r.get("Board") or "").strip() == board.strip()]
    if len(found) == 1:
        return found[0]
    if not found:
        raise EntryError(msg("there is no board {board} in the file", board=board))
    raise EntryError(msg("board {board} is in the file {n} times (one a partie): correct it "
                         "in the PPN text", board=board, n=len(found)))
