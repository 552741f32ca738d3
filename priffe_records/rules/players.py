"""Who sits where: the player tags of a record, read the same way by every family.

Each family words its own finding for a player seated twice (four players
in Priffe, three in Préférence), so this module only finds the names.

>>> from priffe_records.format.reader import loads
>>> [r] = loads('[North "Anna"]\\n[East "Bo"]\\n[South " anna "]\\n')
>>> names, twice = seated_names(r, SEATS)
>>> names, [(n, a.value, b.value) for n, a, b in twice]
(['Anna', 'Bo', 'anna', None], [('anna', 'N', 'S')])

Over a partie, a name that is nearly one written before is a slip of the pen, and
a name more than the seats hold is a player the partie should not have:

>>> book = PartieNames(4)
>>> book.see(["David Öhrnström", "Bo", "Cia", "Dan"])
[]
>>> book.see(["David", "Bo", "Cia", "Dan"]), book.see(["david ohrnstrom", "Bo", "Cia", "Eva"])
([(0, 'David', 'David Öhrnström')], [(0, 'david ohrnstrom', 'David Öhrnström'), (3, 'Eva', None)])
>>> book.canonical("David"), book.names
('David Öhrnström', ['David Öhrnström', 'Bo', 'Cia', 'Dan', 'Eva'])
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from priffe_records.format.record import PLAYER_TAGS, Record
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import SEATS, Seat
from priffe_records.game.language import msg
from priffe_records.game.memo import Memo
from priffe_records.game.words import plain_key, seat_name
from priffe_records.rules.findings import Finding, tag_location, warning

__all__ = ["SEATS", "PartieNames", "name_slips", "seated_names"]


def seated_names(record: Record, seats: Sequence[Seat], *, dash: bool = False
                 ) -> tuple[list[str | None], list[tuple[str, Seat, Seat]]]:
    """Each seat's player (stripped; None when unspecified), and each name seated twice.

    Names compare case-insensitively (``Åsa`` and ``åsa`` are one player);
    a repeat is (name as written the second time, first seat, second seat).
    ``dash`` counts ``-`` as unspecified, as in a family where it means "no player".
    """
    names: list[str | None] = []
    twice: list[tuple[str, Seat, Seat]] = []
    seen: dict[str, Seat] = {}
    for seat in seats:
        raw = record.get(PLAYER_TAGS[seat])
        name = raw.strip() if raw and not is_unspecified(raw, dash=dash) else None
        names.append(name)
        if name is None:
            continue
        key = name.casefold()
        if key in seen:
            twice.append((name, seen[key], seat))
        seen[key] = seat
    return names, twice


def name_key(name: str) -> str:
    """A name as compared for a near miss: no case, no accents, single spaces.

    ``David Öhrnström`` and ``david  ohrnstrom`` have one key.
    """
    key = _KEYS.get(name)
    if key is None:  # a partie's few names come back deal after deal: each is keyed once
        key = _KEYS.keep(name, plain_key(name))
    return key


_KEYS: Memo[str, str] = Memo(4096)


class PartieNames:
    """The players of one partie as first written, to tell a new player from a misspelt one.

    A name is never merged: what the user wrote stands (the standings keep it).
    :meth:`see` only says which names look like a slip, so the family can warn.
    """

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self._known: dict[str, str] = {}  # name_key → the name as first written
        self._aliases: dict[str, str] = {}  # a near-miss as written → the name it is near
        self._too_many = False

    @property
    def names(self) -> list[str]:
        """The different players so far, as each was first written."""
        return list(self._known.values())

    def canonical(self, name: str) -> str:
        """The first-written name a near-miss stands for (itself when it is none)."""
        return self._aliases.get(name, self._known.get(name_key(name), name))

    def aliased(self, names: Sequence[str | None]) -> bool:
        """Whether any of the names is a near-miss seen before (most deals: none)."""
        return bool(self._aliases) and any(n in self._aliases for n in names if n is not None)

    def see(self, names: Sequence[str | None]) -> list[tuple[int, str, str | None]]:
        """Each slip in a deal's names: (seat index, name, the known name it is near), or
        (index, name, None) for the first player more than the seats hold."""
        out: list[tuple[int, str, str | None]] = []
        for i, name in enumerate(names):
            if name is None:
                continue
            key = name_key(name)
            known = self._known.get(key)
            if known is None:
                known = self._near(key)
            if known is None:
                self._known[key] = name
                if len(self._known) > self.seats and not self._too_many:
                    self._too_many = True
                    out.append((i, name, None))
            elif known != name and name not in self._aliases:  # said once a spelling
                self._aliases[name] = known
                out.append((i, name, known))
        return out

    def _near(self, key: str) -> str | None:
        """A known name this one is nearly: one is the other's first words, or close letters."""
        for known_key, known in self._known.items():
            if known_key.startswith(key + " ") or key.startswith(known_key + " "):
                return known
        close = difflib.get_close_matches(key, self._known, n=1, cutoff=0.85)
        return self._known[close[0]] if close else None


def name_slips(book: PartieNames, record: Record, names: Sequence[str | None],
               seats: Sequence[Seat], rule: str) -> tuple[list[Finding], bool]:
    """The warnings for a deal's names against the partie's (``rule``: the family's rule of
    who plays), and whether a player more than the seats hold came with it (the family
    then says no more of that deal's change of seating)."""
    found: list[Finding] = []
    newcomer = False
    for i, name, known in book.see(names):
        seat = seats[i]
        where = tag_location(record, PLAYER_TAGS[seat])
        if known is not None:
            found.append(warning(rule, msg(
                "{name!r} ({seat}) is nearly {known!r}, who plays in this partie: did you mean "
                "{known!r}?", name=name, seat=seat_name(seat), known=known),
                where))
        else:
            newcomer = True
            found.append(warning(rule, msg(
                "{name!r} ({seat}) makes more players than seats in this partie: {names}",
                 name=name, seat=seat_name(seat), names=", ".join(book.names)), where))
    return found, newcomer
