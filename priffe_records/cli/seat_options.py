"""Options that take a seat or a side, in the words of either language.

A Swedish player reads the seats N Ö S V and the sides NS ÖV everywhere, so she
types them too: ``--dealer Ö``, ``--declarer-side öv``. The choices a help text
or an error lists are the reader's letters; the value a command gets is the
file's (``E``, ``EW``), which PPN keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from priffe_records.game.cards import SEATS, Seat, Side
from priffe_records.game.words import seat_from_word, seat_letter, side_from_word, side_name


class _Worded(click.Choice[str]):
    """A choice shown in the active language and read in either; converted to PPN's word."""

    def __init__(self) -> None:
        super().__init__(())  # read in any case by word(); listed as the reader writes them

    def word(self, text: str) -> str | None:  # the file's word for ``text``, if one
        raise NotImplementedError

    @property
    def choices(self) -> tuple[str, ...]:
        raise NotImplementedError

    @choices.setter
    def choices(self, _: object) -> None:
        """click's ``__init__`` sets the list; the property gives it in the reader's words."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        found = self.word(value) if isinstance(value, str) else None
        return found if found is not None else super().convert(value, param, ctx)


class SeatChoice(_Worded):
    """A seat: ``N``, ``E``/``Ö``, ``Öst``, ``west``/``V``; the command gets ``E`` or ``W``."""

    def __init__(self, seats: Sequence[Seat] = SEATS) -> None:
        self.seats = tuple(seats)
        super().__init__()

    def word(self, text: str) -> str | None:
        seat = seat_from_word(text)
        return seat.value if seat in self.seats else None

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(str(seat_letter(s)) for s in self.seats)

    @choices.setter
    def choices(self, _: object) -> None:
        """As :class:`_Worded`'s."""


class SideChoice(_Worded):
    """A side: ``NS``, ``EW``/``ÖV``; the command gets ``NS`` or ``EW``."""

    def word(self, text: str) -> str | None:
        side = side_from_word(text)
        return side.value if side is not None else None

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(str(side_name(s)) for s in Side)

    @choices.setter
    def choices(self, _: object) -> None:
        """As :class:`_Worded`'s."""
