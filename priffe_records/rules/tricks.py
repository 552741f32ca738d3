"""What every trick-taking family shares: a played card, a trick, and tricks made on demand.

The families replay their Play sections each in their own way (four seats
in partnerships, or three alone); the trick they build is the same, so the
replay views and the archive read one shape. Who wins a trick and which
cards follow suit is :mod:`priffe_records.game.tricks`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from priffe_records.format.record import Location, Section, Token, TokenKind
from priffe_records.game.cards import Card, CardError, Seat
from priffe_records.game.language import msg
from priffe_records.game.tricks import CARD_IDS, CARDS, ELSEWHERE, NOT_HELD, PLAYED, card_id
from priffe_records.game.words import card_name, seat_name, suit_name
from priffe_records.rules.findings import Finding, error


class PlayedCard(NamedTuple):
    """One card of a trick. Immutable like the dataclasses here, but a NamedTuple:
    the replay makes 52 per deal and building frozen dataclasses was a fifth of
    its time (line profile)."""

    seat: Seat
    card: Card | None  # None: unknown card '-'
    token: Token
    legal: bool = True


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick; ``cards`` in the order played (column order when the leader is unknown)."""

    number: int
    leader: Seat | None
    cards: tuple[PlayedCard, ...]
    winner: Seat | None
    findings: tuple[Finding, ...] = ()



def not_theirs(rule: str, fault: int, n: int, seat: Seat, cid: int, where: Location | None,
               *, first: int = 0, owner: Seat | None = None, shown: int = 0) -> Finding:
    """A card that is not the player's to play (:func:`~priffe_records.game.tricks.card_fault`:
    played before, in trick ``first``; dealt to ``owner``; not in the hand; of a suit
    the player showed out of in trick ``shown``), worded alike in every family."""
    who, card = seat_name(seat), CARDS[cid]
    if fault == PLAYED:
        return error(rule, msg("trick {n}: {who} plays {card} a second time (first in "
                               "trick {first})", n=n, who=who, card=card_name(card),
                               first=first), where)
    if fault == ELSEWHERE and owner is not None:
        return error(rule, msg("trick {n}: {who} plays {card}, which was dealt to "
                               "{owner}, not {who}", n=n, who=who, card=card_name(card),
                               owner=seat_name(owner)), where)
    if fault == NOT_HELD:
        return error(rule, msg("trick {n}: {who} plays {card}, which is not in {who}'s "
                               "hand", n=n, who=who, card=card_name(card)), where)
    return error(rule, msg("trick {n}: {who} plays {card} but showed out of {suit} "
                           "in trick {shown}: a revoke in trick {shown}", n=n, who=who,
                           card=card_name(card), suit=suit_name(card.suit), shown=shown),
                 where)


def slot_card(kind: TokenKind, text: str) -> int:
    """The card id of a Play slot; -1 for an unknown card ('-') or a word that is none."""
    if kind is not TokenKind.CARD:
        return -1
    cid = CARD_IDS.get(text)
    if cid is None:  # a token built in code with another spelling, or no card at all
        try:
            return card_id(Card.parse(text))
        except CardError:
            return -1  # unknown, like '-': never guessed
    return cid


def play_slots(section: Section) -> tuple[Sequence[int], list[int], bool]:
    """A Play section's card slots (its tokens but the closing ``*``), each slot's card id
    (-1: none), and whether ``*`` ends the play (a claim).

    A section of cards in export spelling, with or without a closing ``*``, is read in
    C calls: counting CARD kinds matches by identity, where looking for ``*`` among them
    compares every kind (an Enum compared in Python).
    """
    kinds, texts = section.kinds, section.texts
    cards = kinds.count(TokenKind.CARD)
    n = len(kinds)
    if cards == n or (cards == n - 1 and kinds[-1] is TokenKind.END):
        try:
            return (range(cards), list(map(CARD_IDS.__getitem__, texts[:cards])),
                    cards != n)
        except KeyError:
            pass  # another spelling: slot by slot
    end = TokenKind.END
    slots = [i for i, k in enumerate(kinds) if k is not end]
    return (range(n) if len(slots) == n else slots,
            [slot_card(kinds[i], texts[i]) for i in slots], len(slots) != n)


class TricksOnDemand:
    """A replayed play whose :class:`Trick` objects are made when first read.

    A replay decides a clean trick on card ids and keeps a few ints for it; the
    tricks, which only a replay view or the archive reads, are built from those.
    """

    __slots__ = ("_again", "_tricks")
    FIELDS: ClassVar[tuple[str, ...]] = ("tricks",)  # what equality and repr show, tricks first

    def __init__(self, tricks: tuple[Trick, ...] | None,
                 again: Callable[[], tuple[Trick, ...]] | None) -> None:
        if tricks is None and again is None:
            raise ValueError("a play needs its tricks or a way to build them")
        self._tricks = tricks
        self._again = again

    @property
    def tricks(self) -> tuple[Trick, ...]:
        if self._tricks is None:
            assert self._again is not None
            self._tricks, self._again = self._again(), None
        return self._tricks

    @property
    def built(self) -> bool:
        """Whether the tricks have been made (a clean play's are not until read)."""
        return self._tricks is not None

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, TricksOnDemand)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key()[1:])  # not the tricks: hashing must not build them

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"
