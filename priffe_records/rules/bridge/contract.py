"""A bridge contract and its words: level, strain (a suit or no trumps) and risk.

>>> c = Contract.parse("4hx")
>>> str(c), c.trump, c.tricks_needed, Contract.parse("3NT") > Contract.parse("3S")
('4HX', <Suit.H: 'H'>, 10, True)
>>> Contract.parse("4NoTrump") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from priffe_records.game.cards import Suit
from priffe_records.game.language import msg_p
from priffe_records.game.words import suit_name
from priffe_records.rules.replay_facts import Worded, every_language, worded

from .words import CONTRACT

STRAINS: tuple[Suit | None, ...] = (Suit.C, Suit.D, Suit.H, Suit.S, None)  # low to high
_NT = every_language(msg_p("bridge", "NT"))  # Swedish: sang
_RISK = ("", every_language(msg_p("bridge", "doubled")),
         every_language(msg_p("bridge", "redoubled")))
_SUITS = {s: every_language(suit_name(s)) for s in Suit}


@dataclass(frozen=True, order=True, slots=True)
class Contract:
    """A bid (risk 0) or a final contract; bids order by level, then strain."""

    level: int
    strain: int  # index into STRAINS: C D H S NT
    risk: int = 0  # 0, 1 doubled, 2 redoubled

    @classmethod
    def parse(cls, text: str | None) -> Contract | None:
        m = CONTRACT.fullmatch((text or "").strip())
        if m is None:
            return None
        strain = "CDHSNT".index(m[2].upper()) if m[2].upper() != "NT" else 4
        return cls(int(m[1]), strain, len(m[3] or ""))

    @property
    def trump(self) -> Suit | None:
        return STRAINS[self.strain]

    @property
    def tricks_needed(self) -> int:
        return self.level + 6

    def __str__(self) -> str:
        return f"{self.level}{'CDHSNT'[self.strain] if self.strain < 4 else 'NT'}" \
            + "X" * self.risk

    def words(self) -> Worded:
        """``4 hjärter dubblat``, ``3 sang``: the contract as a player says it."""
        strain = _NT if self.trump is None else _SUITS[self.trump]
        return worded("{level} {strain} {risk}", level=self.level, strain=strain,
                      risk=_RISK[self.risk]) if self.risk else \
            worded("{level} {strain}", level=self.level, strain=strain)

