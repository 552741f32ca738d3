"""Préférence rule variants from the ``Scoring`` tag (PREFERENCE.md: ``ante``, ``must_trump``).

>>> parse_options("Preference;ante=5;must_trump=off")
PrefOptions(ante=5, must_trump=False)
>>> parse_options("preference"), parse_options("Preference;ante=0").ante
(PrefOptions(ante=10, must_trump=True), 0)
>>> parse_options("Preference;ante=x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
priffe_records.rules.preference.options.PrefOptionsError: Scoring option ante='x' must be ...
>>> options, problems = read_options("Preference;ante=99999999999999999999")
>>> options.ante, [(p.rule, p.warning) for p in problems]
(None, [('P13', True)])
"""

from __future__ import annotations

from dataclasses import dataclass

from priffe_records.game.errors import PriffeError
from priffe_records.game.language import Message, msg

__all__ = [
    "DEFAULT_OPTIONS",
    "FAMILY_WORD",
    "MAX_ANTE",
    "OptionProblem",
    "PrefOptions",
    "PrefOptionsError",
    "parse_options",
    "read_options",
]

FAMILY_WORD = "Preference"
# P13 names no range: any whole number from 0 is an ante. Above a million no table
# plays, and the pot and the balances must stay numbers the Pot and Balance tags
# (nine digits) and the archive (SQLite integers) can hold.
MAX_ANTE = 1_000_000


class PrefOptionsError(PriffeError):
    """A Scoring option Préférence does not know, or a value it does not allow."""


@dataclass(frozen=True, slots=True)
class PrefOptions:
    ante: int | None = 10  # P13; None: the Scoring tag's ante cannot be used
    must_trump: bool = True  # P10, the seed's earliest rules

    def scoring(self) -> str:
        """The Scoring tag value that selects these options (defaults left out)."""
        parts = [FAMILY_WORD]
        if self.ante is not None and self.ante != 10:
            parts.append(f"ante={self.ante}")
        if not self.must_trump:
            parts.append("must_trump=off")
        return ";".join(parts)


DEFAULT_OPTIONS = PrefOptions()


@dataclass(frozen=True, slots=True)
class OptionProblem:
    """What is wrong with a Scoring value: the rule to name, a warning or an error, why."""

    rule: str
    warning: bool
    text: Message


def _short(value: str) -> str:
    """An option value as a message quotes it: 20 digits and more are cut."""
    return value if len(value) <= 24 else value[:23] + "…"


def _ante(value: str) -> tuple[int | None, OptionProblem | None]:
    """P13's ante from its option value: a whole number from 0. One that cannot be used is
    ``None`` (the pot is then not known), never the default 10."""
    if not (value.isascii() and value.isdigit()):
        return None, OptionProblem("P13", False, msg(
            "Scoring option ante={value!r} must be a whole number (0, 1, 2 …): the pot and "
            "balances are taken from the Pot and Balance tags", value=_short(value)))
    digits = value.lstrip("0") or "0"
    if len(digits) > len(str(MAX_ANTE)) or int(digits) > MAX_ANTE:
        return None, OptionProblem("P13", True, msg(
            "Scoring option ante={value} is more than {most}, more than any table plays "
            "for: the pot and balances are taken from the Pot and Balance tags",
            value=_short(value), most=MAX_ANTE))
    return int(digits), None


def read_options(scoring: str) -> tuple[PrefOptions, tuple[OptionProblem, ...]]:
    """The options of a Préférence Scoring value and what is wrong with it. A bad
    ``must_trump`` or an unknown option keeps the default; a bad ante makes it unknown."""
    ante: int | None = 10
    must_trump = True
    problems: list[OptionProblem] = []
    for item in scoring.split(";")[1:]:
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        key, value = key.strip().casefold(), value.strip().casefold()
        if key == "ante" and eq:
            ante, problem = _ante(value)
            if problem is not None:
                problems.append(problem)
        elif key == "must_trump" and eq:
            if value not in ("on", "off"):
                problems.append(OptionProblem("Presets", False, msg(
                    "Scoring option must_trump={value!r} must be on or off", value=value)))
            else:
                must_trump = value == "on"
        else:
            problems.append(OptionProblem("Presets", False, msg(
                "unknown Scoring option {item!r} (Préférence knows ante=N and "
                "must_trump=on|off)", item=item.strip())))
    return PrefOptions(ante, must_trump), tuple(problems)


def parse_options(scoring: str) -> PrefOptions:
    """The options of a Préférence Scoring value; anything wrong with it raises."""
    options, problems = read_options(scoring)
    if problems:
        raise PrefOptionsError(problems[0].text)
    return options
