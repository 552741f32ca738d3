"""Who sits where: the player tags of a record, read the same way by every family.

Each family words its own finding for a player seated twice (four players
in Priffe, three in Préférence), so this module only finds the names.

>>> from priffe_records.format.reader import loads
>>> [r] = loads('[North "Anna"]\\n[East "Bo"]\\n[South " anna "]\\n')
>>> names, twice = seated_names(r, SEATS)
>>> names, [(n, a.value, b.value) for n, a, b in twice]
(['Anna', 'Bo', 'anna', None], [('anna', 'N', 'S')])
"""

from __future__ import annotations

from collections.abc import Sequence

from priffe_records.format.record import PLAYER_TAGS, Record
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import SEATS, Seat

__all__ = ["SEATS", "seated_names"]


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
