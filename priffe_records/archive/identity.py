"""When two records are the same deal, and two imports the same partie (schema v8).

The archive never loses a record: a stored deal is replaced only by a record that is
the same deal *at the same table*, and a partie is known by what it is, never by the
path of the file it came from. This module says what "the same" means; the store
(:mod:`priffe_records.archive.store`) and the migration to schema v8 use nothing else.

* :func:`deal_key` — a record's place: its Rubber and Board, and its table: the Room
  and Table tags and the players of the four seats. The same board played at two
  tables of a tournament is two deals; a record without a Board has no place (it is
  never taken for a correction of another).
* :func:`partie_key` — a partie's identity: its Event, Site and Date, who played its
  first deal (the four seats' names as the first record gives them: seats may change
  between rubbers, R24, but the first deal's seating is fixed) and that deal's hands
  (the Deal tag, when it has one). A correction of a score, a result or a comment
  leaves the key alone, so a corrected copy is the same partie; two evenings of one
  name, place, date and four players differ in their first hands. A score sheet
  without hands is known by its players alone; one naming nobody either by Event, Site
  and Date alone. When no stored partie has a run's key, the store takes the one with
  the same Event, Site and Date holding the text of the run's first or second record
  (a corrected first deal: :meth:`~priffe_records.archive.store.Store.find_partie`), and
  a partie recomputed whole takes the key of its first deal as it is then.

>>> from priffe_records.format.reader import loads
>>> a, b = loads('[Event "x"]\\n[Board "1"]\\n[Room "Open"]\\n[North "Anna"]\\n\\n'
...              '[Event "x"]\\n[Board "1"]\\n[Room "Closed"]\\n[North "Bo"]\\n')
>>> deal_key(a) == deal_key(b), deal_key(a).board, deal_key(a).room
(False, '1', 'Open')
>>> partie_key(a).who
'["Anna",null,null,null,null]'
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from priffe_records.archive.engine import known, tag_int
from priffe_records.format.errors import BadRecord
from priffe_records.format.record import PLAYER_TAGS, PartieHead, Record, partie_head
from priffe_records.game.cards import SEATS

_PLAYERS = tuple(PLAYER_TAGS[seat] for seat in SEATS)  # North, East, South, West


_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once: per record


def _text(value: object) -> str:
    return _JSON.encode(value)


@dataclass(frozen=True, slots=True)
class DealKey:
    """A deal's place in its partie: which rubber and board, at which table."""

    rubber: int | None  # the Rubber tag as a number (None: absent or not a number)
    board: str
    room: str | None
    table: str | None
    players: tuple[str | None, str | None, str | None, str | None]  # N, E, S, W

    def text(self) -> str:
        """As ``deals.ident`` stores it: a JSON list, readable in Datasette."""
        return _text([self.rubber, self.board, self.room, self.table, *self.players])


_Name = str | None
# Rubber, Board, Room, Table, North, East, South, West
_Place = tuple[int | None, str, _Name, _Name, _Name, _Name, _Name, _Name]


def _place(record: Record | BadRecord) -> _Place | None:
    if isinstance(record, BadRecord):
        return None
    get = record.get
    board = known(get("Board"))
    if board is None:
        return None
    return (tag_int(get("Rubber")), board.strip(), _name(get("Room")), _name(get("Table")),
            _name(get("North")), _name(get("East")), _name(get("South")), _name(get("West")))


def deal_key(record: Record | BadRecord) -> DealKey | None:
    """The place of ``record`` (None: unreadable, or no Board: no place at all)."""
    v = _place(record)
    return DealKey(v[0], v[1], v[2], v[3], (v[4], v[5], v[6], v[7])) if v is not None else None


def deal_ident(record: Record | BadRecord) -> str | None:
    """:func:`deal_key` as stored in ``deals.ident`` (None without a place): made for
    every record imported, so without the key object."""
    v = _place(record)
    return _JSON.encode(v) if v is not None else None


def _name(value: str | None) -> str | None:
    v = known(value)
    v = v.strip() if v is not None else None
    return v or None


Head = PartieHead  # Event, Site, Date as written (format.record.partie_head)


@dataclass(frozen=True, slots=True)
class PartieKey:
    """A partie's identity: where and when, and who (see the module docstring)."""

    event: str | None
    site: str | None
    date: str | None
    who: str  # the first deal's players and hands (JSON), or "" when it has neither

    @property
    def head(self) -> Head:
        return (self.event, self.site, self.date)

    def text(self) -> str:
        """As ``parties.identity`` stores it."""
        return _text([self.event, self.site, self.date, self.who])


def partie_key(first: Record) -> PartieKey:
    """The identity of the partie whose first readable record is ``first``."""
    deal = known(first.get("Deal"))
    seen = [*(_name(first.get(tag)) for tag in _PLAYERS),
            " ".join(deal.split()) if deal is not None else None]
    return PartieKey(*partie_head(first), _text(seen) if any(seen) else "")
