"""The syntax-level model of a PPN record: tags, sections, tokens, comments.

A :class:`Record` keeps its tags in file order, each with the comments that
followed it; the Auction and Play tags carry their tokens, each token with its
annotations and comments. Values are stored already normalised (canonical call
words, ``NS n EW m`` results, the deal starting at the dealer), so two records
are equal exactly when the writer would print them the same way. Source
locations never take part in equality.

>>> rec = Record((Tag("Event", "Klubbkväll"), Tag("Dealer", "N")))
>>> rec.get("Event"), rec.get("Site"), rec.get("Site", "?")
('Klubbkväll', None, '?')
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from priffe_records.game.calls import Call
from priffe_records.game.cards import Card, Seat

if TYPE_CHECKING:
    from priffe_records.format.errors import PPNSyntaxError


@dataclass(frozen=True, slots=True)
class Location:
    """1-based line and column in a named source."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class CommentKind(enum.Enum):
    BRACE = "{"  # { … }, may span lines
    LINE = ";"  # ; to the end of the line
    ESCAPE = "%"  # a whole line starting with % (PBN §2.4)


@dataclass(frozen=True, slots=True)
class Comment:
    """Commentary; ``text`` excludes the delimiters."""

    text: str
    kind: CommentKind = CommentKind.BRACE
    location: Location | None = field(default=None, compare=False, repr=False)

    def pbn(self) -> str:
        if self.kind is CommentKind.BRACE:
            return "{" + self.text + "}"
        return str(self.kind.value) + self.text


class TokenKind(enum.Enum):
    CALL = "call"  # a Priffe call word
    FOREIGN = "foreign"  # a PBN bridge call (1NT, X, AP …): read, kept, never scored
    CARD = "card"
    UNKNOWN = "-"  # unknown card / no call yet
    END = "*"  # section ends early (claim, incomplete auction)
    CONTINUE = "+"  # next call or card to be made
    SKIP = "^S"  # a call skipped by a call out of rotation (PBN §3.9)


@dataclass(frozen=True, slots=True)
class Token:
    """One element of the Auction or Play section with its annotations.

    ``text`` is canonical: ``Hjärter``, ``SA``, ``-``, ``*``, ``+``, ``^S``
    or a foreign call as written (upper-cased).
    """

    kind: TokenKind
    text: str
    irregularity: str | None = None  # "I", "R" or "L" (PBN §3.9)
    note: int | None = None  # =n= reference
    nags: tuple[int, ...] = ()  # suffixes are stored as their NAGs (PBN §3.7)
    comments: tuple[Comment, ...] = ()
    location: Location | None = field(default=None, compare=False, repr=False)

    @property
    def call(self) -> Call | None:
        # A Préférence call (its own words) is no Priffe call: None, like '-'.
        return _CALLS.get(self.text) if self.kind is TokenKind.CALL else None

    @property
    def card(self) -> Card | None:
        return Card.parse(self.text) if self.kind is TokenKind.CARD else None


_CALLS = {c.value: c for c in Call}


@dataclass(frozen=True, slots=True)
class Section:
    """Auction or Play data: the tokens after the tag, in order."""

    tokens: tuple[Token, ...] = ()

    @property
    def ended(self) -> bool:
        """Whether ``*`` closes the section early."""
        return any(t.kind is TokenKind.END for t in self.tokens)


@dataclass(frozen=True, slots=True)
class RawSection:
    """A supplemental section (PBN §5) kept as rows of elements, strings with their quotes."""

    rows: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Tag:
    """A tag pair and what follows it up to the next tag.

    ``value`` is the effective value (``#``/``##`` inheritance resolved, PBN
    §4.8); ``inherit`` keeps the marker as written so the file round-trips.
    """

    name: str
    value: str
    comments: tuple[Comment, ...] = ()
    section: Section | RawSection | None = None
    inherit: str | None = None  # "#", "##" or "##text" as written; None for a plain value
    location: Location | None = field(default=None, compare=False, repr=False)
    value_location: Location | None = field(default=None, compare=False, repr=False)

    @property
    def written_value(self) -> str:
        return self.value if self.inherit is None else self.inherit


# Export order (FORMAT.md): identification tags, then Auction and Play with
# their notes, then the PPN score tags, then every other tag alphabetically.
# Talon, Discard, Dropout, Pot and Balance are Préférence's (PREFERENCE.md).
HEAD_TAGS = ("Event", "Site", "Date", "Rubber", "Board", "West", "North", "East", "South",
             "Dealer", "Deal", "Talon", "Scoring", "Declarer", "Contract", "Discard", "Dropout",
             "Result")
SCORE_TAGS = ("Score", "Honours", "ScoreRubber", "Settlement", "Pot", "Balance")
# The tag naming the player in each seat (PBN §3.4.2).
PLAYER_TAGS: dict[Seat, str] = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
_HEAD_INDEX = {n: i for i, n in enumerate(HEAD_TAGS)}
_SCORE_INDEX = {n: i for i, n in enumerate(SCORE_TAGS)}


def export_order(tags: tuple[Tag, ...]) -> list[Tag]:
    """Tags sorted into export order; Note tags stay with the section they follow.

    The sort is stable, so repeated tags (and notes) keep their relative order.
    """
    keyed: list[tuple[tuple[int, int, str], int, Tag]] = []
    # A Note before any section goes with the first section of the record: where
    # it is written is where the next read puts it, so ``fmt`` is idempotent.
    section = next((t.name for t in tags if t.name in ("Auction", "Play")), None)
    for i, tag in enumerate(tags):
        if tag.name in ("Auction", "Play"):
            section = tag.name
        if tag.name in _HEAD_INDEX:
            key = (0, _HEAD_INDEX[tag.name], "")
        elif tag.name == "Auction":
            key = (1, 0, "")
        elif tag.name == "Note" and section == "Auction":
            key = (1, 1, "")
        elif tag.name == "Play":
            key = (2, 0, "")
        elif tag.name == "Note" and section == "Play":
            key = (2, 1, "")
        elif tag.name in _SCORE_INDEX:
            key = (3, _SCORE_INDEX[tag.name], "")
        else:
            key = (4, 0, tag.name)
        keyed.append((key, i, tag))
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [t for _, _, t in keyed]


@dataclass(frozen=True, slots=True, eq=False)
class Record:
    """One game record (a deal, or a score-sheet line).

    ``leading`` holds the comments and escape lines before the first tag;
    ``defaults`` the ``##`` header values from earlier records that this
    record inherits without naming the tag. ``errors`` holds the located
    problems the reader found in a record it could still read (a Date not in
    PBN form, a NAG out of range …), warnings and errors alike: like
    python-chess, a bad detail costs a message, never the record.
    """

    tags: tuple[Tag, ...] = ()
    leading: tuple[Comment, ...] = ()
    defaults: tuple[tuple[str, str], ...] = ()
    location: Location | None = field(default=None, compare=False, repr=False)
    errors: tuple[PPNSyntaxError, ...] = field(default=(), compare=False, repr=False)
    # First tag of each name, built on first use: the engine asks ~30 times a record.
    _index: dict[str, Tag] | None = field(default=None, init=False, compare=False, repr=False)

    def _key(self) -> tuple[object, ...]:
        return (tuple(export_order(self.tags)), self.leading, self.defaults)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def tag(self, name: str) -> Tag | None:
        """The first tag of that name, if any."""
        index = self._index
        if index is None:
            index = {}
            for t in self.tags:
                index.setdefault(t.name, t)
            object.__setattr__(self, "_index", index)
        return index.get(name)

    def all(self, name: str) -> list[Tag]:
        return [t for t in self.tags if t.name == name]

    def get(self, name: str, default: str | None = None) -> str | None:
        """The effective value of a tag: its own, else an inherited ``##`` default."""
        t = self.tag(name)
        if t is not None:
            return t.value
        for n, v in self.defaults:
            if n == name:
                return v
        return default

    @property
    def auction(self) -> Section | None:
        t = self.tag("Auction")
        return t.section if t is not None and isinstance(t.section, Section) else None

    @property
    def play(self) -> Section | None:
        t = self.tag("Play")
        return t.section if t is not None and isinstance(t.section, Section) else None

    @property
    def notes(self) -> dict[int, str]:
        """Note tags ``n:text`` by number."""
        out: dict[int, str] = {}
        for t in self.all("Note"):
            num, _, text = t.value.partition(":")
            n = num.strip()
            if n.isascii() and n.isdigit() and len(n) < 10:  # "²".isdigit() is true
                out[int(n)] = text
        return out

    def comments(self) -> Iterator[Comment]:
        """Every comment of the record, in file order of what they follow."""
        yield from self.leading
        for t in self.tags:
            yield from t.comments
            if isinstance(t.section, Section):
                for tok in t.section.tokens:
                    yield from tok.comments

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready view: tags in file order, sections as token lists."""
        def comments(cs: tuple[Comment, ...]) -> list[dict[str, str]]:
            return [{"kind": c.kind.name.lower(), "text": c.text} for c in cs]

        tags: list[dict[str, object]] = []
        for t in self.tags:
            d: dict[str, object] = {"name": t.name, "value": t.value}
            if t.inherit is not None:
                d["inherit"] = t.inherit
            if t.comments:
                d["comments"] = comments(t.comments)
            if isinstance(t.section, Section):
                toks: list[dict[str, object]] = []
                for tok in t.section.tokens:
                    td: dict[str, object] = {"kind": tok.kind.value, "text": tok.text}
                    if tok.irregularity:
                        td["irregularity"] = tok.irregularity
                    if tok.note is not None:
                        td["note"] = tok.note
                    if tok.nags:
                        td["nags"] = list(tok.nags)
                    if tok.comments:
                        td["comments"] = comments(tok.comments)
                    toks.append(td)
                d["tokens"] = toks
            elif isinstance(t.section, RawSection):
                d["rows"] = [list(r) for r in t.section.rows]
            tags.append(d)
        out: dict[str, object] = {}
        if self.location is not None:
            out["file"], out["line"] = self.location.file, self.location.line
        if self.leading:
            out["leading"] = comments(self.leading)
        out["tags"] = tags
        if self.defaults:
            out["inherited"] = dict(self.defaults)
        return out

    def without_tag(self, name: str) -> Record:
        """A copy without tag ``name``; its comments stay, before the record's first tag."""
        gone = [t for t in self.tags if t.name == name]
        kept = tuple(t for t in self.tags if t.name != name)
        leading = self.leading + tuple(c for t in gone for c in t.comments)
        return Record(kept, leading, self.defaults, self.location)

    def replace_tag(self, name: str, value: str) -> Record:
        """A copy with ``name`` set to ``value`` (added if missing), comments kept."""
        tags = list(self.tags)
        for i, t in enumerate(tags):
            if t.name == name:
                tags[i] = Tag(name, value, t.comments, t.section, None, t.location,
                              t.value_location)
                break
        else:
            tags.append(Tag(name, value))
        return Record(tuple(tags), self.leading, self.defaults, self.location, self.errors)

    @property
    def has_errors(self) -> bool:
        """Whether any attached problem is an error (warnings alone do not count)."""
        return any(not e.is_warning for e in self.errors)
