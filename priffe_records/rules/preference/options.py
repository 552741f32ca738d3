"""Préférence rule variants from the ``Scoring`` tag (PREFERENCE.md: ``ante``, ``must_trump``).

>>> parse_options("Preference;ante=5;must_trump=off")
PrefOptions(ante=5, must_trump=False)
>>> parse_options("preference")
PrefOptions(ante=10, must_trump=True)
>>> parse_options("Preference;ante=x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
priffe_records.rules.preference.options.PrefOptionsError: Scoring option ante='x' must be ...
"""

from __future__ import annotations

from dataclasses import dataclass

from priffe_records.game.errors import PriffeError
from priffe_records.game.language import msg
from priffe_records.game.preference import is_preference

__all__ = [
    "DEFAULT_OPTIONS",
    "FAMILY_WORD",
    "PrefOptions",
    "PrefOptionsError",
    "is_preference",
    "parse_options",
]

FAMILY_WORD = "Preference"


class PrefOptionsError(PriffeError):
    """A Scoring option Préférence does not know, or a value it does not allow."""


@dataclass(frozen=True, slots=True)
class PrefOptions:
    ante: int = 10  # P13
    must_trump: bool = True  # P10, the seed's earliest rules

    def scoring(self) -> str:
        """The Scoring tag value that selects these options (defaults left out)."""
        parts = [FAMILY_WORD]
        if self.ante != 10:
            parts.append(f"ante={self.ante}")
        if not self.must_trump:
            parts.append("must_trump=off")
        return ";".join(parts)


DEFAULT_OPTIONS = PrefOptions()


def parse_options(scoring: str) -> PrefOptions:
    """The options of a Préférence Scoring value; unknown options are errors."""
    ante, must_trump = 10, True
    for item in scoring.split(";")[1:]:
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        key, value = key.strip().casefold(), value.strip().casefold()
        if key == "ante" and eq:
            if not (value.isascii() and value.isdigit() and len(value) <= 4
                    and 1 <= int(value) <= 1000):
                raise PrefOptionsError(msg("Scoring option ante={value!r} must be a whole "
                                           "number from 1 to 1000", value=value))
            ante = int(value)
        elif key == "must_trump" and eq:
            if value not in ("on", "off"):
                raise PrefOptionsError(msg("Scoring option must_trump={value!r} must be on "
                                           "or off", value=value))
            must_trump = value == "on"
        else:
            raise PrefOptionsError(msg("unknown Scoring option {item!r} (Préférence knows "
                                       "ante=N and must_trump=on|off)", item=item.strip()))
    return PrefOptions(ante, must_trump)
