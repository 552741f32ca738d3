"""The checks the validator makes on a record, grouped as each family's rules document
groups its rules (RULES.md for Priffe, PREFERENCE.md for Préférence).

``priffe validate -v`` lists each check that passed. A check ran when the
record has the tags it needs; it passed when no finding (of any severity:
an unverifiable rule has not passed) names one of its rules.

>>> from priffe_records.format.reader import loads
>>> text = '[Dealer "N"]\\n[Auction "N"]\\nHjärter Pass Pass Pass\\n'
>>> rec = next(iter(loads(text)))
>>> [c.name for c in present(rec)]
['auction']
>>> [c.name for c in passed(present(rec), ["R11"])], [c.name for c in passed(present(rec), ["R5"])]
(['auction'], [])
>>> pref = next(iter(loads('[Scoring "Preference"]\\n[Pot "30"]\\n')))
>>> [(c.name, c.rules) for c in present(pref)]
[('claims', 'P14')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from priffe_records.format.record import Record
from priffe_records.game.language import Message, msg_p, render
from priffe_records.game.preference import is_preference
from priffe_records.rules.findings import Finding


@dataclass(frozen=True, slots=True)
class Check:
    """One group of rules, the tags that give it something to check, and a short name."""

    name: str
    first: int
    last: int
    tags: tuple[str, ...]
    prefix: str = "R"  # the family's rule letter: R (Priffe), P (Préférence)

    @property
    def rules(self) -> str:
        p = self.prefix
        return f"{p}{self.first}" if self.first == self.last else \
            f"{p}{self.first}–{p}{self.last}"

    @property
    def word(self) -> Message:
        """The name as a player reads it."""
        return _WORDS[self.name]

    def covers(self, rule: str) -> bool:
        return rule.startswith(self.prefix) and rule[1:].isdigit() and \
            self.first <= int(rule[1:]) <= self.last


# Priffe (RULES.md).
CHECKS: tuple[Check, ...] = (
    Check("deal", 1, 3, ("Deal",)),
    Check("auction", 4, 9, ("Auction",)),
    Check("play", 10, 13, ("Play",)),
    Check("score", 14, 18, ("Result", "Score", "Honours")),
    Check("rubber", 19, 22, ("ScoreRubber",)),
    Check("settlement", 23, 24, ("Settlement",)),
)


# Préférence (PREFERENCE.md).
PREFERENCE_CHECKS: tuple[Check, ...] = (
    Check("deal and talon", 1, 1, ("Deal", "Talon"), "P"),
    Check("auction", 2, 6, ("Auction",), "P"),
    Check("talon and contract", 7, 8, ("Contract", "Discard"), "P"),
    Check("drop-outs", 9, 9, ("Dropout",), "P"),
    Check("play", 10, 10, ("Play",), "P"),
    Check("payments", 11, 13, ("Result", "Score", "Dropout"), "P"),
    Check("claims", 14, 14, ("Declarer", "Result", "Score", "Pot", "Balance"), "P"),
)

_WORDS = {"deal": msg_p("check", "deal"), "auction": msg_p("check", "auction"),
          "play": msg_p("check", "play"), "score": msg_p("check", "score"),
          "rubber": msg_p("check", "rubber"), "settlement": msg_p("check", "settlement"),
          "deal and talon": msg_p("check", "deal and talon"),
          "talon and contract": msg_p("check", "talon and contract"),
          "drop-outs": msg_p("check", "drop-outs"), "payments": msg_p("check", "payments"),
          "claims": msg_p("check", "claims")}


def present(record: Record) -> tuple[Check, ...]:
    """The checks this record gives material for (its family's)."""
    checks = PREFERENCE_CHECKS if is_preference(record.get("Scoring")) else CHECKS
    return tuple(c for c in checks if any(record.get(t) is not None for t in c.tags))


def passed(checks: Sequence[Check], rules: Iterable[str]) -> list[Check]:
    """Those of ``checks`` that none of the findings' ``rules`` belongs to."""
    named = list(rules)
    return [c for c in checks if not any(c.covers(r) for r in named)]


_LAST_PARENS = re.compile(r"\(([^()]*)\)\s*$")
_RULE_ID = re.compile(r"^[RP][0-9]{1,2}$")


def named_rules(finding: Finding) -> tuple[str, ...]:
    """The rules a finding names: its own, and those its message lists at its end.

    One "not checked" finding speaks for every rule a missing part leaves unchecked
    ("… tricks and honours are taken as written (R12, R17)") under the first of them;
    none of those rules has passed.

    >>> from priffe_records.rules.findings import unverifiable
    >>> named_rules(unverifiable("R12", "tricks and honours are taken as written (R12, R17)"))
    ('R12', 'R17')
    >>> named_rules(unverifiable("R11", "… must trump (R11, must_trump)"))
    ('R11',)
    """
    m = _LAST_PARENS.search(render(finding.text, "en"))
    listed = [r.strip() for r in m.group(1).split(",")] if m else []
    return (finding.rule, *(r for r in listed if _RULE_ID.match(r) and r != finding.rule))

