"""Options that take a seat or a side, in the words of either language.

A Swedish player reads the seats N Ö S V and the sides NS ÖV everywhere, so she
types them too: ``--dealer Ö``, ``--declarer-side öv``. The choices a help text
or an error lists are the reader's letters; the value a command gets is the
file's (``E``, ``EW``), which PPN keeps.
"""

from __future__ import annotations

from priffe_records.cli.common import LazyChoice
from priffe_records.game.cards import SEATS, Side
from priffe_records.game.words import seat_from_word, seat_letter, side_from_word, side_name


def _seat(text: str) -> str | None:
    seat = seat_from_word(text)
    return None if seat is None else seat.value


def _side(text: str) -> str | None:
    side = side_from_word(text)
    return None if side is None else side.value


# ``N``, ``E``/``Ö``, ``Öst``, ``west``/``V`` (in any case); the command gets ``E`` or ``W``.
SEAT_CHOICE = LazyChoice(lambda: [str(seat_letter(s)) for s in SEATS], _seat)
# ``NS``, ``EW``/``ÖV``; the command gets ``NS`` or ``EW``.
SIDE_CHOICE = LazyChoice(lambda: [str(side_name(s)) for s in Side], _side)
