"""The rule variants a record plays by (RULES.md "Presets"), read from its ``Scoring`` tag.

Variants are an explicit frozen value passed to every rule that depends on
one, so two records of one file can follow different house rules.

>>> parse_scoring("Priffe;preset=en;must_trump=on").second_game
40
>>> parse_scoring(None) == PRESETS["sv"]
True
>>> try:
...     parse_scoring("Priffe;second_game=50")
... except OptionsError as e:
...     print(e)
Scoring option second_game='50' is not allowed (use 30, 40)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace

from priffe_records.format.errors import PriffeError

# PBN's "" or "?": the default preset applies. One home for the spellings: format/values.
from priffe_records.format.values import is_unspecified as is_unspecified
from priffe_records.game.language import Message, msg, msg_p

FAMILY_WORD = "Priffe"


class FirstLead(enum.Enum):
    FOREHAND = "forehand"
    DECLARER_LEFT = "declarer_left"


class ForcedHonours(enum.Enum):
    TWOS = "twos"
    NONE = "none"


class HonoursVariant(enum.Enum):
    HAND = "hand"
    SIDE = "side"

    def said(self) -> Message:
        """The variant in the reader's words; ``honours=hand`` is the Scoring tag's syntax."""
        return _HONOURS_SAID[self]


_HONOURS_SAID = {HonoursVariant.HAND: msg_p("replay", "honours count in one hand"),
                 HonoursVariant.SIDE: msg_p("replay", "honours count for the side")}


class OptionsError(PriffeError):
    """A Scoring tag naming an unknown option or a value the option does not allow."""


class NotPriffeError(OptionsError):
    """A Scoring tag of another game (bridge ``IMP``, ``MP`` …)."""


@dataclass(frozen=True, slots=True)
class Options:
    """One record's rule variants; ``preset`` is the preset they started from."""

    preset: str = "sv"
    first_lead: FirstLead = FirstLead.FOREHAND  # R10
    must_trump: bool = False  # R11
    forced_honours: ForcedHonours = ForcedHonours.TWOS  # R17
    honours: HonoursVariant = HonoursVariant.HAND  # R17
    second_game: int = 30  # R19
    forfeit_partial: bool = True  # R21

    def scoring_tag(self) -> str:
        """The shortest Scoring value naming these options (preset, then what differs)."""
        base = PRESETS.get(self.preset, PRESETS["sv"])
        parts = [FAMILY_WORD] + ([f"preset={self.preset}"] if self.preset != "sv" else [])
        for f in fields(self):
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name):
                parts.append(f"{f.name}={_show(getattr(self, f.name))}")
        return ";".join(parts)


PRESETS: dict[str, Options] = {
    "sv": Options(),
    "en": Options(preset="en", honours=HonoursVariant.SIDE, second_game=40,
                  forfeit_partial=False),
}

# Allowed spellings per option; the first is the canonical one.
_ALLOWED: dict[str, dict[str, object]] = {
    "first_lead": {e.value: e for e in FirstLead},
    "must_trump": {"on": True, "off": False},
    "forced_honours": {e.value: e for e in ForcedHonours},
    "honours": {e.value: e for e in HonoursVariant},
    "second_game": {"30": 30, "40": 40},
    "forfeit_partial": {"on": True, "off": False},
}


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)




def parse_scoring(value: str | None, default: str = "sv") -> Options:
    """Options from a Scoring value; the preset is applied first, then single options.

    ``default`` is the preset for a record without a Scoring value; a value
    ``Priffe`` without ``preset=`` means preset ``sv``, as RULES.md defines.

    Raises :class:`NotPriffeError` for another game's scoring and
    :class:`OptionsError` for a bad option, each naming what is allowed.
    """
    if default not in PRESETS:
        raise OptionsError(msg("preset {preset!r} is unknown (use {allowed})", preset=default,
                               allowed=", ".join(PRESETS)))
    if value is None or is_unspecified(value):
        return PRESETS[default]
    head, *items = [p.strip() for p in value.split(";")]
    if head.casefold() != FAMILY_WORD.casefold():
        raise NotPriffeError(msg("Scoring {value!r} is not Priffe scoring (a Priffe record has "
                                 "Scoring \"{family}\" or none)", value=value,
                                 family=FAMILY_WORD))
    pairs: dict[str, str] = {}
    for item in items:
        if not item:
            continue
        key, eq, val = item.partition("=")
        key, val = key.strip().casefold(), val.strip().casefold()
        if not eq:
            raise OptionsError(msg("Scoring option {item!r} needs a value: write key=value",
                                   item=item))
        if key != "preset" and key not in _ALLOWED:
            raise OptionsError(msg("Scoring option {key!r} is unknown (use preset, {allowed})",
                                   key=key, allowed=", ".join(_ALLOWED)))
        if key in pairs:
            raise OptionsError(msg("Scoring option {key!r} is given twice", key=key))
        pairs[key] = val
    preset = pairs.pop("preset", "sv")  # "Priffe" alone names the standard rules
    if preset not in PRESETS:
        raise OptionsError(msg("Scoring option preset={preset!r} is not allowed (use {allowed})",
                               preset=preset, allowed=", ".join(PRESETS)))
    changes: dict[str, object] = {}
    for key, val in pairs.items():
        allowed = _ALLOWED[key]
        if val not in allowed:
            raise OptionsError(msg("Scoring option {key}={value!r} is not allowed (use {allowed})",
                                   key=key, value=val, allowed=", ".join(allowed)))
        changes[key] = allowed[val]
    return replace(PRESETS[preset], **changes)  # type: ignore[arg-type]
