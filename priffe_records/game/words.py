"""How the engine names seats, suits and cards in messages a player reads.

Each name is a :class:`~priffe_records.game.language.Message`, so a Swedish
sentence gets Swedish words: ``Syd``, ``hjärter``, ``♥D`` (Ä K D Kn).

>>> print(seat_name(Seat.S), suit_name(Suit.H), card_name(Card.parse("HQ")))
South hearts ♥Q
>>> print(card_name(Card.parse("HQ")).render("sv"), card_name(Card.parse("ST")).render("sv"))
♥D ♠10

A seat is read in the words a player writes, in either language:

>>> seat_from_word("Ö"), seat_from_word(" väst "), seat_from_word("North"), seat_from_word("Bo")
(<Seat.E: 'E'>, <Seat.W: 'W'>, <Seat.N: 'N'>, None)
>>> side_from_word("öv"), sides_text(8, 5).render("sv"), side_name(Side.EW).render()
(<Side.EW: 'EW'>, 'NS 8 ÖV 5', 'EW')
>>> shown_words("NS 9 EW 4", "sv"), shown_words("Σ EW", "en"), file_words("N 1;Ö -2;V 1")
('NS 9 ÖV 4', 'Σ EW', 'N 1;E -2;W 1')
>>> print(seat_hint("david", {Seat.N: "David Öhrnström", Seat.E: "Bo"}), seat_hint("Nort", {}))
David Öhrnström sits North: write N did you mean N (North)?
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Mapping

from priffe_records.game.cards import Card, Rank, Seat, Side, Suit
from priffe_records.game.language import Message, listing, msg, msg_p


def plain_key(text: str) -> str:
    """A word or name as compared when a secretary types it: no case, no accents, single
    spaces (``Märta  Ståhl`` and ``marta stahl``, ``Hjärter`` and ``hjarter`` are one key).

    >>> plain_key(" Märta  Ståhl "), plain_key("KLÖVER")
    ('marta stahl', 'klover')
    """
    plain = "".join(c for c in unicodedata.normalize("NFKD", text)
                    if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


_SEAT_NAMES = {Seat.N: msg("North"), Seat.E: msg("East"), Seat.S: msg("South"),
               Seat.W: msg("West")}
_SUIT_NAMES = {Suit.S: msg("spades"), Suit.H: msg("hearts"), Suit.D: msg("diamonds"),
               Suit.C: msg("clubs")}
# Only the honours differ: Swedish players write Ä K D Kn.
_RANK_NAMES = {Rank.ACE: msg_p("rank", "A"), Rank.KING: msg_p("rank", "K"),
               Rank.QUEEN: msg_p("rank", "Q"), Rank.JACK: msg_p("rank", "J")}

# The tags as a player says what they hold, for a sentence ("poängen på raden säger …"):
# English keeps the tag's name. A text about the file's syntax writes the tag itself, in
# brackets ([Score "…"]), and needs none of these.
_TAG_WORDS = {
    "Event": msg_p("tag", "Event"), "Site": msg_p("tag", "Site"),
    "Date": msg_p("tag", "Date"), "Rubber": msg_p("tag", "Rubber"),
    "Board": msg_p("tag", "Board"), "North": msg_p("tag", "North"),
    "East": msg_p("tag", "East"), "South": msg_p("tag", "South"),
    "West": msg_p("tag", "West"), "Dealer": msg_p("tag", "Dealer"),
    "Deal": msg_p("tag", "Deal"), "Scoring": msg_p("tag", "Scoring"),
    "Declarer": msg_p("tag", "Declarer"), "Contract": msg_p("tag", "Contract"),
    "Result": msg_p("tag", "Result"), "Score": msg_p("tag", "Score"),
    "Honours": msg_p("tag", "Honours"), "ScoreRubber": msg_p("tag", "ScoreRubber"),
    "Settlement": msg_p("tag", "Settlement"), "Auction": msg_p("tag", "Auction"),
    "Play": msg_p("tag", "Play"), "Talon": msg_p("tag", "Talon"),
    "Discard": msg_p("tag", "Discard"), "Dropout": msg_p("tag", "Dropout"),
    "Pot": msg_p("tag", "Pot"), "Balance": msg_p("tag", "Balance"),
}
# What a record lacks, each with its own "no" (Swedish: ingen budgivning, inget spel,
# inga händer): listed as "no Auction, Play or Deal" in English.
_LACKING_WORDS = {"Auction": msg_p("no tag", "Auction"), "Play": msg_p("no tag", "Play"),
                  "Deal": msg_p("no tag", "Deal")}


def tag_word(name: str) -> Message | str:
    """A tag in a sentence: ``Score`` in English, ``poängen på raden`` in Swedish; a tag
    the table does not know (a file's own) keeps its name in every language."""
    return _TAG_WORDS.get(name, name)


def lacking_word(name: str) -> Message:
    """One part a record lacks (Auction, Play or Deal) as a list of them names it:
    ``Play`` in English (after one "no"), ``inget spel`` in Swedish."""
    return _LACKING_WORDS[name]


def lacking_tags(names: list[str]) -> Message:
    """``no Auction, Play or Deal`` / ``ingen budgivning, inget spel eller inga händer``:
    the parts a record lacks (of Auction, Play and Deal), each with its own "no"."""
    return msg("no {tags}", tags=listing([lacking_word(n) for n in names], "or"))


def seat_name(seat: Seat) -> Message:
    return _SEAT_NAMES[seat]


_SEAT_LETTERS = {Seat.N: msg_p("seat letter", "N"), Seat.E: msg_p("seat letter", "E"),
                 Seat.S: msg_p("seat letter", "S"), Seat.W: msg_p("seat letter", "W")}


def seat_letter(seat: Seat) -> Message:
    """``W`` in English, ``V`` in Swedish: the letter a reader sees (PPN keeps N/E/S/W)."""
    return _SEAT_LETTERS[seat]


# The one place a side gets its name: NS and ÖV in Swedish (PPN keeps NS and EW).
_SIDE_NAMES = {Side.NS: msg_p("side", "NS"), Side.EW: msg_p("side", "EW")}
_SIDE_WORDS = {"ns": Side.NS, "ew": Side.EW, "öv": Side.EW, "ov": Side.EW, "øv": Side.EW}


def side_name(side: Side) -> Message:
    """``EW`` in English, ``ÖV`` in Swedish: the side a reader sees (PPN keeps NS/EW)."""
    return _SIDE_NAMES[side]


def side_from_word(text: str) -> Side | None:
    """The side a word stands for (``NS``, ``EW``, ``ÖV``; any case), else None."""
    return _SIDE_WORDS.get(text.strip().casefold())


def sides_text(ns: object, ew: object) -> Message:
    """A number per side as a reader sees it: ``NS 8 EW 5``, in Swedish ``NS 8 ÖV 5``."""
    return Message("{ns_side} {ns} {ew_side} {ew}",
                   {"ns_side": _SIDE_NAMES[Side.NS], "ns": ns,
                    "ew_side": _SIDE_NAMES[Side.EW], "ew": ew})


# The file's words for a seat or a side, standing alone, and the reader's (Ö, V, ÖV in Swedish).
_FILE_TOKEN = re.compile(r"(?<![\w-])(EW|E|W)(?![\w-])")
_READER_TOKEN = re.compile(r"(?<![\w-])(ÖV|ØV|OV|Ö|Ø|V)(?![\w-])", re.IGNORECASE)


def shown_words(text: str, lang: str | None = None) -> str:
    """A file's value as the reader writes it: ``NS 8 EW 5`` is ``NS 8 ÖV 5`` in Swedish,
    ``E 3 S 7`` is ``Ö 3 S 7``. Only whole words change (``Σ EW``, not ``EWA``)."""
    return _FILE_TOKEN.sub(lambda m: (_SIDE_NAMES[Side.EW] if m.group(1) == "EW" else
                                      _SEAT_LETTERS[Seat(m.group(1))]).render(lang), text)


def file_words(text: str) -> str:
    """The reader's seats and sides back in the file's words (``Ö 3`` → ``E 3``, ``ÖV`` →
    ``EW``), so a value typed or shown in Swedish reads as PPN writes it."""
    def back(m: re.Match[str]) -> str:
        word = m.group(1).casefold()
        return "EW" if len(word) == 2 else "W" if word == "v" else "E"
    return _READER_TOKEN.sub(back, text)


def suit_name(suit: Suit) -> Message:
    return _SUIT_NAMES[suit]


def rank_name(rank: Rank) -> Message:
    """``Q`` in English, ``D`` in Swedish; a ten is ``10`` in both."""
    named = _RANK_NAMES.get(rank)
    return named if named is not None else Message("10" if rank is Rank.TEN else rank.value)


def card_name(card: Card) -> Message:
    """``♦3``, ``♥10``, ``♥D``: what a player writes on a sheet."""
    return Message("{suit}{rank}", {"suit": card.suit.symbol, "rank": rank_name(card.rank)})


# Each seat's letter and name in English and Swedish (Ö and V are the Swedish letters).
_SEAT_WORDS = {word: seat for seat, words in (
    (Seat.N, ("n", "north", "nord")), (Seat.E, ("e", "east", "ö", "öst")),
    (Seat.S, ("s", "south", "syd")), (Seat.W, ("w", "west", "v", "väst"))) for word in words}


def seat_from_word(text: str) -> Seat | None:
    """The seat a letter or name stands for (``N``, ``Ö``, ``Nord``, ``west``; any case), else None.

    The program prints Ö and V in Swedish, so it reads them wherever a seat belongs.
    """
    return _SEAT_WORDS.get(text.strip().casefold())


def seat_hint(text: str, players: Mapping[Seat, str | None]) -> Message | None:
    """What was likely meant where a seat belongs: a player's seat, or the nearest seat word.

    A player's name (whole, its start, or nearly) says where that player sits;
    anything close to a seat word (``Nort``) asks whether that seat was meant.
    """
    key = text.strip().casefold()
    if not key:
        return None
    named = {seat: name.strip() for seat, name in players.items()
             if name and name.strip() not in ("", "?", "-")}
    folded = {name.casefold(): seat for seat, name in named.items()}
    starts = [seat for name, seat in folded.items() if name.startswith(key)]
    near = difflib.get_close_matches(key, folded, n=1, cutoff=0.75)
    seat = folded.get(key) or (starts[0] if len(starts) == 1 else None) or \
        (folded[near[0]] if near else None)
    if seat is not None:
        return msg("{name} sits {seat}: write {letter}", name=named[seat],
                   seat=seat_name(seat), letter=seat_letter(seat))
    word = difflib.get_close_matches(key, _SEAT_WORDS, n=1, cutoff=0.6)
    if word:
        seat = _SEAT_WORDS[word[0]]
        return msg("did you mean {letter} ({seat})?", letter=seat_letter(seat),
                   seat=seat_name(seat))
    return None
