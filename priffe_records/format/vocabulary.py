"""A game family's words as the reader needs them, and which ``Scoring`` values name the game.

The format knows no game: each family declares its :class:`Vocabulary` in a data-only
module of its own folder (``rules/<family>/words.py``, importing only ``game/`` and this
module) and registers it as an entry point of the ``priffe_records`` group
(``pyproject.toml``; a third party's package does the same). The reader loads them on
first need, so it runs no code above the format layer, and a new family adds no line here.

A record reads by the words of the family its ``Scoring`` selects (the default family,
the one whose records need no Scoring tag, when none does); the other families' call
words are kept as foreign calls.

>>> lexicon_for("Preference;ante=5").own.name, lexicon_for(None).own.name
('Preference', 'Priffe')
>>> lexicon_for("Whist").own.name  # no family claims it: read as the default family's
'Priffe'
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from priffe_records.format.values import is_unspecified
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import Message, msg

# The entry-point group the families register their words in (pyproject.toml).
GROUP = "priffe_records"


@dataclass(frozen=True, eq=False, slots=True)
class Vocabulary:
    """What a family tells the reader, and where the rest of the family lives.

    ``calls`` and ``contracts`` map every accepted spelling, case-folded, to the
    canonical word; ``unknown_call`` words the syntax error for a word that is none of
    them. ``trick`` is the most cards a Play row holds (one trick), ``long_row`` the
    error for a longer row when that is fewer than four, ``dropouts`` whether a Dropout
    tag's defenders leave the row a card short. ``own_values`` rewrites the family's
    own tag values (``value_tags``) into their export form, ``sides_result`` reads
    Result as FORMAT.md's ``NS n EW m``; ``labels`` are the words a table shows for the
    family's values stored in the archive, by (column, value). ``family`` names the
    module of the family's plugin (rules/family.py registers it with pluggy; the reader
    never loads it).
    """

    name: str
    calls: Mapping[str, str]
    contracts: Mapping[str, str]
    unknown_call: Callable[[str], Message]
    family: str
    untagged: bool = False  # a record without a Scoring tag is this game's
    trick: int = 4
    long_row: Message | None = None
    dropouts: bool = False
    value_tags: frozenset[str] = frozenset()
    own_values: Callable[[str, str], str] | None = None
    sides_result: bool = False
    labels: Mapping[tuple[str, str], Message] = field(default_factory=dict)
    scorings: frozenset[str] = frozenset()  # other first fields naming it (bridge's IMP)
    # Whether a record whose Scoring says nothing is this game's; it takes a Record, typed
    # loosely: record.py imports this module
    claims: Callable[[Any], bool] | None = None
    # The same for the text of a record the reader could not read: its unknown calls
    # are then worded by this game's unknown_call
    claims_text: Callable[[str], bool] | None = None

    def accepts(self, scoring: str | None) -> bool:
        """Whether a Scoring value names this game: its first field, in any case, is
        its name or one of ``scorings``."""
        if is_unspecified(scoring):
            return self.untagged
        first = str(scoring).split(";")[0].strip().casefold()
        return first == self.name.casefold() or first in self.scorings

    def claims_untagged(self, record: object) -> bool:
        """Whether a record that names no game is this game's (bridge's by its contract or
        calls); the default family takes those no family claims."""
        return self.claims is not None and self.claims(record)


@dataclass(frozen=True, eq=False, slots=True)
class Lexicon:
    """A record's words: its own family's, and every other family's calls as foreign
    words (in :func:`vocabularies` order: the first family to claim a spelling keeps it)."""

    own: Vocabulary
    foreign: Mapping[str, str]
    canonical: frozenset[str] = field(default=frozenset())  # every family's call words


class _Loaded:
    """The registered vocabularies and a lexicon for each, loaded once."""

    def __init__(self) -> None:
        every: list[Vocabulary] = []
        for _, value in sorted(entry_points().items()):
            module, _, name = value.partition(":")
            every.append(getattr(importlib.import_module(module), name))
        if not every:  # e.g. a clone's editable install made before families had entry points
            raise PriffeError(msg("no game family is installed: this copy's entry points are "
                                  "missing; install it again (in a clone: pip install -e .)"))
        every.sort(key=lambda v: not v.untagged)  # the default family first
        self.every = tuple(every)
        canonical = frozenset(w for v in every for w in v.calls.values())
        self.lexicons = {v: Lexicon(v, _foreign(v, every), canonical) for v in every}
        self.by_scoring: dict[str | None, Lexicon] = {}


def entry_points() -> dict[str, str]:
    """The group's entry points of every distribution on ``sys.path`` (name →
    ``module:object``; the first distribution's when two give one name), read from each
    ``entry_points.txt`` as importlib.metadata reads them, without importing it: that
    import alone costs a small command 9 ms of its start, this reading about 1 ms."""
    found: dict[str, str] = {}
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                found = _group(Path(folder or ".", name, "entry_points.txt")) | found
    return found


def _group(path: Path) -> dict[str, str]:
    """The entry points of :data:`GROUP` one ``entry_points.txt`` lists."""
    try:
        section = path.read_text("utf-8").partition(f"[{GROUP}]")[2].split("\n[")[0]
    except OSError:
        return {}
    pairs = (line.partition("=") for line in section.splitlines())
    return {key.strip(): value.strip() for key, _, value in pairs if value.strip()}


def _foreign(own: Vocabulary, every: list[Vocabulary]) -> dict[str, str]:
    out: dict[str, str] = {}
    for other in every:
        if other is not own:
            for spelling, word in other.calls.items():
                out.setdefault(spelling, word)
    return out


@functools.cache
def _loaded() -> _Loaded:
    return _Loaded()


def vocabularies() -> tuple[Vocabulary, ...]:
    """Every registered family's vocabulary: the default family's first (it reads the
    records without a Scoring tag), then the others by their entry point's name."""
    return _loaded().every


def lexicon_for(scoring: str | None) -> Lexicon:
    """The words a record with this Scoring value reads by (remembered per value)."""
    loaded = _loaded()
    found = loaded.by_scoring.get(scoring)
    if found is None:
        own = next((v for v in loaded.every if v.accepts(scoring)), loaded.every[0])
        if len(loaded.by_scoring) > 1024:
            loaded.by_scoring.clear()
        found = loaded.by_scoring[scoring] = loaded.lexicons[own]
    return found


def forget() -> None:
    """Read the entry points again on next need (after a test installs a family); the
    parser, whose grammar holds the call words, is made per tuple of vocabularies, so it
    follows."""
    _loaded.cache_clear()
