"""Game families: what the engine needs to know about a game, behind one small interface.

The driver (:mod:`priffe_records.rules.partie`) never names Priffe: it asks the
registry for the family a record's ``Scoring`` tag selects and lets that
family analyse deals and keep the partie's books. A second family (the
three-player Austrian Préférence of PREFERENCE.md) is a sibling package of
``rules/priffe/`` whose family object is added to :data:`FAMILIES`.

>>> family_for(None).name, family_for("Priffe;preset=en").name
('Priffe', 'Priffe')
"""

from __future__ import annotations

from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from priffe_records.format.record import Location, Record
from priffe_records.game.cards import Card, Seat
from priffe_records.rules.findings import Finding
from priffe_records.rules.preference.family import PREFERENCE
from priffe_records.rules.priffe.family import PRIFFE
from priffe_records.rules.priffe.options import Options

OutcomeT = TypeVar("OutcomeT", bound="Outcome")
OutcomeT_contra = TypeVar("OutcomeT_contra", bound="Outcome", contravariant=True)


class Outcome(Protocol):
    """What a family's analysis of one record tells the driver.

    ``in_family`` is false for a record of another game (bridge): it keeps
    its findings but takes no part in a partie; ``is_diagram`` marks a deal
    shown without auction or contract, not a deal of the partie.
    """

    @property
    def record(self) -> Record: ...

    @property
    def findings(self) -> tuple[Finding, ...]: ...

    @property
    def in_family(self) -> bool: ...

    @property
    def is_diagram(self) -> bool: ...

    def placed(self, index: int) -> Self:
        """The outcome as the ``index``-th record of the stream (findings say so too)."""
        ...


class PartieOutcome(Protocol):
    """What a partie's books give back when it ends: at least where, and every finding."""

    @property
    def event(self) -> str | None: ...

    @property
    def site(self) -> str | None: ...

    @property
    def date(self) -> str | None: ...

    @property
    def findings(self) -> tuple[Finding, ...]: ...

    def with_findings(self, findings: tuple[Finding, ...]) -> Self: ...


class PartieBooks(Protocol[OutcomeT_contra]):
    """The running books of one partie (rubbers for Priffe, a pot for Préférence)."""

    def add(self, o: OutcomeT_contra) -> object: ...

    def lost(self, where: Location, index: int) -> None: ...

    def close(self) -> PartieOutcome: ...


@runtime_checkable
class StreamingBooks(Protocol):
    """Books that can run without keeping the partie (validation of a file of any size).

    After :meth:`stream` they keep no deal lines or rubber results, and :meth:`drain`
    hands over the findings reported so far. Every finding they report must come from
    ``add`` and carry the index of the deal being added (``close`` reports nothing
    new): the driver emits a record's findings once the next record comes.
    """

    def stream(self) -> None: ...

    def drain(self) -> list[Finding]: ...


class GameFamily(Protocol[OutcomeT]):
    """Deck, seats, trick count, deal analysis and partie bookkeeping of one game."""

    @property
    def name(self) -> str: ...

    @property
    def deck(self) -> frozenset[Card]: ...

    @property
    def players(self) -> tuple[Seat, ...]: ...

    @property
    def tricks(self) -> int: ...

    def accepts(self, scoring: str | None) -> bool: ...

    def analyse(self, record: Record, default: Options, conventions: bool) -> OutcomeT: ...

    def books(self, event: str | None, site: str | None, date: str | None
              ) -> PartieBooks[OutcomeT]: ...


# A new family is a sibling package of rules/priffe/ and one entry here.
FAMILIES: tuple[GameFamily[Any], ...] = (PRIFFE, PREFERENCE)


def family_for(scoring: str | None) -> GameFamily[Any]:
    """The family a Scoring value selects; Priffe (which reports "not a Priffe record")
    when none claims it."""
    for fam in FAMILIES:
        if fam.accepts(scoring):
            return fam
    return PRIFFE
