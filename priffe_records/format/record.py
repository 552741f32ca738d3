"""A PPN record's model (tags, sections, tokens, comments, located errors) and its text.

A :class:`Record` keeps its tags in file order, each with the comments that
followed it; the Auction and Play tags carry their tokens, each token with its
annotations and comments. Values are stored already normalised (canonical call
words, ``NS n EW m`` results, the deal starting at the dealer), so two records
are equal exactly when the writer would print them the same way. Source
locations never take part in equality. :func:`format_record` is that text
(``str(record)``), beside the model as python-chess keeps its exporter.

>>> rec = Record((Tag("Event", "Klubbkväll"), Tag("Dealer", "N")))
>>> rec.get("Event"), rec.get("Site"), rec.get("Site", "?")
('Klubbkväll', None, '?')
"""

from __future__ import annotations

import bisect
import enum
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from operator import attrgetter
from typing import TYPE_CHECKING, Literal

from priffe_records.format.values import table_columns
from priffe_records.format.vocabulary import lexicon_for
from priffe_records.game.cards import Card, Seat
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import Message, msg_p, render


@dataclass(frozen=True, slots=True)
class Location:
    """1-based line and column in a named source."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


Severity = Literal["error", "warning"]

# How much of a long line an error shows around its caret: a 1 MB line must not
# print 1 MB per error.
WINDOW = 72


class PPNSyntaxError(PriffeError):
    """A problem in a record's text, located to file, line and column.

    ``severity`` is ``"error"`` when the record cannot mean what it says and
    ``"warning"`` when it reads fine but is not what PBN asks for (a Date
    written ``2021-04-03``): python-chess style, both ride on the record.

    >>> e = PPNSyntaxError("unterminated string", Location("a.ppn", 3, 8), '[Event "x')
    >>> print(e)
    a.ppn:3:8: unterminated string
        [Event "x
               ^
    >>> shown, caret = PPNSyntaxError("odd", Location("a", 1, 500), "x" * 999 + "!").snippet()
    >>> len(shown), shown[caret.index("^")]
    (74, 'x')
    """

    def __init__(self, message: Message | str, location: Location, line_text: str = "",
                 severity: Severity = "error") -> None:
        super().__init__(message)
        self.text = message  # a Message renders in the active language
        self.location = location
        self.line_text = line_text
        self.severity: Severity = severity

    def __reduce__(self) -> tuple[type[PPNSyntaxError], tuple[object, ...]]:
        """Pickled with its arguments (a partie's books travel between processes with
        the records they keep, and an exception's default pickling drops them)."""
        return type(self), (self.text, self.location, self.line_text, self.severity)

    @property
    def message(self) -> str:
        return render(self.text)

    @property
    def is_warning(self) -> bool:
        return self.severity == "warning"

    def snippet(self) -> tuple[str, str]:
        """The line as shown (a window around the caret on a long line) and the caret line."""
        # One character per column keeps the caret aligned; PBN §2.2 asks for
        # '?' where a character cannot be shown.
        text = self.line_text.rstrip("\n")
        col = max(self.location.column, 1) - 1
        start = 0
        if len(text) > WINDOW:
            start = max(0, min(col - WINDOW // 2, len(text) - WINDOW))
            text = text[start:start + WINDOW]
        shown = "".join(c if c.isprintable() else "?" for c in text.expandtabs(1))
        prefix, suffix = ("…" if start else ""), ("…" if start + WINDOW < len(
            self.line_text.rstrip("\n")) else "")
        return (prefix + shown + suffix, " " * (col - start + len(prefix)) + "^")

    def __str__(self) -> str:
        kind = f"{msg_p('severity', 'warning')}: " if self.is_warning else ""
        out = f"{self.location}: {kind}{self.message}"
        if self.line_text:
            shown, caret = self.snippet()
            out += f"\n    {shown}\n    {caret}"
        return out

    def to_dict(self) -> dict[str, object]:
        return {"file": self.location.file, "line": self.location.line,
                "column": self.location.column, "severity": self.severity,
                "message": self.message}



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
    def card(self) -> Card | None:
        return Card.parse(self.text) if self.kind is TokenKind.CARD else None


# A token's annotations: irregularity, note, NAGs, comments (PBN §3.5.2, §3.7, §3.9).
Marks = tuple[str | None, int | None, tuple[int, ...], tuple[Comment, ...]]
NO_MARKS: Marks = (None, None, (), ())
# Where a run of words starts in the file: (index of its first token, line, column, text).
Run = tuple[int, int, int, str]
_WORD = re.compile(r"\S+")
_set = object.__setattr__


def places(pattern: re.Pattern[str], text: str, line: int, column: int
           ) -> Iterator[tuple[re.Match[str], int, int]]:
    """Each match of ``pattern`` in a run of text starting at ``line:column``, with the
    line and column where it starts.

    Runs (calls, cards, tag pairs) span lines; only the text since the last
    match is scanned for line ends, so a very long line stays linear.
    """
    line_start, nl_seen, scanned = 0, 0, 0
    for m in pattern.finditer(text):
        start = m.start()
        nl = text.count("\n", scanned, start)
        scanned = start
        if nl:
            nl_seen += nl
            line_start = text.rfind("\n", 0, start) + 1
        yield m, line + nl_seen, start - line_start + 1 if nl_seen else column + start


def word_places(text: str, line: int, column: int) -> Iterator[tuple[int, int]]:
    """(line, column) of each word of a run of calls or cards starting at ``line:column``."""
    for _, ln, col in places(_WORD, text, line, column):
        yield ln, col


class Section:
    """Auction or Play data: the tokens after the tag, in order.

    Kept lean: the kinds and canonical texts as tuples, the few
    annotated tokens in a map, and where each run of words started in the
    file. :attr:`tokens` builds the :class:`Token` objects (with their
    locations) on first use; the engine and the writer read :attr:`kinds`,
    :attr:`texts` and :meth:`marks` and ask :meth:`location_at` only when a
    message needs a place, so a clean record never builds a Token.
    """

    __slots__ = ("_file", "_marks", "_runs", "_tokens", "kinds", "texts")
    kinds: tuple[TokenKind, ...]
    texts: tuple[str, ...]
    _marks: dict[int, Marks]
    _runs: tuple[Run, ...]
    _file: str
    _tokens: tuple[Token, ...] | None

    def __init__(self, tokens: tuple[Token, ...] = ()) -> None:
        tokens = tuple(tokens)
        marks = {i: (t.irregularity, t.note, t.nags, t.comments) for i, t in enumerate(tokens)
                 if t.irregularity is not None or t.note is not None or t.nags or t.comments}
        _set(self, "kinds", tuple(t.kind for t in tokens))
        _set(self, "texts", tuple(t.text for t in tokens))
        _set(self, "_marks", marks)
        _set(self, "_runs", ())
        _set(self, "_file", "")
        _set(self, "_tokens", tokens)

    @classmethod
    def lean(cls, kinds: tuple[TokenKind, ...], texts: tuple[str, ...],
             marks: dict[int, Marks], runs: tuple[Run, ...], file: str) -> Section:
        """The reader's constructor: ``runs`` say where each run of words was in ``file``."""
        self = object.__new__(cls)
        _set(self, "kinds", kinds)
        _set(self, "texts", texts)
        _set(self, "_marks", marks)
        _set(self, "_runs", runs)
        _set(self, "_file", file)
        _set(self, "_tokens", None)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Section is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Section is immutable")

    def __len__(self) -> int:
        return len(self.kinds)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Section:
            return NotImplemented
        assert isinstance(other, Section)
        return (self.kinds == other.kinds and self.texts == other.texts
                and self._marks == other._marks)

    def __hash__(self) -> int:
        return hash((self.kinds, self.texts))

    def __repr__(self) -> str:
        return f"Section(tokens={self.tokens!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Section, (self.tokens,))

    def marks(self, i: int) -> Marks:
        """Token ``i``'s irregularity, note, NAGs and comments."""
        return self._marks.get(i, NO_MARKS)

    @property
    def marked(self) -> Mapping[int, Marks]:
        """The annotated tokens by index (most tokens have none); read only."""
        return self._marks

    @property
    def ended(self) -> bool:
        """Whether ``*`` closes the section early."""
        return TokenKind.END in self.kinds

    def location_at(self, i: int) -> Location | None:
        """Where token ``i`` was read (None for a section built in code)."""
        if self._tokens is not None:
            return self._tokens[i].location
        if i < 0:
            i += len(self.kinds)
        runs = self._runs
        k = bisect.bisect_right(runs, i, key=_first) - 1
        first, line, column, text = runs[k]
        for j, (ln, col) in enumerate(word_places(text, line, column), first):
            if j == i:
                return Location(self._file, ln, col)
        raise IndexError(i)  # pragma: no cover - every token belongs to a run

    def line_starts(self) -> tuple[int, ...] | None:
        """The index of the first token on each line the tokens were read from, without
        building the tokens; ``None`` for a section built in code (its tokens have no
        place)."""
        if self._tokens is not None:
            lines = [t.location.line for t in self._tokens if t.location is not None]
            if len(lines) != len(self._tokens):
                return None
            return tuple(i for i, line in enumerate(lines) if not i or line != lines[i - 1])
        starts: list[int] = []
        last = -1
        for first, line, _, text in self._runs:
            at = first
            for part in text.split("\n"):
                words = len(part.split())
                if words:
                    if line != last:
                        starts.append(at)
                    last = line
                at += words
                line += 1
        return tuple(starts)

    @property
    def tokens(self) -> tuple[Token, ...]:
        tokens = self._tokens
        if tokens is None:
            tokens = tuple(self._build())
            _set(self, "_tokens", tokens)
        return tokens

    def _build(self) -> Iterator[Token]:
        kinds, texts, marks, file = self.kinds, self.texts, self._marks, self._file
        runs = self._runs
        for r, (first, line, column, text) in enumerate(runs):
            end = runs[r + 1][0] if r + 1 < len(runs) else len(kinds)
            for i, (ln, col) in zip(range(first, end), word_places(text, line, column),
                                    strict=False):
                irr, note, nags, comments = marks.get(i, NO_MARKS)
                yield Token(kinds[i], texts[i], irr, note, nags, comments,
                            Location(file, ln, col))


def _first(run: Run) -> int:
    return run[0]


@dataclass(frozen=True, slots=True)
class RawSection:
    """A supplemental section (PBN §5) kept as rows of elements, strings with their quotes."""

    rows: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class DamagedSection:
    """A tag pair and its section data that could not be read, kept as the lines written.

    A bad token costs its section, not the record: the tag keeps its name (and its
    value when the tag pair itself was whole), the writer puts ``text`` back as it
    was, and the engine sees no section here, so it takes that part as unknown.
    Without ``pair`` the tag pair itself was broken and the tag's value is unknown.
    ``open_comment`` says the text ends inside a ``{`` comment: it must then be
    written last, or reading it again would take what follows into the comment.
    """

    text: str
    open_comment: bool = False
    pair: bool = True  # the tag pair itself was whole, so the tag's value is as written


Sections = Section | RawSection | DamagedSection


_ESCAPED = re.compile(r'\\([\\"])')


def unescape(s: str) -> str:
    """A tag value as meant: ``\\"`` and ``\\\\`` as written in a string (PBN §3.2)."""
    if "\\" not in s:
        return s
    return _ESCAPED.sub(r"\1", s)


class Tag:
    """A tag pair and what follows it up to the next tag.

    ``value`` is the effective value (``#``/``##`` inheritance resolved, PBN
    §4.8); ``inherit`` keeps the marker as written so the file round-trips.

    Immutable and compared like a frozen dataclass (locations take no part;
    ``dataclasses.replace`` and ``fields`` work), but built without a frozen
    dataclass's per-field ``object.__setattr__`` and with its locations kept as
    numbers until asked for: the reader makes many tags for every record.
    """

    __slots__ = ("_comments", "_file", "_inherit", "_loc", "_name", "_section", "_value",
                 "_vloc")
    __match_args__ = ("name", "value", "comments", "section", "inherit", "location",
                      "value_location")
    _name: str
    _value: str
    _comments: tuple[Comment, ...]
    _section: Sections | None
    _inherit: str | None
    _loc: Location | int | None  # an int is line << 32 | column in _file
    _vloc: Location | int | None
    _file: str

    def __init__(self, name: str, value: str, comments: tuple[Comment, ...] = (),
                 section: Sections | None = None, inherit: str | None = None,
                 location: Location | None = None, value_location: Location | None = None
                 ) -> None:
        self._name = name
        self._value = value
        self._comments = comments
        self._section = section
        self._inherit = inherit  # "#", "##" or "##text" as written; None for a plain value
        self._loc = location
        self._vloc = value_location
        self._file = ""

    @classmethod
    def read(cls, name: str, value: str, comments: tuple[Comment, ...],
             section: Sections | None, file: str, line: int, column: int,
             value_line: int, value_column: int) -> Tag:
        """The reader's constructor: the locations are made from the numbers when asked."""
        self = cls.__new__(cls)
        self._name = name
        self._value = value
        self._comments = comments
        self._section = section
        self._inherit = None
        self._loc = line << 32 | column
        self._vloc = value_line << 32 | value_column
        self._file = file
        return self

    @classmethod
    def run(cls, pairs: list[tuple[str, str, str, str]], file: str, line: int, column: int
            ) -> list[Tag]:
        """The reader's constructor for a run of tag pairs from ``line`` and ``column``, each
        pair as its pieces (``[`` to the value's quote, the name, the raw value, the closing
        quote to the next pair), so every place follows from the lengths before it."""
        out: list[Tag] = []
        new = cls.__new__
        for head, name, raw, tail in pairs:
            self = new(cls)
            self._name = name
            self._value = raw if "\\" not in raw else unescape(raw)
            self._comments = ()
            self._section = None
            self._inherit = None
            loc = line << 32 | column
            self._loc = loc
            self._vloc = loc + len(head)  # same line
            self._file = file
            out.append(self)
            if tail == '"]\n':  # export shape: one a line
                line += 1
                column = 1
            elif "\n" in tail:
                line += tail.count("\n")
                column = len(tail) - tail.rindex("\n")
            else:
                column += len(head) + len(raw) + len(tail)
        return out

    def with_value(self, value: str, inherit: str | None = None) -> Tag:
        """A copy with another value (and inheritance marker); comments, section and
        locations kept."""
        new = Tag.__new__(Tag)
        new._name = self._name
        new._value = value
        new._comments = self._comments
        new._section = self._section
        new._inherit = inherit
        new._loc = self._loc
        new._vloc = self._vloc
        new._file = self._file
        return new

    def with_comments(self, comments: tuple[Comment, ...]) -> Tag:
        """A copy with other comments; value, marker, section and locations kept."""
        new = self.with_value(self._value, self._inherit)
        new._comments = comments
        return new

    if TYPE_CHECKING:
        @property
        def name(self) -> str: ...

        @property
        def value(self) -> str: ...

        @property
        def comments(self) -> tuple[Comment, ...]: ...

        @property
        def section(self) -> Sections | None: ...

        @property
        def inherit(self) -> str | None: ...
    else:  # read-only fields, read at C speed
        name = property(attrgetter("_name"))
        value = property(attrgetter("_value"))
        comments = property(attrgetter("_comments"))
        section = property(attrgetter("_section"))
        inherit = property(attrgetter("_inherit"))

    @property
    def location(self) -> Location | None:
        loc = self._loc
        if loc.__class__ is int:
            loc = self._loc = _unpack(self._file, loc)
        return loc  # type: ignore[return-value]

    @property
    def value_location(self) -> Location | None:
        loc = self._vloc
        if loc.__class__ is int:
            loc = self._vloc = _unpack(self._file, loc)
        return loc  # type: ignore[return-value]

    @property
    def line(self) -> int | None:
        """The tag's line, without making its Location."""
        loc = self._loc
        if loc is None:
            return None
        return loc >> 32 if isinstance(loc, int) else loc.line

    @property
    def written_value(self) -> str:
        return self._value if self._inherit is None else self._inherit

    def _key(self) -> tuple[object, ...]:
        return (self._name, self._value, self._comments, self._section, self._inherit)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Tag:
            return NotImplemented
        assert isinstance(other, Tag)
        return (self._name == other._name and self._value == other._value
                and self._comments == other._comments and self._section == other._section
                and self._inherit == other._inherit)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Tag(name={self._name!r}, value={self._value!r}, comments={self._comments!r}, "
                f"section={self._section!r}, inherit={self._inherit!r})")

    def __reduce__(self) -> tuple[object, ...]:
        return (Tag, (self._name, self._value, self._comments, self._section, self._inherit,
                      self.location, self.value_location))


def _unpack(file: str, packed: object) -> Location:
    assert isinstance(packed, int)
    return Location(file, packed >> 32, packed & 0xFFFFFFFF)


@dataclass(frozen=True)
class _TagFields:
    """Tag's fields as a dataclass declares them: ``dataclasses.replace``/``fields`` use them."""

    name: str
    value: str
    comments: tuple[Comment, ...] = ()
    section: Sections | None = None
    inherit: str | None = None
    location: Location | None = field(default=None, compare=False, repr=False)
    value_location: Location | None = field(default=None, compare=False, repr=False)


Tag.__dataclass_fields__ = _TagFields.__dataclass_fields__  # type: ignore[attr-defined]
Tag.__dataclass_params__ = _TagFields.__dataclass_params__  # type: ignore[attr-defined]


# PBN §4.8: these tags describe one deal and may not inherit their value with '#'.
NO_INHERIT = frozenset({"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction",
                        "Play", "Note"})


def resolve_inheritance(name: str, value: str, last: Mapping[str, str],
                        header: dict[str, str]) -> str:
    """The value a tag's written ``value`` stands for in its file (PBN §4.8), given each
    tag's ``last`` value in the records before and the file's ``header`` of ``##`` values.

    ``#`` stands for the tag's last value (empty when there was none); ``##x`` for ``x``,
    which also becomes the value of every later record that does not name the tag; any
    other value, and a '#' on a tag of :data:`NO_INHERIT`, stands for itself and replaces
    the tag's ``##`` default. The reader (and so
    :func:`~priffe_records.format.reader.read_headers`) resolves by this.
    """
    if value[:1] != "#" or name in NO_INHERIT:
        if name in header:
            header[name] = value
        return value
    if value == "#":
        return last.get(name, "")
    header[name] = value = value[2:]
    return value


# A partie's head (FORMAT.md): the records of one partie share these three values.
PARTIE_HEAD = ("Event", "Site", "Date")
# Export order (FORMAT.md): identification tags, then Auction and Play with
# their notes, then the PPN score tags, then every other tag alphabetically, then
# the supplemental sections (tables) alphabetically (PBN §3.1). Vulnerable is PBN's
# (MTS, §3.4), between Dealer and Deal; Talon, Discard, Dropout, Pot and Balance are
# Préférence's (PREFERENCE.md).
HEAD_TAGS = ("Event", "Site", "Date", "Rubber", "Board", "West", "North", "East", "South",
             "Dealer", "Vulnerable", "Deal", "Talon", "Scoring", "Declarer", "Contract",
             "Discard", "Dropout", "Result")
SCORE_TAGS = ("Score", "Honours", "ScoreRubber", "Settlement", "Pot", "Balance")
# The tag naming the player in each seat (PBN §3.4.2).
PLAYER_TAGS: dict[Seat, str] = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


# Each fixed tag's place in export order (a Note's depends on its section).
_ORDER: dict[str, tuple[int, int, str]] = {
    **{n: (0, i, "") for i, n in enumerate(HEAD_TAGS)}, "Auction": (1, 0, ""),
    "Play": (2, 0, ""), **{n: (3, i, "") for i, n in enumerate(SCORE_TAGS)}}
_NOTE_ORDER = {"Auction": (1, 1, ""), "Play": (2, 1, "")}


def export_order(tags: tuple[Tag, ...]) -> list[Tag]:
    """Tags sorted into export order; Note tags stay with the section they follow.

    The sort is stable, so repeated tags (and notes) keep their relative order. A
    record read in export shape is in order already: then it is only checked (every
    canonical text of an import asks).
    """
    keys: list[tuple[int, int, str]] = []
    # A Note before any section goes with the first section of the record: where
    # it is written is where the next read puts it, so ``fmt`` is idempotent.
    section = next((t.name for t in tags if t.name in _NOTE_ORDER), None)
    for tag in tags:
        name = tag.name
        key = _ORDER.get(name)
        if key is None:
            if name == "Note" and section is not None:
                key = _NOTE_ORDER[section]
            else:  # after every tag pair, a supplemental section (PBN §3.1)
                key = (4, 0, name) if tag.section is None else (5, 0, name)
        elif name in _NOTE_ORDER:
            section = name
        data = tag.section
        if isinstance(data, DamagedSection) and data.open_comment:
            key = (6, 0, "")  # last: its open comment would take in what follows
        keys.append(key)
    if all(a <= b for a, b in pairwise(keys)):
        return list(tags)
    order = sorted(range(len(tags)), key=keys.__getitem__)  # stable: ties keep their order
    return [tags[i] for i in order]


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

    def __getitem__(self, name: str) -> str:
        """``record["Event"]``: the effective value, as :meth:`get`; KeyError when there is none.

        A mapping's habits (python-chess's ``game.headers["Event"]``), so a
        notebook reads a record the way it reads any table of tags.
        """
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __contains__(self, name: object) -> bool:
        """``"Event" in record``: whether the record has a value for that tag, own or inherited."""
        return isinstance(name, str) and self.get(name) is not None

    # Not a mapping to loop over: ``for x in record`` would walk its tag names and
    # hide the usual mistake of passing one record where a list of them is wanted.
    __iter__ = None

    def __str__(self) -> str:
        """The record as PPN, the writer's text for it (``repr`` stays the dataclass's)."""
        return format_record(self)

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
                marks = t.section._marks
                for i in sorted(marks):
                    yield from marks[i][3]

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
                sec = t.section
                for i, (kind, text) in enumerate(zip(sec.kinds, sec.texts, strict=True)):
                    td: dict[str, object] = {"kind": kind.value, "text": text}
                    if i in sec._marks:
                        irregularity, note, nags, cs = sec._marks[i]
                        if irregularity:
                            td["irregularity"] = irregularity
                        if note is not None:
                            td["note"] = note
                        if nags:
                            td["nags"] = list(nags)
                        if cs:
                            td["comments"] = comments(cs)
                    toks.append(td)
                d["tokens"] = toks
            elif isinstance(t.section, RawSection):
                d["rows"] = [list(r) for r in t.section.rows]
            elif isinstance(t.section, DamagedSection):
                d["damaged"] = t.section.text
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
                tags[i] = t.with_value(value)
                break
        else:
            tags.append(Tag(name, value))
        return Record(tuple(tags), self.leading, self.defaults, self.location, self.errors)

    @property
    def unread(self) -> tuple[Tag, ...]:
        """The tags whose section (or tag pair) could not be read: kept as their text."""
        return tuple(t for t in self.tags if isinstance(t.section, DamagedSection))

    @property
    def has_errors(self) -> bool:
        """Whether any attached problem is an error (warnings alone do not count)."""
        return any(not e.is_warning for e in self.errors)


PartieHead = tuple[str | None, str | None, str | None]


def partie_head(record: Record) -> PartieHead:
    """The record's Event, Site and Date (:data:`PARTIE_HEAD`): the records of a file that
    share them, one after another, are one partie (FORMAT.md). The one place that says
    so for the rules' grouping, the archive's identity and the cutter's guess."""
    get = record.get
    return (get("Event"), get("Site"), get("Date"))


# ---------------------------------------------------------------- the record as text

_NEEDS_ESCAPE = re.compile(r'\\(?=[\\"]|$)|"')


def escape(value: str) -> str:
    r"""A tag value as a PBN string token (PBN §3.2).

    A backslash is doubled only where the reader would otherwise take it as
    an escape (before a backslash or a quote, or last), so table headers keep
    the form PBN's examples and real files write.

    >>> print(escape('Declarer;Denomination\\2R'))
    "Declarer;Denomination\2R"
    >>> print(escape('a\\"b'), escape('x\\'))
    "a\\\"b" "x\\"
    """
    if "\\" not in value and '"' not in value:
        return '"' + value + '"'
    return '"' + _NEEDS_ESCAPE.sub(lambda m: "\\" + m.group(0), value) + '"'


def _format_word(text: str, irregularity: str | None, note: int | None,
                 nags: tuple[int, ...]) -> str:
    if irregularity is None and note is None and not nags:
        return text
    parts = []
    if irregularity:
        parts.append("^" + irregularity)
    parts.append(text)
    if note is not None:
        parts.append(f"={note}=")
    parts.extend(f"${n}" for n in nags)
    return " ".join(parts)


def _section_lines(section: Section, width: int = 4) -> list[str]:
    """Four slots a line; ``*`` on a line of its own; comments stay after their token."""
    kinds, texts, marked = section.kinds, section.texts, section.marked
    end = TokenKind.END
    if end not in kinds and all(c.kind is CommentKind.BRACE
                                for m in marked.values() for c in m[3]):
        # Nearly every section: words (with their annotations and brace comments) four
        # a line; only '*', ';' and '%' comments change where a line ends.
        words = list(texts)
        for i, (irregularity, note, nags, comments) in marked.items():
            word = _format_word(texts[i], irregularity, note, nags)
            words[i] = " ".join([word, *(c.pbn() for c in comments)]) if comments else word
        return [" ".join(words[i:i + width]) for i in range(0, len(words), width)]
    lines: list[str] = []
    cur: list[str] = []
    slots = 0

    def flush() -> None:
        nonlocal cur, slots
        if cur:
            lines.append(" ".join(cur))
        cur, slots = [], 0

    for i, (kind, text) in enumerate(zip(kinds, texts, strict=True)):
        if kind is end or slots == width:
            flush()
        irregularity, note, nags, comments = marked.get(i, NO_MARKS)
        cur.append(_format_word(text, irregularity, note, nags))
        if kind is not end:
            slots += 1
        for c in comments:
            if c.kind is CommentKind.ESCAPE:
                flush()
                lines.append(c.pbn())
            elif c.kind is CommentKind.LINE:
                cur.append(c.pbn())
                flush()
                slots = 0
            else:
                cur.append(c.pbn())
        if kind is end:
            flush()
    flush()
    return lines


def _tag_lines(tag: Tag, resolve: bool, play_width: int = 4) -> list[str]:
    if isinstance(tag.section, DamagedSection):
        return tag.section.text.split("\n")  # unread: written back as it was
    value = tag.value if resolve else tag.written_value
    lines = [f"[{tag.name} {escape(value)}]"]
    lines.extend(c.pbn() for c in tag.comments)
    if isinstance(tag.section, Section):
        lines.extend(_section_lines(tag.section, play_width if tag.name == "Play" else 4))
    elif isinstance(tag.section, RawSection):
        rows = tag.section.rows
        lines.extend(_table_lines(tag.value, rows) if tag.name.endswith("Table") else
                     (" ".join(row) for row in rows))
    return lines


def _table_lines(header: str, rows: tuple[tuple[str, ...], ...]) -> list[str]:
    """A table's rows with each cell padded to its column's minimum width (PBN §5.2).

    Export format asks for the padding ("extra spaces must be added"): ``L``
    pads after the cell, ``R`` before it, no letter after it (PBN names no
    side). Cells go to columns by their place in the whole table, so a row
    split over lines still lines up; no line ends in blanks.
    """
    columns = table_columns(header)
    if not any(width for width, _ in columns):
        return [" ".join(row) for row in rows]
    n, k = len(columns), 0
    lines: list[str] = []
    for row in rows:
        cells: list[str] = []
        for cell in row:
            width, align = columns[k % n]
            k += 1
            cells.append(cell.rjust(width) if align == "R" else cell.ljust(width))
        lines.append(" ".join(cells).rstrip(" "))
    return lines


def _play_width(record: Record) -> int:
    """Cards a Play line holds: a trick of the record's game (four in Priffe; three in
    Préférence, two once a defender dropped out)."""
    own = lexicon_for(record.get("Scoring")).own
    if not own.dropouts:
        return own.trick
    declarer = record.get("Declarer")
    out = {w for w in (record.get("Dropout") or "").split() if w != declarer}
    return own.trick - min(1, len(out))


def format_record(record: Record, *, resolve_inheritance: bool = False) -> str:
    """One record in export format, ending with a newline.

    ``resolve_inheritance`` writes inherited (``#``/``##``) values out in
    full, for a record taken out of its file (archive exports, filters).
    """
    lines = [c.pbn() for c in record.leading]
    tags = list(record.tags)
    if resolve_inheritance:
        tags += [Tag(n, v) for n, v in record.defaults]
    width = _play_width(record)
    for tag in export_order(tuple(tags)):
        if tag.section is None and not tag.comments:  # most tags: one line, as _tag_lines
            value = tag.value if resolve_inheritance else tag.written_value
            lines.append(f"[{tag.name} {escape(value)}]")
        else:
            lines.extend(_tag_lines(tag, resolve_inheritance, width))
    return "\n".join(lines) + "\n"
