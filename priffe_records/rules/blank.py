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
from priffe_records.game.cards import SEATS, Hand, Seat, sorted_cards
from priffe_records.rules.preference.deal import DECK as PREF_DECK
from priffe_records.rules.preference.generate import generate_partie as pref_partie
from priffe_records.rules.preference.options import DEFAULT_OPTIONS as PREF_OPTIONS
from priffe_records.rules.preference.table import PLAYERS as PREF_SEATS
from priffe_records.rules.preference.table import next_player
from priffe_records.rules.priffe.generate import generate_records, random_deal
from priffe_records.rules.priffe.options import PRESETS

GAMES = ("priffe", "preference")
UNKNOWN = "?"  # PBN's "not known (yet)"


def seats(game: str) -> tuple[Seat, ...]:
    """The seats that play: four for Priffe, N, E and S for Préférence."""
    return PREF_SEATS if game == "preference" else SEATS


def next_dealer(game: str, dealer: Seat) -> Seat:
    """Who deals next: the seat on the left (R3); in Préférence N → E → S."""
    return next_player(dealer) if game == "preference" else dealer.left


def _scoring(game: str) -> str:
    return PREF_OPTIONS.scoring() if game == "preference" else PRESETS["sv"].scoring_tag()


def skeleton(game: str, *, deals: int, dealer: str = "N", players: Sequence[str] = (),
             event: str = UNKNOWN, site: str = UNKNOWN, date: str = UNKNOWN) -> list[Record]:
    """``deals`` records with who, where and when filled in and what happened left empty.

    ``players`` are seated in seat order (N, E, S, W; N, E, S for
    Préférence); missing names are ``?``. Results stay empty, so the
    validator reads the skeleton as a partie not played yet.
    """
    table = seats(game)
    names = dict(zip(table, [*players, *[UNKNOWN] * len(table)], strict=False))
    seat = Seat(dealer)
    out: list[Record] = []
    for board in range(1, deals + 1):
        tags = [Tag("Event", event), Tag("Site", site), Tag("Date", date),
                Tag("Board", str(board))]
        tags += [Tag(PLAYER_TAGS[s], names[s]) for s in SEATS if s in names]
        tags += [Tag("Dealer", seat.value), Tag("Scoring", _scoring(game)),
                 Tag("Declarer", ""), Tag("Contract", ""), Tag("Result", "")]
        out.append(Record(tuple(tags)))
        seat = next_dealer(game, seat)
    return out


def random_deals(game: str, n: int, *, seed: int, played: bool = False) -> list[Record]:
    """``n`` random legal deals: the hands only, or (``played``) whole deals with true claims."""
    if played:
        if game == "preference":
            return pref_partie(seed, deals=n)
        return generate_records(n, seed)
    rng = random.Random(seed)
    table = seats(game)
    dealer = rng.choice(table)
    out: list[Record] = []
    for board in range(1, n + 1):
        tags = [Tag("Event", "Övning"), Tag("Site", UNKNOWN), Tag("Date", UNKNOWN),
                Tag("Board", str(board)), Tag("Dealer", dealer.value)]
        if game == "preference":
            cards = sorted_cards(PREF_DECK)
            rng.shuffle(cards)
            hands = {s: Hand(tuple(sorted_cards(cards[i * 10:(i + 1) * 10])))
                     for i, s in enumerate(table)}
            text = " ".join("-" if s not in hands else hands[s].pbn()
                            for s in dealer.rotation())
            tags += [Tag("Deal", f"{dealer.value}:{text}"),
                     Tag("Talon", " ".join(str(c) for c in cards[30:]))]
        else:
            tags.append(Tag("Deal", random_deal(rng).pbn(dealer)))
        tags.append(Tag("Scoring", _scoring(game)))
        out.append(Record(tuple(tags)))
        dealer = next_dealer(game, dealer)
    return out
