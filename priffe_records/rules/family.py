"""Game families: every hook a game family answers, listed in one place, and the registry.

As Datasette's ``hookspecs.py`` lists every plugin hook in one file, this module lists
every extension point of a game, in small groups (:class:`GameFamily`): a family is one
object answering them, and the built-in families (``rules/priffe/``,
``rules/preference/``) register and answer exactly as a third party's family would.
Shared code (the driver, the validator, the archive, the replay, the CLI) asks
:func:`families` or :func:`family_for` (the family a record's ``Scoring`` tag selects),
and never imports a family package nor asks which family it holds.

A family registers its words as an entry point (``pyproject.toml``, group
``priffe_records``): the reader loads only those (format/vocabulary.py), and
:func:`families` registers the plugin module each vocabulary names with pluggy, on first
use, and asks it for its family object (the ``priffe_family`` hook). This module imports
no family, so a family's own modules may import the protocol below without a cycle.

>>> family_for(None).name, family_for("Priffe;preset=en").name, family_for("Preference").name
('Priffe', 'Priffe', 'Preference')
"""

from __future__ import annotations

import functools
import importlib
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, TypeVar

import pluggy

from priffe_records.format.record import Location, Record, Tag
from priffe_records.format.values import is_unspecified
from priffe_records.format.vocabulary import GROUP, Vocabulary, forget, lexicon_for, vocabularies
from priffe_records.game.cards import Card, Seat
from priffe_records.game.language import Message, msg, shown_date
from priffe_records.rules.findings import Finding

if TYPE_CHECKING:
    from priffe_records.dd import Deal as SolverDeal
    from priffe_records.rules.replay_facts import ReplayFacts

T = TypeVar("T")
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

    @property
    def lines(self) -> Sequence[Any]:
        """The partie's deals as its books' ``add`` gave them, in order (kept books only)."""
        ...

    def with_findings(self, findings: tuple[Finding, ...]) -> Self: ...


class PartieBooks(Protocol[OutcomeT_contra]):
    """The running books of one partie (rubbers for Priffe, a pot for Préférence).

    Books may also run without keeping the partie (validation of a file of any size):
    after :meth:`stream` says they do, they keep no deal lines or rubber results, and
    :meth:`drain` hands over the findings reported so far. Every finding they report
    must then come from ``add`` and carry the index of the deal being added (``close``
    reports nothing new): the driver emits a record's findings once the next record
    comes. Books that keep the partie take these three from :class:`KeptBooks`.
    """

    def add(self, o: OutcomeT_contra) -> object: ...

    def lost(self, where: Location, index: int) -> None: ...

    def close(self) -> PartieOutcome: ...

    def stream(self, *, rubbers: bool = False) -> bool:
        """Keep nothing of the partie from now on, if these books can; whether they do.
        ``rubbers``: but keep each rubber's end until the caller takes it (the archive
        writes rubbers as they end)."""
        ...

    def drain(self) -> list[Finding]:
        """The findings reported since the last call, once streaming."""
        ...

    def drain_rubbers(self) -> list[Any]:
        """The rubbers ended since the last call, when streamed with ``rubbers``."""
        ...


class KeptBooks:
    """The streaming answers of books that keep the whole partie (Préférence's, bridge's):
    they cannot stream, so their findings come when the partie closes."""

    def stream(self, *, rubbers: bool = False) -> bool:
        return False

    def drain(self) -> list[Finding]:
        return []

    def drain_rubbers(self) -> list[Any]:
        return []


class Entry(Protocol):
    """A deal as written on the sheet, in the words of its game: it knows the tags it sets."""

    def tags(self) -> dict[str, str]: ...


class Asking(Protocol):
    """``priffe add``'s questions as a family asks them; the command line answers."""

    def first(self, question: Message, default: str | None, completions: Iterable[str]
              ) -> str | None:
        """The first answer of a deal; ``None`` when the user stops (empty, or no input)."""
        ...

    def value(self, question: Message, parse: Callable[[str], T], default: str | None = None,
              completions: Iterable[str] = ()) -> T:
        """Asked until the answer reads."""
        ...

    def again(self, first: str, parse: Callable[[str], T], question: Message) -> T:
        """``first`` read by ``parse``, or ``question`` asked until an answer reads."""
        ...

    def say(self, text: Message) -> None: ...


class SheetRow(Protocol):
    """One deal row of a spreadsheet, as a family reads it (``sheet-import``)."""

    @property
    def cells(self) -> Mapping[str, str]:
        """The row's text by column (``Contract``, ``Result`` …); empty when not given."""
        ...

    @property
    def failed(self) -> int:
        """How many of this row's cells did not read so far."""
        ...

    def read(self, column: str, parse: Callable[[str], T]) -> T | None:
        """The cell read by ``parse``; ``None`` (and a problem at the cell) when it does not."""
        ...


class EntryForm(Protocol):
    """How a secretary writes one deal of a game down, by hand or on a spreadsheet."""

    @property
    def columns(self) -> tuple[str, ...]:
        """A deal row's columns, in the order ``score --csv`` writes them (tag names)."""
        ...

    @property
    def heading_words(self) -> Mapping[str, Mapping[str, str]]:
        """Per language, the headings this game writes unlike the shared ones
        (``rules/spreadsheet.py``'s ``WRITTEN``): Préférence's Payments for Score."""
        ...

    @property
    def computed(self) -> tuple[str, ...]:
        """Headings of what the sheet computes (running totals), written after the deal
        columns and read back by nobody."""
        ...

    @property
    def keepable(self) -> tuple[str, ...]:
        """The claimed tags a secretary may keep as written on the paper though the rules
        give another value (``priffe add``'s keep): the deal's ``Kept`` tag names them and
        the family's engine counts them as written (Priffe's Score; docs/rules-decisions.md)."""
        ...

    def read_row(self, row: SheetRow, players: Mapping[Seat, str]) -> Entry | None:
        """The row's deal, or ``None`` when a cell it needs does not read."""
        ...

    def ask(self, ask: Asking, record: Record, before: Entry | None) -> Entry | None:
        """The deal's answers (``before``: the answers to correct); ``None``: the user stops."""
        ...

    def new_seats(self, ask: Asking, records: Sequence[Record], index: int, options: object
                  ) -> dict[Seat, str] | None:
        """The seats for the deal at ``index`` when the game changes them there (asked),
        else ``None``."""
        ...

    def dealer_out(self, seat: Seat) -> Message:
        """What to say of a first dealer ``seat`` who does not play this game."""
        ...

    def sheet_rows(self, sheet: object) -> Sequence[tuple[int, tuple[str, ...] | None]] | None:
        """The deals of a score sheet of this game (``None`` for another game's sheet):
        each deal's record number and its computed cells (the values under
        :attr:`computed`), ``None`` for a record that could not be read."""
        ...


Justify = Literal["left", "right", "center"]


@dataclass(frozen=True, slots=True)
class SheetColumn:
    """A column of a score sheet: its head and how its cells line up."""

    head: Message | str
    justify: Justify = "left"


@dataclass(frozen=True, slots=True)
class SheetCell:
    """A cell of a line across the sheet, spanning ``span`` deal columns on the page;
    ``wrap``: free text that may fold."""

    text: str
    span: int = 1
    justify: Justify = "left"
    wrap: bool = False


@dataclass(frozen=True, slots=True)
class SheetDeal:
    """A deal's row: its record number and one text cell per column."""

    record: int
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SheetLine:
    """A line between deals (a rubber's end): the terminal writes ``words`` across the
    screen, the page lays out ``cells`` across the deal columns."""

    words: str
    cells: tuple[SheetCell, ...]


@dataclass(frozen=True, slots=True)
class Sheet:
    """A partie's score sheet as plain text any view draws without knowing the game:
    the columns, the rows, the standings and a line after them. ``own`` is the family's
    own sheet, for its ``fill`` and its ``entry.sheet_rows`` (``--csv``)."""

    title: str
    event: str | None
    site: str | None
    date: str | None
    columns: tuple[SheetColumn, ...]
    rows: tuple[SheetDeal | SheetLine, ...]
    first: int  # the record number of the first readable deal (file order of parties)
    standings: tuple[tuple[str, int], ...] = ()
    points: Message | str = ""  # the standings' column of points
    after: str = ""  # under the standings (the page shows it only with standings)
    game: str = ""  # after the title on the terminal, when the game is not the default
    notes: bool = False  # the last column is free text: the page lets it wrap
    findings: tuple[Finding, ...] = ()
    own: Any = None

    def holds(self, record: int) -> bool:
        """Whether the deal of record number ``record`` is a row of this sheet."""
        return any(isinstance(r, SheetDeal) and r.record == record for r in self.rows)


@dataclass(frozen=True, slots=True)
class Check:
    """One group of rules (its first and last rule IDs, ``R4``–``R9``), the tags that give
    it something to check, and a short name (``word``, as a player reads it). Each family
    lists its own (its ``checks`` hook); the IDs carry the family's letter, as findings do."""

    name: str
    first: str
    last: str
    tags: tuple[str, ...]
    word: Message

    @property
    def rules(self) -> str:
        return self.first if self.first == self.last else f"{self.first}–{self.last}"

    def covers(self, rule: str) -> bool:
        letters, low = _split_rule(self.first)
        number = rule.removeprefix(letters)
        return number != rule and number.isascii() and number.isdigit() and \
            low <= int(number) <= _split_rule(self.last)[1]


def _split_rule(rule: str) -> tuple[str, int]:
    """``BR12`` → ``("BR", 12)``: a rule ID's letters and number."""
    digits = len(rule) - len(rule.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    return rule[:digits], int(rule[digits:])


def partie_title(event: str | None, site: str | None, date: str | None) -> str:
    """``Klubbkväll · Uppsala · 25 nov. 2026``: what the sheet heads a partie with; an
    unknown part (absent, or PBN's ``?``) is left out, not shown as ``? · ?``."""
    parts = [x for x in (event, site, date and shown_date(date)) if x and not is_unspecified(x)]
    return " · ".join(parts) or str(msg("Partie"))


# ---------------------------------------------------- the hooks, in small groups
# Table, Rules and ScoreSheet are required; every other group answers "this game has
# none" by default (Defaults), so shared code never asks whether a hook is there.


class Table(Protocol):
    """Who plays, with which cards, and the family's words. Asked by the driver, the
    blank-record maker, the secretary's entry and the archive."""

    @property
    def name(self) -> str:
        """The game's word, as the ``Scoring`` tag starts (``Priffe``, ``Preference``)."""
        ...

    @property
    def prefix(self) -> str:
        """The letter of the game's rule IDs (``R`` for R1…, ``P`` for P1…): findings
        are told apart by it, in the archive and on the screen."""
        ...

    @property
    def deck(self) -> frozenset[Card]: ...

    @property
    def players(self) -> tuple[Seat, ...]:
        """The seats that play, clockwise from N (three for Préférence: W stays empty)."""
        ...

    @property
    def tricks(self) -> int: ...

    @property
    def vocabulary(self) -> Vocabulary:
        """The family's words (``rules/<family>/words.py``), the entry point's object."""
        ...

    def next_dealer(self, dealer: Seat) -> Seat:
        """Who deals the next deal of a partie."""
        ...


class Rules(Protocol[OutcomeT]):
    """The rules: variants, one record's analysis, the partie's books. A family's options
    are its own type: shared code passes them on, never reads them."""

    @property
    def presets(self) -> Mapping[str, Any]:
        """Named rule variants a user may choose (``--preset``); empty when there are none."""
        ...

    def scoring_tag(self, options: object = None) -> str:
        """The ``Scoring`` value a new record of this game is written with (``options``:
        this family's own variants, or ``None`` for its defaults)."""
        ...

    def analyse(self, record: Record, default: object, conventions: bool) -> OutcomeT:
        """One record checked on its own. ``default``: the caller's rule variants for a
        record whose Scoring tag names none; a family ignores what is not its own options.
        ``conventions`` turns on the convention warnings (R9)."""
        ...

    @property
    def checks(self) -> tuple[Check, ...]:
        """The groups of rules ``validate -v`` lists as passed, as the game's rules document
        groups them (``rules/checks.py`` says which ran and passed); empty: none listed."""
        ...

    def books(self, event: str | None, site: str | None, date: str | None
              ) -> PartieBooks[OutcomeT]:
        """A partie's running books, asked by the driver when the partie starts."""
        ...


class ScoreSheet(Protocol):
    """The score sheet (``priffe score``, ``add``, ``serve``): the driver runs once for
    every game and hands each partie to each family until one draws it."""

    def partie_sheet(self, partie: PartieOutcome, items: Sequence[Any]) -> Sheet | None:
        """The score sheet of one partie the driver closed, if it is this game's (else
        ``None``), drawn by shared code from its plain cells; ``items``: the whole input,
        whose unreadable records of this partie are rows too."""
        ...

    def fill(self, records: Sequence[Record], sheets: Sequence[Any]) -> list[Record]:
        """``records`` with the computed claims of ``sheets`` (each :attr:`Sheet.own` of
        this game's sheets) written in (``--fill``)."""
        ...


class NewRecords(Protocol):
    """New records (``priffe new``, ``priffe deal``; rules/blank.py). Default: a game
    that deals nothing, so its skeletons have no hands and it has no practice deals."""

    def deal_tags(self, rng: random.Random, dealer: Seat) -> list[Tag]:
        """The tags of one random legal deal dealt by ``dealer`` (hands, talon …)."""
        return []

    def played_deals(self, n: int, seed: int) -> list[Record]:
        """``n`` whole deals with auction, play and true claims, for practice and tests."""
        return []


@dataclass(frozen=True, slots=True)
class Standing:
    """A game's standings: one of its archive views (one row a player, a ``player_id``
    and a ``player`` column), the columns ``priffe stats`` shows after the name, its
    title there and its description in the Datasette metadata."""

    view: str
    columns: tuple[str, ...]
    title: Message
    description: Message


class ArchiveRows(Protocol):
    """The archive's rows (archive/engine.py, schema.py): plain values keyed by column
    name. Default: no claimed totals, no rubbers, no view of the game's own."""

    def claim_columns(self, record: Record) -> tuple[dict[str, Any], tuple[Finding, ...]]:
        """The deal-row columns the record's own claims give (claimed totals, tricks as
        written), and a located warning for each claimed number a column cannot hold."""
        return {}, ()

    def deal_columns(self, line: Any) -> dict[str, Any]:
        """What the partie's books computed of a deal, from the line their ``add`` gave
        (``rubber``: the deal's rubber, in a game of rubbers)."""
        return {}

    def rubber_ends(self, result: Any) -> Sequence[Any]:
        """The rubbers of a partie its books kept to the end (none in a game without)."""
        return ()

    def rubber_rows(self, ends: Sequence[Any], last_of: dict[int, Record]
                    ) -> list[dict[str, Any]]:
        """Each rubber's row (``number``, ``complete``, ``winner``, totals,
        ``settlements``) of ``ends`` (what ``rubber_ends`` or the streaming books'
        ``drain_rubbers`` gave), player names from its last deal, ``last_of[number]``."""
        return []

    def archive_views(self) -> Mapping[str, str]:
        """The game's own SQL views of the archive, by name (each name starts with the
        game's, as ``<game>_standings``): the archive makes any that is missing."""
        return {}

    def standings(self) -> Sequence[Standing]:
        """The game's own standings among its views, for ``priffe stats`` and the
        Datasette pages; none by default."""
        return ()


class DoubleDummy(Protocol[OutcomeT_contra]):
    """The double-dummy solver's position (``priffe analyse``, ``replay --dd``).
    Default: nothing to solve."""

    def dd_deal(self, outcome: OutcomeT_contra) -> SolverDeal | None:
        """The checked deal as the double-dummy solver's position: the hands that play,
        trumps, leader, the measured side and its aim, the cards played as far as they
        can be followed; ``None`` when it has no readable play."""
        return None

    def dd_no_play(self, outcome: OutcomeT_contra) -> Message | None:
        """Why :meth:`dd_deal` has nothing to solve when the rules ended the deal before
        its first card (Préférence's P9), to be said instead of "a hand or the play is
        not known"; ``None`` otherwise."""
        return None


class ReplayHook(Protocol):
    """The replay (``priffe replay``, the HTML viewer). Default: the default family
    says why a record of this game does not replay."""

    def replay_facts(self, partie: PartieOutcome) -> Mapping[int, ReplayFacts]:
        """The partie's records as the replay words and draws them, by 1-based position:
        none when the partie is another game's. Also asked with
        :class:`~priffe_records.rules.replay_facts.Strays`, records of no partie (a deal
        diagram) this family analysed."""
        return {}


class EntryHook(Protocol):
    """The secretary's entry (``priffe add``, ``sheet-import``, ``score --csv``; asked by
    rules/entry.py, rules/spreadsheet.py, cli/adding.py). Default: not typed."""

    @property
    def entry(self) -> EntryForm | None:
        """How a deal of this game is typed or read from a sheet; ``None`` when it is not."""
        return None


class Defaults(NewRecords, ArchiveRows, DoubleDummy[OutcomeT], ReplayHook, EntryHook):
    """Every optional group's default: a family subclasses it and writes the hooks it has."""


class GameFamily(Table, Rules[OutcomeT], ScoreSheet, NewRecords, ArchiveRows,
                 DoubleDummy[OutcomeT], ReplayHook, EntryHook, Protocol[OutcomeT]):
    """Every hook of one game family: each group's, written by the family or inherited
    from :class:`Defaults`. Each family module ends with ``NAME: GameFamily[ItsOutcome] =
    ItsFamily()``, which ``mypy --strict`` checks; ``tests/test_families.py`` checks that
    every registered family has one and answers every hook."""


# ------------------------------------------------------------------ registration
# As Datasette's plugins: pluggy's markers, and the one hook a family's plugin module
# answers. The entry points (pyproject.toml, group ``priffe_records``) name each family's
# words; its words name its plugin module (``Vocabulary.family``).

hookspec = pluggy.HookspecMarker(GROUP)
hookimpl = pluggy.HookimplMarker(GROUP)


@hookspec
def priffe_family() -> GameFamily[Any]:  # type: ignore[empty-body]
    """The game family this plugin adds."""


@functools.cache
def families() -> tuple[GameFamily[Any], ...]:
    """Every registered family, loaded on first use, in the order of
    :func:`~priffe_records.format.vocabulary.vocabularies` (the default family first)."""
    manager = pluggy.PluginManager(GROUP)
    manager.add_hookspecs(sys.modules[__name__])
    for words in vocabularies():
        manager.register(importlib.import_module(words.family), words.name)
    manager.check_pending()  # a misspelt hook is an error, not a hook never called
    by_words: dict[Vocabulary, GameFamily[Any]] = {
        f.vocabulary: f for f in manager.hook.priffe_family()}
    return tuple(by_words[words] for words in vocabularies())


def forget_families() -> None:
    """Load the entry points again on next need, the reader's vocabularies too (after a
    test installs a family)."""
    families.cache_clear()
    forget()


def family_for(scoring: str | None) -> GameFamily[Any]:
    """The family a Scoring value selects, by its vocabulary, as the reader read the
    record; the default family (which reports "not a Priffe record") when none claims it."""
    return families()[vocabularies().index(lexicon_for(scoring).own)]


def family_of(record: Record) -> GameFamily[Any]:
    """The family of a record: the one its Scoring names; for a record whose Scoring says
    nothing, the first family that claims it by its content (bridge: a ``4H`` contract),
    else the default family."""
    scoring = record.get("Scoring")
    if is_unspecified(scoring):
        for words, fam in zip(vocabularies(), families(), strict=True):
            if words.claims_untagged(record):
                return fam
    return family_for(scoring)


def default_family() -> GameFamily[Any]:
    """The family of records without a Scoring tag, whose presets ``--preset`` offers."""
    return families()[0]


def game_words() -> tuple[str, ...]:
    """Every family's word as ``--game`` takes it (``priffe``, ``preference``), the
    default family's first: from the words alone, so a command's options load no engine."""
    return tuple(words.name.casefold() for words in vocabularies())


def family_named(name: str) -> GameFamily[Any]:
    """The family whose word is ``name``, in any case (``priffe new --game preference``)."""
    for fam in families():
        if fam.name.casefold() == name.casefold():
            return fam
    raise KeyError(name)
