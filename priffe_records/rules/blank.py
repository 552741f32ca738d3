"""New records to fill in or to practise with: partie skeletons and random deals, per family.

``priffe new`` writes a skeleton a club secretary fills in by hand: the
partie's Event/Site/Date and players on every deal, the dealer passing to
the left (R3 for Priffe, P-rules' N→E→S for Préférence) and the results
left empty. ``priffe deal`` prints random legal deals: the hands only, or
(``played=True``) whole deals with auction, play and correct claims from the
families' generators, which the validator checks like any other record.

>>> [r.get("Dealer") for r in skeleton("priffe", deals=5, dealer="W")]
['W', 'N', 'E', 'S', 'W']
>>> [r.get("Dealer") for r in skeleton("preference", deals=4, dealer="S")]
['S', 'N', 'E', 'S']
>>> from priffe_records.rules.validate import validate
>>> [f for f in validate(random_deals("priffe", 3, seed=1, played=True)) if f.is_error]
[]
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from priffe_records.format.record import PLAYER_TAGS, Record, Tag
from priffe_records.game.cards import SEATS, Seat
from priffe_records.rules.family import family_named

UNKNOWN = "?"  # PBN's "not known (yet)"


def seats(game: str) -> tuple[Seat, ...]:
    """The seats that play: four for Priffe, N, E and S for Préférence."""
    return family_named(game).players


def next_dealer(game: str, dealer: Seat) -> Seat:
    """Who deals next: the seat on the left (R3); in Préférence N → E → S."""
    return family_named(game).next_dealer(dealer)


def skeleton(game: str, *, deals: int, dealer: str = "N", players: Sequence[str] = (),
             event: str = UNKNOWN, site: str = UNKNOWN, date: str = UNKNOWN) -> list[Record]:
    """``deals`` records with who, where and when filled in and what happened left empty.

    ``players`` are seated in seat order (N, E, S, W; N, E, S for
    Préférence); missing names are ``?``. Results stay empty, so the
    validator reads the skeleton as a partie not played yet.
    """
    family = family_named(game)
    table = family.players
    names = dict(zip(table, [*players, *[UNKNOWN] * len(table)], strict=False))
    seat = Seat(dealer)
    out: list[Record] = []
    for board in range(1, deals + 1):
        tags = [Tag("Event", event), Tag("Site", site), Tag("Date", date),
                Tag("Board", str(board))]
        tags += [Tag(PLAYER_TAGS[s], names[s]) for s in SEATS if s in names]
        tags += [Tag("Dealer", seat.value), Tag("Scoring", family.scoring_tag()),
                 Tag("Declarer", ""), Tag("Contract", ""), Tag("Result", "")]
        out.append(Record(tuple(tags)))
        seat = family.next_dealer(seat)
    return out


# A practice deal's Event, Site and Date: it happened nowhere, so an archive never files it
# beside a real evening (the generators' own tags name one: Graz 1911, Lund 2026).
_PRACTICE_TAGS = (Tag("Event", "Övning"), Tag("Site", UNKNOWN), Tag("Date", UNKNOWN))


def random_deals(game: str, n: int, *, seed: int, played: bool = False) -> list[Record]:
    """``n`` random legal deals: the hands only, or (``played``) whole deals with true claims."""
    family = family_named(game)
    if played:
        said = {t.name: t for t in _PRACTICE_TAGS}  # in place of the generator's
        return [Record(tuple(said.get(t.name, t) for t in r.tags), r.leading)
                for r in family.played_deals(n, seed)]
    rng = random.Random(seed)
    dealer = rng.choice(family.players)
    out: list[Record] = []
    for board in range(1, n + 1):
        tags = [*_PRACTICE_TAGS, Tag("Board", str(board)), Tag("Dealer", dealer.value),
                *family.deal_tags(rng, dealer), Tag("Scoring", family.scoring_tag())]
        out.append(Record(tuple(tags)))
        dealer = family.next_dealer(dealer)
    return out
