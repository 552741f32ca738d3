"""What the rules engine reports: one :class:`Finding` per broken or uncheckable rule.

Findings are plain frozen data so the validator, the score sheet, the CLI
report and a replay UI can all show them without knowing the engine. The text
is a :class:`~priffe_records.game.language.Message` (its English id and its
values), so it can be shown in Swedish or English: ``message`` renders it in
the active language, English unless a caller picked one.

>>> f = Finding("R11", Severity.ERROR,
...             "trick 7: South plays ♦3 while holding ♥K — must follow hearts",
...             Location("a.ppn", 30, 5))
>>> print(f)
a.ppn:30:5: error R11: trick 7: South plays ♦3 while holding ♥K — must follow hearts
>>> from priffe_records.game.cards import Seat
>>> from priffe_records.game.language import msg
>>> from priffe_records.game.words import seat_name
>>> g = Finding("R2", Severity.ERROR, msg("{seat} is dealt {count} cards; each player holds "
...             "13", seat=seat_name(Seat.S), count=12))
>>> g.message
'South is dealt 12 cards; each player holds 13'
>>> print(g.render("sv"))
fel R2: Syd har fått 12 kort; varje spelare ska ha 13
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from priffe_records.format.record import Location, Record, Section, Tag, TokenKind
from priffe_records.game.language import Message, msg_p, render


class Severity(enum.Enum):
    """``error`` breaks a rule; ``warning`` is a doubtful but legal record; ``unverifiable``
    says honestly what the record does not let us check."""

    ERROR = "error"
    WARNING = "warning"
    UNVERIFIABLE = "unverifiable"

    @property
    def rank(self) -> int:
        return _RANK[self]

    @property
    def word(self) -> Message:
        """The severity as a player reads it; ``value`` stays the machine name."""
        return _WORDS[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.UNVERIFIABLE: 2}
_WORDS = {Severity.ERROR: msg_p("severity", "error"),
          Severity.WARNING: msg_p("severity", "warning"),
          Severity.UNVERIFIABLE: msg_p("severity", "unverifiable")}


@dataclass(frozen=True, slots=True)
class Finding:
    """One message for a player.

    ``rule`` is a RULES.md ID (``R11``), ``Presets`` for the Scoring tag, or
    ``PPN`` for a record the reader could not read. ``record`` is the 1-based
    position of the record in the validated sequence. ``text`` is a
    :class:`Message` (a plain string is shown as it is, in every language).
    """

    rule: str
    severity: Severity
    text: Message | str
    location: Location | None = None
    record: int | None = None
    also: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """Its rule, then the others it speaks for: one "not checked" finding covers every
        rule a missing part leaves unchecked, and none of those has passed."""
        return (self.rule, *self.also)

    @property
    def message(self) -> str:
        """The text in the active language."""
        return render(self.text)

    def render(self, lang: str | None = None) -> str:
        """The whole line in ``lang`` (default: the active language); rule and place stay."""
        where = f"{self.location}: " if self.location is not None else ""
        rules = ", ".join(self.rules)
        return f"{where}{self.severity.word.render(lang)} {rules}: {render(self.text, lang)}"

    def __str__(self) -> str:
        return self.render()

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def at_record(self, record: int) -> Finding:
        return replace(self, record=record)

    def to_dict(self) -> dict[str, object]:
        loc = self.location
        return {"file": loc.file if loc else None, "line": loc.line if loc else None,
                "column": loc.column if loc else None, "record": self.record,
                "rule": self.rule, "severity": self.severity.value, "message": self.message}


def error(rule: str, message: Message | str, location: Location | None = None,
          also: tuple[str, ...] = ()) -> Finding:
    return Finding(rule, Severity.ERROR, message, location, also=also)


def warning(rule: str, message: Message | str, location: Location | None = None,
            also: tuple[str, ...] = ()) -> Finding:
    return Finding(rule, Severity.WARNING, message, location, also=also)


def unverifiable(rule: str, message: Message | str, location: Location | None = None,
                 also: tuple[str, ...] = ()) -> Finding:
    return Finding(rule, Severity.UNVERIFIABLE, message, location, also=also)


def tag_location(record: Record, name: str, value: bool = True, *, column: int = 0
                 ) -> Location | None:
    """Where to point for a tag: its value if known, else the tag, else the record;
    ``column`` characters further on (the card of a Deal that does not read)."""
    tag: Tag | None = record.tag(name)
    loc = record.location if tag is None else \
        (tag.value_location if value else None) or tag.location or record.location
    return Location(loc.file, loc.line, loc.column + column) if column and loc else loc


def section_location(section: Section, i: int) -> Location | None:
    """Where token ``i`` of an Auction or Play section was read.

    ``Section.location_at`` finds a place by scanning the token's run of words from
    its start, so a finding on every call of a long line of calls made checking one
    auction quadratic in its calls. The section's tokens are built once instead (one
    pass over the section, which keeps them) and each finding reads its token's place.
    Both families' auction checks (Priffe R4–R6, Préférence P3–P6), which can word a
    finding on every call, locate them here; a check that words at most one or two
    findings a section may ask ``location_at``, which builds no token.
    """
    return section.tokens[i].location


def auction_cut_short(section: Section, rule: str, *, taken: Message, short: Message
                      ) -> Finding:
    """The finding for an auction that stops before its end (Priffe R6, Préférence P6).

    ``*`` (or a ``+`` continuation) says the auction is not given in full (FORMAT.md), so
    what it would decide is taken from the tags and said so (``taken``, *unverifiable*);
    without one the auction as written is wrong (``short``, an error). Either is placed
    at the section's last token.
    """
    where = section_location(section, -1) if section.kinds else None
    if section.ended or TokenKind.CONTINUE in section.kinds:
        return unverifiable(rule, taken, where)
    return error(rule, short, where)


def sort_key(f: Finding) -> tuple[int, int, int, int]:
    """Errors first, then by position in the file."""
    loc = f.location
    return (f.record or 0, f.severity.rank, loc.line if loc else 0, loc.column if loc else 0)
