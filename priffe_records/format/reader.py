"""Streaming reader: a PPN (or PBN) file → :class:`~priffe_records.format.record.Record` objects.

The file is decoded line by line and cut into records at semi-empty lines
(PBN §3) before any parsing, so memory stays bounded by the largest record
and one bad record never costs the rest of the file.

>>> text = '[Event "Klubbkväll"]\\n[Dealer "n"]\\n[Contract "hjarter"]\\n'
>>> [rec] = loads(text)
>>> rec.get("Dealer"), rec.get("Contract")
('N', 'Hjärter')
>>> try:
...     next(loads('[Event "x"]\\n[Auction "N"]\\nHjärterr\\n'))
... except PPNSyntaxError as e:
...     print(e.location, e.message[:49])
<string>:3:1 unknown call 'Hjärterr' — did you mean 'Hjärter'?
"""

from __future__ import annotations

import dataclasses
import functools
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from operator import methodcaller
from typing import IO, TYPE_CHECKING, Any, Literal, overload

from priffe_records.format.errors import BadRecord, PPNSyntaxError, Severity
from priffe_records.format.mend import mend
from priffe_records.format.parser import (
    ends_early,
    explain,
    parse_chunk,
    parse_segment,
    unclosed,
)
from priffe_records.format.record import (
    HEAD_TAGS,
    NO_INHERIT,
    PLAYER_TAGS,
    SCORE_TAGS,
    Comment,
    CommentKind,
    DamagedSection,
    Location,
    Marks,
    RawSection,
    Record,
    Run,
    Section,
    Tag,
    TokenKind,
    places,
    resolve_inheritance,
    unescape,
    word_places,
)
from priffe_records.format.splitter import (
    CONTROL,
    RECORD_OPENERS,
    Chunk,
    Decoded,
    escape_controls,
    has_odd_characters,
    lost_characters,
    may_inherit,
    split,
    split_text,
)
from priffe_records.format.values import (
    CHECKED_TAGS,
    check_value,
    is_unspecified,
    normalise_date,
    table_columns,
)
from priffe_records.format.vocabulary import Lexicon, Vocabulary, lexicon_for, vocabularies
from priffe_records.game.cards import Card, CardError, Seat, canonical_deal
from priffe_records.game.language import Message, msg, msg_n
from priffe_records.game.words import seat_from_word, seat_hint, tag_word

if TYPE_CHECKING:  # the scanner's tokens read valid text; Lark's only a faulty one
    from lark import Token as LarkToken

# A path, an open file, or a file's Decoded bytes (whose facts say how it was read).
Source = str | os.PathLike[str] | IO[bytes] | IO[str] | Decoded

_BLANKS = " \t\f\v"
_WHITE = " \t\f\v\r\n"

_CONTROLS_SHOWN = 10  # control characters warned about one by one on a line, then counted
_CALL_SUFFIX_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
# ASCII digits, at most 9 of them: int() of "²" or of 5,000 digits raises.
_RESULT_BOTH = re.compile(r"^\s*(NS|EW)\s+([0-9]{1,9})\s+(NS|EW)\s+([0-9]{1,9})\s*$", re.I)
_RESULT_ONE = re.compile(r"^\s*(NS|EW)\s+([0-9]{1,9})\s*$", re.I)
_TRICKS = re.compile(r"^\s*([0-9]{1,9})\s*$")
_RESULT_DASHED = re.compile(r"^\s*([0-9]{1,2})\s*[-–]\s*([0-9]{1,2})\s*$")


# ---------------------------------------------------------------- building


@dataclass
class _FileState:
    """What PBN §4.8 inheritance needs to remember between records."""

    last: dict[str, str] = field(default_factory=dict)
    header: dict[str, str] = field(default_factory=dict)
    count: int = 0  # records read so far
    set_at: dict[str, int] = field(default_factory=dict)  # record that last set each tag
    lost: Location | None = None  # the last record that could not be read …
    lost_at: int = 0  # … and its number


def _what(kind: str) -> Message:
    """What a section holds, as a message names it."""
    return msg("call") if kind == "auction" else msg("card")


def _mark(marks: dict[int, list[Any]], index: int) -> list[Any]:
    """The annotations of token ``index`` while a section is read, made on first use."""
    found = marks.get(index)
    if found is None:
        found = marks[index] = [None, None, [], []]
    return found


def _nag_range(text: str) -> Message:
    return msg("NAG {text!r} is out of range: $0 … $255 (PBN §3.7)", text=text)


def _precede(text: str, what: Message) -> Message:
    return msg("irregularity {text!r} must precede a {what}", text=text, what=what)


class _Builder:
    """Turns one chunk's Lark tokens into a Record, collecting located errors."""

    def __init__(self, name: str, chunk: Chunk, state: _FileState, sections: bool = True
                 ) -> None:
        self.name = name
        self.sections = sections  # False: the headers visitor, section data left unread
        self.chunk = chunk
        self.state = state
        # The record's Scoring and its family's call words and values: set by build.
        self.scoring: str | None = None
        self.words: _Words
        self.errors: list[PPNSyntaxError] = [
            PPNSyntaxError(message, Location(name, line, column), self.line_text(line), severity)
            for line, column, message, severity in chunk.notes] if chunk.notes else []
        # True when something of the text could not be kept in the model: such a
        # record stays a BadRecord, so writers keep its text as it was.
        self.lossy = bool(chunk.notes) and any(severity == "error"
                                               for *_, severity in chunk.notes)
        self._seen: set[tuple[int, str | Message]] = set()
        # Whether a tag value may start with '#' (inheritance, PBN §4.8): False lets
        # inherit skip its look at every tag.
        self.hashes = True
        self.first: Location | None = None  # where the record starts
        self.damaged = False  # a tag's section could not be read: kept as its text

    def loc(self, tok: LarkToken, extra: int = 0) -> Location:
        """Where a Lark token starts, shifted by ``extra`` columns."""
        return Location(self.name, self.chunk.first_line + (tok.line or 1) - 1,
                        (tok.column or 1) + extra)

    def error(self, message: Message, where: Location, *, severity: Severity = "error",
              kind: str | None = None, lossy: bool = False) -> None:
        """Record a located problem; one per line and kind is enough."""
        self.lossy = self.lossy or lossy
        key = (where.line, kind or message)
        if key in self._seen:
            return
        self._seen.add(key)
        self.errors.append(PPNSyntaxError(message, where, self.line_text(where.line), severity))

    def line_text(self, line: int) -> str:
        """The text of the file's line ``line`` when the record holds it, else ""."""
        index = line - self.chunk.first_line
        lines = self.chunk.lines
        return lines[index] if 0 <= index < len(lines) else ""

    def comment(self, tok: LarkToken) -> Comment:
        s = tok.value
        if tok.type == "BRACE_COMMENT":
            return Comment(s.rstrip(_WHITE)[1:-1], CommentKind.BRACE, self.loc(tok))
        if tok.type == "LINE_COMMENT":
            return Comment(s[1:], CommentKind.LINE, self.loc(tok))
        return Comment(_utf8_charset(s[1:]), CommentKind.ESCAPE, self.loc(tok))

    def build(self, items: list[object]) -> Record:
        """The record of a chunk's items. The tag pairs come first: the first Scoring among
        them (the one the record keeps) chooses the words its sections and values are
        read by; then the sections, in their places."""
        leading: list[Comment] = []
        tags: list[Tag] = []
        later: list[tuple[int, str, list[LarkToken]]] = []  # sections and where they go
        damaged: list[list[object]] = []
        for item in items:
            if isinstance(item, tuple):
                kind, toks = item
                if kind == "plain":
                    tags.extend(self.block(kind, toks))
                else:
                    later.append((len(tags), kind, toks))
            elif isinstance(item, _Damage):
                self.damaged = True
                tags.append(item.tag)
                damaged.append(item.read)
            else:
                leading.append(self.comment(item))  # type: ignore[arg-type]
        by_name = {t.name: t for t in reversed(tags)}  # the first tag of each name
        scoring = by_name.get("Scoring")
        self.scoring = _scoring(None if scoring is None else scoring.value, self.state)
        self.words = _words_of(lexicon_for(self.scoring))
        for read in damaged:
            self.damage_errors(read)
        if later:
            placed: list[Tag] = []
            done = 0
            for at, kind, toks in later:
                placed += tags[done:at]
                tag = self.section_tag(kind, toks)
                placed.append(tag)
                by_name.setdefault(tag.name, tag)
                done = at
            tags = placed + tags[done:]
        if len(by_name) < len(tags):  # a name repeats
            tags = self.repeated(tags)
            by_name = {t.name: t for t in reversed(tags)}
        tags = self.normalise(tags, by_name)
        tags = self.inherit(tags)
        header = self.state.header
        defaults: tuple[tuple[str, str], ...] = ()
        if header:
            names = {t.name for t in tags}
            defaults = tuple(sorted((n, v) for n, v in header.items() if n not in names))
        first = self.first or Location(self.name, self.chunk.first_line, 1)
        errors = tuple(sorted(self.errors, key=_place)) if self.errors else ()
        return Record(tuple(tags), tuple(leading), defaults, first, errors)

    def section_tag(self, kind: str, toks: list[LarkToken]) -> Tag:
        """An Auction or Play tag; when its section holds what the model cannot keep (an
        annotation with nothing to follow, a misplaced irregularity …), the section is kept
        as its text (:func:`_damaged`) with the error, instead of costing the record."""
        lossy, self.lossy = self.lossy, False
        [tag] = self.block(kind, toks)
        if self.lossy:
            first = toks[0].line or 1
            for start, end in _segments(self.chunk.lines):
                if start == first - 1:
                    damaged = _damaged(self.chunk.lines[start:end], self.name,
                                       self.chunk.first_line + start)
                    if damaged is not None:
                        tag, self.lossy, self.damaged = damaged, False, True
                    break
        self.lossy = lossy or self.lossy
        return tag

    def damage_errors(self, read: list[object]) -> None:
        """The errors of what could be read around a syntax error, so the user sees them
        all in one round; the tags are dropped (the part is kept as its text, so nothing
        of it is lost)."""
        lossy = self.lossy
        for item in read:
            if isinstance(item, tuple):
                self.block(*item)
        self.lossy = lossy

    def block(self, kind: str, toks: list[LarkToken]) -> list[Tag]:
        """The tag pair(s) of one block; section data belongs to the last of them."""
        first = toks[0]
        rest = toks[1:]
        file = self.name
        first_line = self.chunk.first_line - 1
        if first.type == "TAGS":
            line, col0 = first_line + (first.line or 1), first.column or 1
            tags = Tag.run(_TAG_RUN.findall(first.value), file, line, col0)
            if rest:  # section data: the last tag pair's
                last = tags[-1]
                where, vwhere = last.location, last.value_location
                assert where is not None and vwhere is not None
                tags[-1] = self.plain(last.name, last.value, rest, where.line, where.column,
                                      vwhere.line, vwhere.column)
            return tags
        line, column = first_line + (first.line or 1), first.column or 1
        if first.type in ("AUCTION_TAG", "PLAY_TAG"):
            m = _WHOLE_TAG.match(first.value)
            assert m is not None  # the grammar's pattern guarantees it
            name, raw = m.group(1), m.group(2)
            vline, vcol = line, column + m.start(2)
        else:
            if kind == "plain":
                name, string, rest = toks[1].value, toks[2], toks[3:]
            else:
                name = "Auction" if kind == "auction" else "Play"
                string, rest = toks[1], toks[2:]
            raw = string.value[1:-1]
            vline, vcol = first_line + (string.line or 1), (string.column or 1) + 1
        value = unescape(raw)
        if kind == "plain":
            return [self.plain(name, value, rest, line, column, vline, vcol)]
        comments: list[Comment] = []
        section = self.section(kind, rest, comments) if self.sections else None
        return [Tag.read(name, value, tuple(comments), section, file, line, column, vline, vcol)]

    def plain(self, name: str, value: str, rest: list[LarkToken], line: int, column: int,
              vline: int, vcol: int) -> Tag:
        comments: list[Comment] = []
        rows: list[list[str]] = []
        if not self.sections:
            rest = []
        row_at: list[LarkToken] = []
        last_line = -1
        for tok in rest:
            if tok.type in ("SECTION_TOKEN", "STRING"):
                if tok.line != last_line:
                    rows.append([])
                    row_at.append(tok)
                    last_line = tok.line or 0
                rows[-1].append(tok.value)
            else:
                if rows and tok.type != "ESCAPE_LINE" and not self.ends_file(tok):
                    self.error(msg("a comment inside {tag}'s section data: only the tag pair "
                                   "may be followed by commentary (PBN §5.1)", tag=name),
                               self.loc(tok),
                               kind="section comment")
                comments.append(self.comment(tok))
        if rows and name.endswith("Table"):
            self.table_cells(name, value, rows, row_at)
        section = RawSection(tuple(tuple(r) for r in rows)) if rows else None
        return Tag.read(name, value, tuple(comments), section, self.name, line, column, vline,
                        vcol)

    def odd_characters(self, items: list[object]) -> None:
        """Warn at each control character and U+FFFD (PBN §2.2 allows neither), and write
        the controls in the tokens as :func:`escape_controls` does: the model, and so every
        export, holds none. Only strings and comments can hold one (anywhere else the
        grammar stops at it: a syntax error saying so)."""
        for line, column in lost_characters(self.chunk):
            self.error(msg("'\ufffd' stands for a character that could not be read: a byte "
                           "that is not UTF-8 text here, or one lost before (PBN §2.2)"),
                       Location(self.name, line, column), severity="warning",
                       kind=f"lost {column}")
        per_line: dict[int, int] = {}
        for item in items:
            if isinstance(item, _Damage):  # its text holds none (_damaged): only what was read
                continue
            toks: list[LarkToken] = item[1] if isinstance(item, tuple) else [item]  # type: ignore[list-item]
            for tok in toks:
                value = tok.value
                if CONTROL.search(value) is None:
                    continue
                line0 = self.chunk.first_line + (tok.line or 1) - 1
                for m, line, column in places(CONTROL, value, line0, tok.column or 1):
                    count = per_line[line] = per_line.get(line, 0) + 1
                    if count <= _CONTROLS_SHOWN:
                        self.error(msg("control character {code} is not PBN text (PBN "
                                       "§2.2): read as '{shown}'", code=f"0x{ord(m.group()):02X}",
                                       shown=escape_controls(m.group())),
                                   Location(self.name, line, column), severity="warning",
                                   kind=f"control {column}")
                tok.value = escape_controls(value)
        for line, count in per_line.items():
            if count > _CONTROLS_SHOWN:
                self.error(msg_n("{n} more control character on this line, read the same way "
                                 "(PBN §2.2)", "{n} more control characters on this line, read "
                                 "the same way (PBN §2.2)", count - _CONTROLS_SHOWN),
                           Location(self.name, line, 1), severity="warning", kind="controls")

    def ends_file(self, tok: LarkToken) -> bool:
        """Whether ``tok`` is one of the comments after the file's last record (the splitter
        joined them to it): they follow the record, not its section data."""
        tail = self.chunk.tail
        return bool(tail) and (tok.line or 1) > len(self.chunk.lines) - tail

    def table_cells(self, name: str, header: str, rows: list[list[str]],
                    row_at: list[LarkToken]) -> None:
        """Every row of a table has one element per column (PBN §5.2)."""
        columns = len(table_columns(header)) or 1
        total = sum(len(r) for r in rows)
        if total % columns == 0:
            return
        short = next((i for i, r in enumerate(rows) if len(r) % columns), len(rows) - 1)
        self.error(msg_n("{tag} has {columns} columns, but this row has {n} element: a cell is "
                         "missing (use '?' for unknown, '-' for not relevant, PBN §5.2)",
                         "{tag} has {columns} columns, but this row has {n} elements: a cell is "
                         "missing (use '?' for unknown, '-' for not relevant, PBN §5.2)",
                         len(rows[short]), tag=name, columns=columns), self.loc(row_at[short]),
                   kind="table cells")

    def section(self, kind: str, rest: list[LarkToken], tag_comments: list[Comment]) -> Section:
        """Calls or cards with the annotations and comments that follow them.

        Lean: a run of words costs one ``str.split``, a run already canonical (an
        export's) is kept as split, other words' kinds and canonical texts come from
        per-word caches, and only where a run starts is kept; word positions are
        worked out here only when a check needs one ('+', a long play row), else on
        demand by the Section. An annotation goes to the last token as it comes (NAGs
        sorted once at the end, so a pile of them costs linear time).
        """
        play = kind == "play"
        words_seen = self.words
        own = words_seen.lexicon.own
        limit = min(own.trick + 1, 5)  # cards a play row may not reach
        same, same_kind = words_seen.canonical[play]
        # The kind and canonical text of each token.
        kinds: list[TokenKind] = []
        texts: list[str] = []
        # Annotations by token: [irregularity, note, NAGs, comments], lists while building.
        marks: dict[int, list[Any]] = {}
        runs: list[Run] = []
        pending_irregularity: LarkToken | None = None
        per_line: dict[int, int] = {}
        first_line = self.chunk.first_line - 1
        suffixes = 0  # of the last token
        continued: Location | None = None  # where a '+' was seen
        for tok in rest:
            t = tok.type
            if t in ("CALLS", "CARDS"):
                suffixes = 0
                text = tok.value
                words = text.split()
                if not words:  # pragma: no cover - the grammar's runs hold a word
                    continue
                base = len(texts)
                line0, col0 = first_line + (tok.line or 1), tok.column or 1
                runs.append((base, line0, col0, text))
                if same.issuperset(words):  # already canonical calls or cards
                    kinds += [same_kind] * len(words)
                    texts += words
                else:
                    got_kinds, got_texts = zip(*map(words_seen.__getitem__, words),
                                               strict=True)
                    kinds += got_kinds
                    texts += got_texts
                if pending_irregularity is not None:
                    marks[base] = [pending_irregularity.value[1], None, [], []]
                    pending_irregularity = None
                slow = continued is not None or (play and _row_too_long(text, words, line0,
                                                                        per_line, limit))
                if slow:
                    for ln, col in word_places(text, line0, col0):
                        where = Location(self.name, ln, col)
                        if continued is not None:
                            self.after_continue(kind, continued, where)
                        if play:
                            per_line[ln] = count = per_line.get(ln, 0) + 1
                            if count == 5:
                                self.error(msg("Play row has 5 cards: each line is one trick, "
                                               "four cards in seat order (PBN §3.6)"), where)
                            elif count == limit and own.long_row is not None:
                                self.error(own.long_row, where)
                continue
            if t in ("BRACE_COMMENT", "LINE_COMMENT", "ESCAPE_LINE"):
                if texts:
                    _mark(marks, len(texts) - 1)[3].append(self.comment(tok))
                else:
                    tag_comments.append(self.comment(tok))
                continue
            if t in ("NOTE_REF", "NAG", "SUFFIX"):
                if not texts or kinds[-1] is TokenKind.END:
                    self.error(msg("annotation {text!r} must follow a {what}",
                                   text=_short(tok.value), what=_what(kind)),
                               self.loc(tok), kind="annotation", lossy=True)
                    continue
                if t == "NOTE_REF":
                    digits = tok.value[1:-1]
                    last_mark = marks.get(len(texts) - 1)
                    if (last_mark is not None and last_mark[1] is not None) or len(digits) > 9:
                        self.error(msg("a {what} takes at most one note reference =n=, n of at "
                                       "most 9 digits (PBN §3.5.4)", what=_what(kind)),
                                   self.loc(tok), kind="note", lossy=True)
                        continue
                    _mark(marks, len(texts) - 1)[1] = int(digits)
                    continue
                if t == "NAG":
                    digits = tok.value[1:]
                    if len(digits) > 9:
                        self.error(_nag_range(_short(tok.value)), self.loc(tok), kind="nag",
                                   lossy=True)
                        continue
                    n = int(digits)
                    if n > 255:
                        self.error(_nag_range(tok.value), self.loc(tok), severity="warning",
                                   kind="nag")
                else:
                    suffixes += 1
                    if suffixes == 2:
                        self.error(msg("at most one suffix (! ? !! ?? !? ?!) per {what} (PBN "
                                       "§3.7)", what=_what(kind)), self.loc(tok),
                                   severity="warning", kind="suffix")
                    n = _CALL_SUFFIX_NAG[tok.value] + (6 if kind == "play" else 0)
                _mark(marks, len(texts) - 1)[2].append(n)
                continue
            suffixes = 0
            line0, col0 = first_line + (tok.line or 1), tok.column or 1
            if t == "IRREGULARITY":
                if tok.value == "^S" and kind == "auction":
                    runs.append((len(texts), line0, col0, tok.value))
                    kinds.append(TokenKind.SKIP)
                    texts.append("^S")
                    continue
                if tok.value == "^S" or (kind == "auction") != (tok.value == "^I"):
                    self.error(msg("irregularity {text!r} belongs in the auction section (PBN "
                                   "§3.9)", text=tok.value) if tok.value in ("^I", "^S") else
                               msg("irregularity {text!r} belongs in the play section (PBN §3.9)",
                                   text=tok.value),
                               self.loc(tok), kind="irregularity", lossy=True)
                    continue
                pending_irregularity = tok
                continue
            # END or CONTINUE
            irr = None
            if pending_irregularity is not None:
                if t == "END":
                    self.error(_precede(pending_irregularity.value, _what(kind)),
                               self.loc(pending_irregularity), kind="irregularity", lossy=True)
                irr = pending_irregularity.value[1]
                pending_irregularity = None
            if continued is not None:
                where_loc = Location(self.name, line0, col0)
                if t == "END" and kind == "auction":
                    self.error(msg("'*' may not end an auction that '+' continues (PBN §3.5)"),
                               where_loc, kind="continue")
                elif t == "CONTINUE":
                    self.error(msg("only one '+' per auction section: it marks the next call to "
                                   "be made") if kind == "auction" else
                               msg("only one '+' per play section: it marks the next card to be "
                                   "made"), where_loc, kind="continue")
                elif t != "END":  # pragma: no cover - END or CONTINUE only
                    self.after_continue(kind, continued, where_loc)
            if t == "CONTINUE":
                continued = continued or Location(self.name, line0, col0)
                if play:
                    per_line[line0] = per_line.get(line0, 0) + 1
            if irr is not None:
                marks[len(texts)] = [irr, None, [], []]
            runs.append((len(texts), line0, col0, tok.value))
            kinds.append(TokenKind.END if t == "END" else TokenKind.CONTINUE)
            texts.append(tok.value)
        if pending_irregularity is not None:
            self.error(_precede(pending_irregularity.value, _what(kind)),
                       self.loc(pending_irregularity), kind="irregularity", lossy=True)
        final: dict[int, Marks] = {i: (m[0], m[1], tuple(sorted(m[2])), tuple(m[3]))
                                   for i, m in marks.items()} if marks else {}
        return Section.lean(tuple(kinds), tuple(texts), final, tuple(runs), self.name)

    def after_continue(self, kind: str, continued: Location, where: Location) -> None:
        """A call or card after the one '+' marks as the next to be made (PBN §3.5, §3.6)."""
        if kind == "auction" or where.line > continued.line:
            self.error(msg("'+' marks the next call to be made, so nothing but comments "
                           "may follow it (PBN §3.5)") if kind == "auction" else
                       msg("'+' marks the next card to be made, so nothing but the rest of "
                           "its trick may follow it (PBN §3.6)"), where, kind="continue")

    # -- values ---------------------------------------------------------

    def normalise(self, tags: list[Tag], by_name: dict[str, Tag] | None = None) -> list[Tag]:
        """Canonical values (FORMAT.md export rules) and PBN value checks.

        Lenient import: a value PBN does not allow is kept (normalised only
        when its meaning is certain) with a located warning; an error only
        where the record cannot mean anything (a Dealer that is no seat, a
        Deal that is no deal). Bridge records keep Contract and Result as
        written, so an export still reads in bridge programs. ``by_name``: the
        first tag of each name, when the caller has it. The list is changed in place.
        Values met before without a message come from small caches.
        """
        if by_name is None:
            by_name = {t.name: t for t in reversed(tags)}
        dealer = seat_from_word(by_name["Dealer"].value) if "Dealer" in by_name else None
        declarer = seat_from_word(by_name["Declarer"].value) if "Declarer" in by_name else None
        sides: bool | None = None  # Result only
        nowhere = _nowhere(self.name)
        own = self.words.lexicon.own
        touched = self.words.touched
        damaged = self.damaged
        for i, t in enumerate(tags):
            name = t.name
            if name not in touched or (damaged and isinstance(t.section, DamagedSection)
                                       and not t.section.pair):
                continue  # a free text tag, or a broken tag pair: its value is unknown
            value = t.value
            v = value.strip()
            if name in _SEAT_TAGS and v in _SEATS:
                value = v  # nearly always: already canonical
            elif name in ("Dealer", "Declarer") and (seat := seat_from_word(v)) is not None:
                value = seat.value
            elif name == "Dealer" and not is_unspecified(v) and v != "#":
                self.error(_not_a_seat(value, by_name), t.value_location or nowhere)
            elif name in ("Auction", "Play"):
                if (seat := seat_from_word(v)) is None:
                    self.error(msg("{tag} {value!r} must name the seat of the first call: N, "
                                   "E, S or W", tag=tag_word(name), value=_short(value))
                               if name == "Auction" else
                               msg("{tag} {value!r} must name the seat of the first card: N, "
                                   "E, S or W", tag=tag_word(name), value=_short(value)),
                               t.value_location or nowhere)
                else:
                    value = seat.value
            elif name == "Deal" and not is_unspecified(v) and v != "#":
                try:
                    value = canonical_deal(v, dealer)
                except CardError as e:
                    vloc = t.value_location or nowhere
                    self.error(msg("bad Deal: {reason}", reason=e.message),
                               Location(vloc.file, vloc.line, vloc.column + e.column))
            elif name in own.value_tags and own.own_values is not None:
                value = own.own_values(name, value)
            elif name == "Contract" and v:
                # A bridge contract stays as written; the validator explains.
                value = own.contracts.get(v.casefold(), value)
            elif name == "Result" and own.sides_result and (
                    sides if sides is not None else (sides := _sides_like(by_name, own))):
                key = (value, declarer)
                result = _RESULTS.get(key)
                if result is None:
                    result = _remember(_RESULTS, key, _normalise_result(value, declarer))
                value = result
            elif name == "Date":
                date = _DATES.get(value)
                if date is not None:
                    value = date
                else:
                    date, warning = normalise_date(value)
                    if warning:
                        self.error(warning, t.value_location or nowhere, severity="warning")
                    else:
                        _remember(_DATES, value, date)
                    value = date
            elif name in CHECKED_TAGS and (name, value) not in _QUIET:
                warning = check_value(name, value)
                if warning:
                    self.error(warning, t.value_location or nowhere, severity="warning")
                else:
                    _remember(_QUIET, (name, value), True)
            if value != t.value:
                tags[i] = t.with_value(value, t.inherit)
        return tags

    def repeated(self, tags: list[Tag]) -> list[Tag]:
        """The tags without the repeats PBN §3.4 ignores ("a tag pair that already occurred").

        The first of a name stands, whatever its value ('#' included: inheritance is
        resolved on what stands, so an ignored ``##`` sets no default); the repeat costs
        a warning and gives its comments to the tag that stands. Only Note may repeat.
        A repeat whose section data differs from the first's cannot be ignored without
        losing the data: an error, and the record is kept as it was written.
        """
        first: dict[str, int] = {}
        out: list[Tag] = []
        for t in tags:
            name = t.name
            at = first.get(name)
            if at is None or name == "Note":
                first.setdefault(name, len(out))
                out.append(t)
                continue
            earlier = out[at]
            where = t.location or _nowhere(self.name)
            line = str(earlier.line) if earlier.line is not None else "?"
            if t.section is not None and t.section != earlier.section:
                self.error(msg("tag [{tag}] appears again on line {second} with other section "
                               "data than on line {first}: PBN §3.4 ignores a tag pair that "
                               "already occurred, which would lose this data; keep one",
                               tag=name, first=line, second=where.line), where,
                           kind="repeated " + name, lossy=True)
                out.append(t)
                continue
            value = _short(t.written_value)
            self.error(msg("tag [{tag}] already occurred on line {first}: this repeat "
                           "({value!r}) is ignored, the first value stands (PBN §3.4); if a "
                           "new record starts here, it needs an empty line before it (PBN §3)",
                           tag=name, first=line, value=value) if name in RECORD_OPENERS else
                       msg("tag [{tag}] already occurred on line {first}: this repeat "
                           "({value!r}) is ignored, the first value stands (PBN §3.4)",
                           tag=name, first=line, value=value),
                       where, severity="warning", kind="repeated " + name)
            if t.comments:
                out[at] = earlier.with_comments(earlier.comments + t.comments)
        return out

    def inherit(self, tags: list[Tag]) -> list[Tag]:
        """Resolve ``#`` and ``##`` (PBN §4.8) against the earlier records of the file."""
        state = self.state
        if state.header or self.hashes:  # else nothing to resolve (most records)
            tags = [self.resolved(t) for t in tags]
        state.count += 1
        values = {t.name: t.value for t in tags}
        state.last.update(values)
        state.set_at.update(dict.fromkeys(values, state.count))
        return tags

    def resolved(self, t: Tag) -> Tag:
        """One tag with its ``#`` or ``##`` value resolved, the error said where it may not."""
        state = self.state
        marker = t.value
        value = resolve_inheritance(t.name, marker, state.last, state.header)  # sets ## too
        if marker[:1] != "#":
            return t
        where = t.value_location or Location(self.name, 0, 0)
        if t.name in NO_INHERIT:
            self.error(msg("tag {tag} may not inherit its value with '#' (PBN §4.8)",
                           tag=t.name), where)
            return t
        if (marker == "#" and state.lost is not None
                and state.set_at.get(t.name, 0) < state.lost_at):
            self.error(msg("{tag} '#' inherits {value!r} from an earlier record, "
                           "but the record at line {line} could not be read and "
                           "may have set {tag} (PBN §4.8)", tag=t.name,
                           value=_short(value), line=state.lost.line), where)
        return t.with_value(value, marker)


# Values normalised before without a message: Result by (value, declarer), Date by
# value, (tag, value) of the checked tags that passed.
_RESULTS: dict[tuple[str, Seat | None], str] = {}
_DATES: dict[str, str] = {}
_QUIET: dict[tuple[str, str], bool] = {}


def _remember(cache: dict[Any, Any], key: object, value: Any) -> Any:
    """Store ``value`` under ``key`` (a bounded cache: cleared when full) and return it."""
    if len(cache) > 4096:
        cache.clear()
    cache[key] = value
    return value


@functools.lru_cache(maxsize=64)
def _nowhere(file: str) -> Location:
    """The place of a value built in code (no location): line 0."""
    return Location(file, 0, 0)


def _place(error: PPNSyntaxError) -> tuple[int, int]:
    return error.location.line, error.location.column


def _sides_like(by_name: dict[str, Tag], own: Vocabulary) -> bool:
    """Whether Result may be rewritten as ``NS n EW m``: the record's contract is a word of
    its family (one that reads Result so), or it has none and no other game's Scoring.

    The format knows no game families; their words are enough to tell.
    """
    contract = by_name.get("Contract")
    if contract is not None and not is_unspecified(contract.value):
        return contract.value.strip().casefold() in own.contracts
    scoring = by_name.get("Scoring")
    return scoring is None or own.accepts(scoring.value)


_SEAT_TAGS = frozenset({"Dealer", "Declarer", "Auction", "Play"})
# The tags normalise may change or warn about; any other value is kept as it is.
_NORMALISED = _SEAT_TAGS | {"Deal", "Contract", "Result", "Date"} | CHECKED_TAGS
_SEATS = frozenset({"N", "E", "S", "W"})
# One tag pair of a TAGS token (the grammar's pattern) as the pieces Tag.run reads: '['
# to the value's quote (the name inside), the raw value, '"' to the next pair.
_TAG_RUN = re.compile(r'(\[[ \t]*([A-Z][A-Za-z0-9_]*)[ \t]+")([^"\\\n]*(?:\\.[^"\\\n]*)*)'
                      r'("[ \t]*\][ \t\f\v\r\n]*)')
_FOREIGN = re.compile(r"^(?:[1-7](?:NT|[CDHSN])|XX|X|AP)$")


def _classify(text: str, lexicon: Lexicon) -> tuple[TokenKind, str]:
    """Kind and canonical text of one word of a call or card run (:class:`_Words` keeps them).

    A call of another family is kept as a foreign call in its canonical word.
    """
    if text in ("-", "--"):
        return TokenKind.UNKNOWN, "-"
    key = text.casefold()
    word = lexicon.own.calls.get(key)
    if word is not None:
        return TokenKind.CALL, word
    word = lexicon.foreign.get(key)
    if word is not None:
        return TokenKind.FOREIGN, word
    up = text.upper()
    if _FOREIGN.match(up):
        return TokenKind.FOREIGN, up
    return TokenKind.CARD, str(Card.parse(text))


class _Words(dict[str, tuple[TokenKind, str]]):
    """A family's reading of the words seen (few distinct ones: calls, cards; bounded): kind
    and canonical text of each, the runs kept as written, and the tags it normalises."""

    def __init__(self, lexicon: Lexicon) -> None:
        super().__init__()
        self.lexicon = lexicon
        self.canonical = {play: _canonical_words(lexicon, play) for play in (False, True)}
        self.touched = _NORMALISED | lexicon.own.value_tags

    def __missing__(self, word: str) -> tuple[TokenKind, str]:
        if len(self) > 4096:
            self.clear()
        found = self[word] = _classify(word, self.lexicon)
        return found


_BY_LEXICON: dict[Lexicon, _Words] = {}


def _words_of(lexicon: Lexicon) -> _Words:
    words = _BY_LEXICON.get(lexicon)
    if words is None:
        words = _BY_LEXICON[lexicon] = _Words(lexicon)
    return words


_spaces = methodcaller("count", " ")


def _row_too_long(text: str, words: list[str], line: int, per_line: dict[int, int],
                  limit: int) -> bool:
    """Whether a run of cards from ``line`` brings a play row to ``limit`` cards (then the
    caller counts it word by word, to place the error); else the rows' counts are kept.

    Only the run's first row may go on a row an earlier run began, and only its last
    one may be gone on by the next run: the rows between are whole lines of their own.
    """
    count, end, last = len(words), 0, line
    if "\n" in text:
        rows = text.split("\n")
        if (max(map(_spaces, rows)) + 1 < limit and "\t" not in text and "\r" not in text
                and "\f" not in text and "\v" not in text):
            # Blanks are spaces: no row has more words than spaces + 1.
            count, end = len(rows[0].split()), len(rows[-1].split())
        else:
            counts = [len(row.split()) for row in rows]
            if max(counts) >= limit:
                return True
            count, end = counts[0], counts[-1]
        last = line + len(rows) - 1
    count += per_line.get(line, 0)
    if count >= limit:
        return True
    per_line[line] = count
    if end:  # a row the next run may go on with
        per_line[last] = end
    return False


def _canonical_words(lexicon: Lexicon, play: bool) -> tuple[frozenset[str], TokenKind]:
    """The words a run of cards (or calls) keeps as written, all of one kind: e.g. "SA"
    is a card, "Hjärter" a Priffe record's call."""
    kind = TokenKind.CARD if play else TokenKind.CALL
    if play:
        candidates: Iterable[str] = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    else:
        candidates = lexicon.canonical
    return frozenset(w for w in candidates if _classify(w, lexicon) == (kind, w)), kind


_CHARSET = re.compile(r"(charset\s*=\s*)([\w.:-]+)", re.I)


def _utf8_charset(text: str) -> str:
    """A ``% Content-type: …; charset=ISO-8859-1`` line says UTF-8 once read.

    The reader decodes the file and every writer writes UTF-8, so the old
    claim would make other programs misread an export.
    """
    if "charset" not in text.lower():
        return text
    return _CHARSET.sub(lambda m: m.group(1) + "UTF-8", text)


def _short(text: str) -> str:
    """A token as quoted in a message: long garbage is cut, not printed whole."""
    return text if len(text) <= 20 else text[:19] + "…"


def _not_a_seat(value: str, by_name: dict[str, Tag]) -> Message:
    """Dealer's error, with the seat a player's name or a near word points to."""
    players = {seat: by_name[tag].value for seat, tag in PLAYER_TAGS.items() if tag in by_name}
    hint = seat_hint(value, players)
    if hint is None:
        return msg("Dealer {value!r} is not a seat: N, E, S or W", value=_short(value))
    return msg("Dealer {value!r} is not a seat: N, E, S or W; {hint}", value=_short(value),
               hint=hint)


def _normalise_result(value: str, declarer: Seat | None) -> str:
    """``NS n EW m`` where the text allows it (FORMAT.md); anything else is kept as written."""
    m = _RESULT_BOTH.match(value)
    if m and m.group(1).upper() != m.group(3).upper():
        counts = {m.group(1).upper(): int(m.group(2)), m.group(3).upper(): int(m.group(4))}
        return f"NS {counts['NS']} EW {counts['EW']}"
    m = _RESULT_DASHED.match(value)  # "8–5", as the score sheet prints it: NS first
    if m and int(m.group(1)) + int(m.group(2)) == 13:
        return f"NS {int(m.group(1))} EW {int(m.group(2))}"
    m = _RESULT_ONE.match(value)
    side, n = (m.group(1).upper(), int(m.group(2))) if m else (None, None)
    bare = _TRICKS.match(value)
    if side is None and bare and declarer is not None:
        side, n = declarer.side.value, int(bare.group(1))
    if side is None or n is None or n > 13:
        return value
    other = 13 - n
    return f"NS {n} EW {other}" if side == "NS" else f"NS {other} EW {n}"


# ---------------------------------------------------------------- the record's game

def _scoring(value: str | None, state: _FileState) -> str | None:
    """The record's Scoring, own or inherited with ``#``/``##``, from the ``value`` of its
    first Scoring tag (the one it keeps: a repeat is ignored); without one, the file
    header's."""
    if value is None:
        return state.header.get("Scoring")
    if value.startswith("##"):
        return value[2:]
    if value.startswith("#"):
        return state.last.get("Scoring", "")
    return value


def _unknown_call(text: str, scoring: str | None, own: Vocabulary
                  ) -> Callable[[str], Message]:
    """Who words an unknown call, listing the calls of the record's game: the family its
    Scoring names (``own``); when it names none, the first family that claims the
    record's text (rules/family.family_of's rule, on the text), else ``own``. Asked only
    when an unknown call is worded."""
    if not is_unspecified(scoring):
        return own.unknown_call

    def word(call: str) -> Message:
        return next((v for v in vocabularies() if v.claims_text is not None
                     and v.claims_text(text)), own).unknown_call(call)
    return word


# ---------------------------------------------------------------- API


def _parse_record(chunk: Chunk, name: str, state: _FileState, sections: bool = True
                  ) -> Record | BadRecord:
    text = chunk.text
    builder = _Builder(name, chunk, state, sections)
    builder.hashes = may_inherit(text)
    location = builder.first = Location(name, chunk.first_line, 1)
    syntax: list[PPNSyntaxError] = []
    kept = False  # every syntax error is inside a section kept as its text
    items = parse_chunk(text)
    explained: _Explained | None = None
    if items is None:
        items, explained, kept = _recover(chunk, name)
    if chunk.odd and has_odd_characters(text):  # control characters, bytes that were no text
        builder.odd_characters(items)
        text = escape_controls(text)  # an unreadable record is written as its text
    try:
        record = builder.build(items)
    except (ValueError, RecursionError, OverflowError) as exc:  # pragma: no cover - a bug
        # A reader bug must cost this record, never the rest of the file.
        err = PPNSyntaxError(msg("this record could not be read ({error}); please report it",
                                 error=type(exc).__name__ + ": " + _short(str(exc))), location,
                             chunk.lines[0] if chunk.lines else "")
        state.lost, state.lost_at = location, state.count + 1
        return BadRecord((err,), location, text)
    if explained is not None:  # worded once the record's game is known
        syntax = explained(_unknown_call(chunk.text, builder.scoring, builder.words.lexicon.own))
    if not syntax and not builder.lossy:
        return record
    if kept and not builder.lossy:
        # A bad token cost its section: the record keeps the rest, with the errors.
        return dataclasses.replace(record, errors=tuple(sorted([*syntax, *record.errors],
                                                               key=_place)))
    state.lost, state.lost_at = location, state.count
    errors = sorted([*syntax, *record.errors], key=lambda e: (e.location.line,
                                                               e.location.column))
    return BadRecord(tuple(errors), location, text, record)


# What hides a '[' from the grammar, as ppn.lark lexes it: a string, a ';' or '%' comment,
# a brace comment (one balanced inner pair, else up to the first '}'; unclosed: to the end).
_OPAQUE = re.compile(r'"(?:\\.|[^"\\\n])*"?|;[^\n]*|^%[^\n]*|'
                     r"\{(?:[^{}]|\{[^{}]*\})*\}|\{[^}]*\}?", re.M)


def _open_brace(text: str) -> bool:
    """Whether a '{' of ``text`` has no '}' after it, as the grammar reads it (_OPAQUE): the
    writer then puts the text last, where its comment cannot take in what follows."""
    return any(m.group().startswith("{") and not m.group().endswith("}")
               for m in _OPAQUE.finditer(text))


def _segments(lines: list[str]) -> Iterator[tuple[int, int]]:
    """Line ranges that each start with a tag pair outside brace comments, where the
    grammar ends a comment: '{ {}' is closed there ('{' and ' {'), though the splitter's
    brace_state, which cannot look ahead, keeps it open (a damaged tag written after it
    read back as part of the tag before, and cost the record)."""
    text = "\n".join(lines)
    hidden: set[int] = set()  # lines that start inside a string or comment
    for match in _OPAQUE.finditer(text):
        if "\n" in match.group():
            first = text.count("\n", 0, match.start()) + 1
            hidden.update(range(first, first + match.group().count("\n")))
    start = 0
    for i, line in enumerate(lines):
        if i and i not in hidden and line.lstrip(_BLANKS).startswith("["):
            yield start, i
            start = i
    yield start, len(lines)


# A record's syntax errors, worded given who words an unknown call (its game's words,
# known once its tags are read).
_Explained = Callable[[Callable[[str], Message]], list[PPNSyntaxError]]


def _recover(chunk: Chunk, name: str) -> tuple[list[object], _Explained, bool]:
    """Every syntax error of a record, what could be read around them, and whether each
    error could be kept inside one tag's section.

    Each tag pair with its section data is parsed on its own, and inside
    section data an error skips to the next line, so the user sees all the
    errors of a hand-typed record in one round. A part with an error becomes
    one tag whose section is its text as written (:func:`_damaged`); where no
    such tag can hold it, the record stays unread (the last value is False).
    """
    items: list[object] = []
    errors: list[PPNSyntaxError | tuple[Any, int, list[str]]] = []  # Lark's error, where
    kept = True
    segments = list(_segments(chunk.lines))
    for start, end in segments:
        lines = chunk.lines[start:end]
        got, found = parse_segment("\n".join(lines) + "\n")
        mended = mend(lines[0], "\n".join(lines[1:])) if found else None
        if mended is not None:  # a tag pair broken in a plain way: read as it means
            errors.append(PPNSyntaxError(mended.message, Location(
                name, chunk.first_line + start, mended.column), lines[0], mended.severity))
            lines = [mended.line, *lines[1:]]
            got, found = parse_segment("\n".join(lines) + "\n")
        if start:
            _shift(got, start)
        damaged = _damaged(lines, name, chunk.first_line + start) if found else None
        kept = kept and (damaged is not None or not found)
        if damaged is not None:
            items.append(_Damage(damaged, got))
        else:
            items.extend(got)
        for exc in found:
            first = chunk.first_line + start
            errors.append(unclosed(exc, name, first, lines)
                          if ends_early(exc) and end < len(chunk.lines) else
                          (exc, first, lines))

    def explained(unknown_call: Callable[[str], Message]) -> list[PPNSyntaxError]:
        out: list[PPNSyntaxError] = []
        for error in errors:
            if not isinstance(error, PPNSyntaxError):
                exc, first, lines = error
                error = explain(exc, name, first, lines, unknown_call)
            out.append(error)
        return out
    return items, explained, kept


@dataclass(frozen=True, slots=True)
class _Damage:
    """A part with a syntax error: the tag that keeps its text, and what could be read."""

    tag: Tag
    read: list[object]


# A tag pair whole at the start of a line, and the name of one that is not.
_TAG_OPEN = r"[ \t]*\[[ \t]*([A-Z][A-Za-z0-9_]*)"  # as ppn.lark's AUCTION_TAG, PLAY_TAG, TAGS
_TAG_START = re.compile(_TAG_OPEN)
_WHOLE_TAG = re.compile(_TAG_OPEN + r'[ \t]+"((?:\\.|[^"\\\n])*)"[ \t]*\]')
# Tags the engine reads a value of (identification, scores, notes): when such a tag pair
# is itself broken, its value is unknown and the record cannot be placed or scored.
_VALUE_NEEDED = frozenset({*HEAD_TAGS, *SCORE_TAGS, "Note"})


def _damaged(lines: list[str], file: str, line: int) -> Tag | None:
    """The tag that keeps a part with a syntax error (a tag pair and its section data,
    ``lines`` from ``line``) as its text, so the error costs that section only.

    When the tag pair is whole, the tag keeps its name and value and only its section
    data is unread; when the tag pair itself is broken its value is unknown, which only
    a tag whose value the engine does not need (Auction, Play, a table, a free tag) may
    be. None when the part holds another tag pair, starts with none, or is broken where
    a value is needed: the record then stays unread.
    """
    first = lines[0]
    whole = _WHOLE_TAG.match(first)
    if whole is not None:
        tag_name, value, end = whole.group(1), unescape(whole.group(2)), whole.end()
    else:
        start = _TAG_START.match(first)
        if start is None or start.group(1) in _VALUE_NEEDED:
            return None
        tag_name, value, end = start.group(1), "", start.end()
    text = "\n".join(lines)
    if "[" in text[end:]:
        return None  # another tag pair may be in there: its value would be lost unseen
    if CONTROL.search(text) is not None:
        return None  # no export holds a control character, and escaped it might read
    column = first.index("[") + 1
    vcolumn = whole.start(2) + 1 if whole is not None else column
    return Tag.read(tag_name, value, (), DamagedSection(text, _open_brace(text), whole is not None),
                    file, line, column, line, vcolumn)


def _shift(items: list[object], lines: int) -> None:
    """Move the tokens of a segment parsed alone to their line in the record."""
    for item in items:
        toks: list[LarkToken] = item[1] if isinstance(item, tuple) else [item]  # type: ignore[list-item]
        for tok in toks:
            tok.line = (tok.line or 1) + lines


def _records(lines: Decoded | Iterable[str], name: str, first_line: int = 1, sections: bool = True
             ) -> Iterator[Record | BadRecord]:
    return chunk_records(split(lines, first_line), name, sections)


def chunk_records(chunks: Iterable[Chunk], name: str, sections: bool = True
                  ) -> Iterator[Record | BadRecord]:
    """The records of chunks already cut from one file, in order (see :class:`ChunkReader`
    for a caller that skips some); ``sections=False`` leaves their section data unread."""
    reader = ChunkReader(name, sections)
    for chunk in chunks:
        yield reader.read(chunk)


class ChunkReader:
    """The reader of one file's chunks, handed to it one at a time and in file order.

    For a caller that cuts the file itself and parses only some of its chunks (the
    archive's raw-text identity recognises stored ones): the chunks share the file's
    memory, so ``#`` inheritance works across them as in :func:`read`. A chunk the
    caller recognises is :meth:`skip`-ped unparsed (python-chess's ``SkipVisitor`` is
    the model); its values are then not remembered, so a caller skips only in a file
    where :func:`~priffe_records.format.splitter.may_inherit` is False.
    """

    def __init__(self, name: str, sections: bool = True) -> None:
        self.name = name
        self.state = _FileState()
        self.sections = sections

    def read(self, chunk: Chunk) -> Record | BadRecord:
        """The next chunk's record (or, when it cannot be read, its BadRecord)."""
        return _parse_record(chunk, self.name, self.state, self.sections)

    def skip(self, chunk: Chunk) -> None:
        """The next chunk, not parsed: it counts as a record of the file."""
        self.state.count += 1


@overload
def read(source: Source, *, errors: Literal["raise"] = "raise",
         name: str | None = None, first_line: int = 1) -> Iterator[Record]: ...


@overload
def read(source: Source, *, errors: Literal["collect"],
         name: str | None = None, first_line: int = 1) -> Iterator[Record | BadRecord]: ...


def read(source: Source, *, errors: Literal["raise", "collect"] = "raise",
         name: str | None = None, first_line: int = 1
         ) -> Iterator[Record] | Iterator[Record | BadRecord]:
    """Yield the records of a PPN/PBN file one at a time.

    ``source`` is a path, an open file (bytes or text) or a ``Decoded`` file, whose
    ``facts`` then say the encoding and line ends read (``validate -v``). With
    ``errors="raise"`` the first bad record raises
    :class:`~priffe_records.format.errors.PPNSyntaxError`; with ``"collect"`` a bad
    record is yielded as a :class:`~priffe_records.format.errors.BadRecord` and
    reading goes on with the next record.

    ``first_line`` is the line number of the source's first line: a slice of a
    file (cut where :func:`~priffe_records.format.cuts.fresh_starts` says a record
    starts afresh) reads with the locations it has in the whole file. Header lines
    (``% PBN 2.1``) are only skipped at line 1.
    """
    it = _read_any(source, name, first_line)
    if errors == "collect":
        return it
    return _strict(it)


def _strict(it: Iterator[Record | BadRecord]) -> Iterator[Record]:
    """Raise the first error; warnings stay attached to the records."""
    for rec in it:
        if isinstance(rec, BadRecord):
            raise rec.errors[0]
        if rec.errors and rec.has_errors:
            raise next(e for e in rec.errors if not e.is_warning)
        yield rec


def _read_any(source: Source, name: str | None, first_line: int = 1, sections: bool = True
              ) -> Iterator[Record | BadRecord]:
    if isinstance(source, str | os.PathLike):
        label = name or os.fspath(source)
        with open(source, "rb") as fh:
            yield from _records(Decoded(fh), label, first_line, sections)
        return
    if isinstance(source, Decoded):
        label = name or str(getattr(source.raw, "name", "<stream>"))
        yield from _records(source, label, first_line, sections)
        return
    label = name or str(getattr(source, "name", "<stream>"))
    if isinstance(source, io.TextIOBase):
        yield from _records((line.rstrip("\r\n") for line in source), label, first_line,
                            sections)
    else:
        yield from _records(Decoded(source), label, first_line,  # type: ignore[arg-type]
                            sections)


def read_headers(source: Source) -> Iterator[dict[str, str]]:
    """Yield each record's tags as ``{name: value}`` in file order, its sections unread.

    This is :func:`read` with a headers-only visitor (python-chess's ``read_headers`` is
    the model): the same splitter, tokenizer and tag-pair syntax, so a tag pair the
    reader rejects (``[event "x"]``) is missing here too and a value reads as the reader
    reads it (``"C:\\temp"`` keeps its backslash). Values are the reader's (normalised:
    ``Date "2026-10-17"`` reads ``2026.10.17``), the first tag of a name stands (PBN §3.4
    ignores a repeat) and inheritance is the reader's (PBN §4.8): ``#`` takes the tag's
    latest value in the file, ``##value`` gives ``value`` to this record and every later
    one that does not name the tag. A record that cannot be read gives the tags read
    around its errors; no error is raised (:func:`read` reports them).

    >>> text = '[Event "Klubb"]\\n[Board "1"]\\n[Play "N"]\\nD6 D4 {[Not "a tag"]} DK DA\\n\\n'
    >>> text += '[Event "#"]\\n[Board "2"]\\n'
    >>> list(read_headers(io.BytesIO(text.encode())))
    [{'Event': 'Klubb', 'Board': '1', 'Play': 'N'}, {'Event': 'Klubb', 'Board': '2'}]
    """
    for rec in _read_any(source, None, sections=False):
        found = rec.partial if isinstance(rec, BadRecord) else rec
        if found is None or not found.tags:
            continue  # comments only, or nothing of the record could be read
        tags: dict[str, str] = {}
        for tag in found.tags:
            tags.setdefault(tag.name, tag.value)
        yield tags | dict(found.defaults)


@overload
def loads(text: str, *, errors: Literal["raise"] = "raise",
          name: str = "<string>", first_line: int = 1, header: bool = True
          ) -> Iterator[Record]: ...


@overload
def loads(text: str, *, errors: Literal["collect"],
          name: str = "<string>", first_line: int = 1, header: bool = True
          ) -> Iterator[Record | BadRecord]: ...


def loads(text: str, *, errors: Literal["raise", "collect"] = "raise",
          name: str = "<string>", first_line: int = 1, header: bool = True
          ) -> Iterator[Record] | Iterator[Record | BadRecord]:
    """Read records from a string (see :func:`read`, also for ``first_line``).

    ``header=False`` reads a text that is not a file, such as one record's text from
    :func:`~priffe_records.format.writer.format_record` (the archive's stored records):
    a ``% PBN 2.1`` line at its top is then the record's comment, not a file header.
    """
    it = chunk_records(split_text(text, first_line, header=header), name)
    return it if errors == "collect" else _strict(it)
