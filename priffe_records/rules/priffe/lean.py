"""The lean rules check: a clean record proven clean without words.

Most records of a file are clean: a complete deal, auction and play, and claimed tags
that agree. :func:`analyse_clean` checks such a record on plain values (its tag values,
cached readings of tag texts, card ids and bit masks) and builds the
same :class:`~.outcome.DealOutcome` the full analysis would, with no finding, message
or location. At the first thing that is not plainly right it answers ``None`` and the
full analysis (:func:`.analysis.analyse_record`) runs from the start and words every
finding exactly as before; so this module never decides what is wrong, only that
nothing is.
"""

from __future__ import annotations

from typing import TypeVar

from priffe_records.format.record import PLAYER_TAGS, Record, Section, TokenKind
from priffe_records.format.values import is_unspecified
from priffe_records.game.calls import Call, CallError, Contract
from priffe_records.game.cards import SEATS, Seat
from priffe_records.game.tricks import card_id, deal_masks, parse_deal
from priffe_records.rules.priffe import play as play_mod
from priffe_records.rules.priffe.auction import AuctionCall, AuctionResult, contract_for
from priffe_records.rules.priffe.options import (
    ForcedHonours,
    NotPriffeError,
    Options,
    OptionsError,
    parse_scoring,
)
from priffe_records.rules.priffe.outcome import DealOutcome
from priffe_records.rules.priffe.play import opening_leader
from priffe_records.rules.priffe.scoring import (
    DealScore,
    SidePoints,
    honour_cards,
    honours_from_counts,
    parse_points,
    score_deal,
)

FORCING_BIDS = frozenset({"spader", "klöver", "klover"})  # final bids, not contracts (R8)
_SEAT: dict[str, Seat | None] = {s.value: s for s in SEATS} | {"": None, "?": None}
_PLAYERS = tuple(PLAYER_TAGS[s] for s in SEATS)
_TRUMP = {c: c.trump for c in Contract}
_DECLARED = {c: c.has_declarer for c in Contract}
_LEFT = {s: s.left for s in SEATS}
_CALLS = {c.value: c for c in Call}
_CACHE_MAX = 4096  # distinct tag texts kept per reading (a file has few)

_scorings: dict[str, Options] = {}
_contracts: dict[str, Contract] = {}
# Options.honours is keyed by its id: Enum's own hash runs Python code (Contract and
# Seat hash by identity already).
_wanted: dict[tuple[Contract, bool], int] = {}
_honour_points: dict[tuple[tuple[int, ...], int], SidePoints] = {}
_scores: dict[tuple[Contract, Seat | None, int, int, int], tuple[DealScore, SidePoints]] = {}


K = TypeVar("K")
V = TypeVar("V")


def _keep(cache: dict[K, V], key: K, value: V) -> V:
    if len(cache) >= _CACHE_MAX:
        cache.clear()
    cache[key] = value
    return value


def _points_of(text: str, total: int | None = None) -> SidePoints | None:
    """``SidePoints.parse``, cached by text; ``None`` where it raises (the full path words it)."""
    try:
        return parse_points(text, total)
    except ValueError:
        return None


def _seat(values: Record, name: str) -> Seat | bool | None:
    """The seat a tag names, ``None`` when unspecified, ``False`` for anything else
    (another spelling too: the full analysis reads it)."""
    text = values.get(name)
    return None if text is None else _SEAT.get(text, False)


def _auction(section: Section, first: Seat) -> AuctionResult | None:
    """``run_auction`` of a complete auction with no finding, else ``None``."""
    if section.kinds.count(TokenKind.CALL) != len(section.kinds) or len(section.kinds) > 4:
        return None  # a skip, an end, a continuation, '-' or a fifth call: the full path
    calls: list[AuctionCall] = []
    high: AuctionCall | None = None
    seat = first
    for i, text in enumerate(section.texts):
        call = _CALLS.get(text)
        if call is None or (high is not None and high.call is Call.SPELA):
            return None  # another spelling, an unknown call, or a call after Spela (R6)
        entry = AuctionCall(seat, call, text, section, i, True)
        if call.is_bid:
            if high is not None and not call.outranks(high.call):  # type: ignore[arg-type]
                return None  # R5
            high = entry
        calls.append(entry)
        seat = _LEFT[seat]
    if len(calls) < 4 and (high is None or high.call is not Call.SPELA):
        return None  # R6: not over yet
    contract = contract_for(high.call if high is not None else None)
    declarer = high.seat if high is not None and _DECLARED[contract] else None  # R7
    return AuctionResult(tuple(calls), True, contract, declarer, ())


def _honours(masks: tuple[int, ...], contract: Contract, options: Options
             ) -> SidePoints:
    """``scoring.honours`` of a complete deal, on its masks (R17)."""
    forced_none = options.forced_honours is ForcedHonours.NONE
    wanted = _wanted.get((contract, forced_none))
    if wanted is None:
        wanted = _keep(_wanted, (contract, forced_none),
                       sum(1 << card_id(c) for c in honour_cards(contract, options)))
    counts = tuple((m & wanted).bit_count() for m in masks)
    got = _honour_points.get((counts, id(options.honours)))
    if got is None:
        got = _keep(_honour_points, (counts, id(options.honours)), honours_from_counts(
            {s: n for s, n in zip(SEATS, counts, strict=True) if n}, options.honours))
    return got


def analyse_clean(record: Record, default: Options) -> DealOutcome | None:
    """:func:`.analysis.analyse_record`'s outcome for a record with no finding at all, on
    plain values; ``None`` when anything needs the full analysis (a finding, or a part
    missing so that something is taken as written)."""
    values = record  # Record.get: a tag's value, else an inherited default
    scoring = values.get("Scoring")
    if is_unspecified(scoring):
        options = default
    else:
        assert scoring is not None
        got = _scorings.get(scoring)
        if got is None:
            try:
                got = _keep(_scorings, scoring, parse_scoring(scoring))
            except (NotPriffeError, OptionsError):
                return None
        options = got
    # R8: the claimed contract is read as analyse_record reads it.
    text = values.get("Contract")
    claimed: Contract | None = None
    if not is_unspecified(text):
        assert text is not None
        claimed = _contracts.get(text)
        if claimed is None:
            if text.strip().casefold() in FORCING_BIDS:
                return None
            try:
                claimed = _keep(_contracts, text, Contract.parse(text))
            except CallError:
                return None
    section, play_section = record.auction, record.play
    if section is None or not section.kinds or play_section is None or not play_section.kinds:
        return None  # no auction or no play: something is taken as written

    # R1: four different players (names compare case-insensitively).
    players: list[str | None] = []
    seen: set[str] = set()
    for tag in _PLAYERS:
        raw = values.get(tag)
        name = raw.strip() if raw and not is_unspecified(raw) else None
        players.append(name)
        if name is not None:
            key = name.casefold()
            if key in seen:
                return None
            seen.add(key)
    dealer, first, claimed_declarer, lead = (_seat(values, "Dealer"), _seat(values, "Auction"),
                                             _seat(values, "Declarer"), _seat(values, "Play"))
    if dealer is False or first is None or first is False or claimed_declarer is False \
            or lead is None or lead is False:
        return None
    assert not isinstance(dealer, bool) and isinstance(first, Seat)
    assert not isinstance(claimed_declarer, bool) and isinstance(lead, Seat)
    if dealer is not None and first is not dealer.left:
        return None  # R4

    # R2: a complete deal in export form, 13 cards each, every card once.
    deal_text = values.get("Deal")
    deal = parse_deal(deal_text) if deal_text is not None else None
    if deal is None:
        return None
    masks = deal_masks(deal)
    n, e, s, w = masks
    if n is None or e is None or s is None or w is None or (n | e | s | w).bit_count() != 52 \
            or not n.bit_count() == e.bit_count() == s.bit_count() == w.bit_count() == 13:
        return None

    # R4–R8: the auction decides contract and declarer; the tags must agree.
    auction = _auction(section, first)
    if auction is None:
        return None
    contract = auction.contract
    assert contract is not None
    if claimed is not None and claimed is not contract:
        return None
    declarer = auction.declarer
    if _DECLARED[contract]:
        if declarer is None or (claimed_declarer is not None
                                and claimed_declarer is not declarer):
            return None
    elif claimed_declarer is not None:
        return None

    # R10–R13: the opening lead, then the play proven clean on card ids.
    forehand = dealer.left if dealer is not None else first
    if lead is not opening_leader(forehand, declarer, contract, options):
        return None
    play = play_mod.replay(play_section, lead, deal, _TRUMP[contract],
                           must_trump=options.must_trump)
    if play.findings:
        return None
    result = values.get("Result")
    claimed_tricks: SidePoints | None = None
    if not is_unspecified(result):
        assert result is not None
        claimed_tricks = _points_of(result, 13)  # a bare number (PBN) is not read here
        if claimed_tricks is None or min(claimed_tricks.ns, claimed_tricks.ew) < 0 \
                or claimed_tricks.ns + claimed_tricks.ew != 13:
            return None
    if play.complete:
        if claimed_tricks is not None and claimed_tricks != play.won:
            return None
        tricks = play.won
    elif claimed_tricks is None or claimed_tricks.ns < play.won.ns \
            or claimed_tricks.ew < play.won.ew:
        return None
    else:
        tricks = claimed_tricks

    # R14–R17: honours from the hands, the deal's score, each against its claim.
    honours = _honours((n, e, s, w), contract, options)
    claimed_honours = _claimed(values, "Honours")
    if claimed_honours is False or (claimed_honours is not None and claimed_honours != honours):
        return None
    claimed_score = _claimed(values, "Score")
    if claimed_score is False:
        return None
    score_key = (contract, declarer, tricks.ns, honours.ns, honours.ew)  # ew: 13 - ns
    known = _scores.get(score_key)
    if known is None:
        made = score_deal(contract, declarer, tricks, honours)
        known = _keep(_scores, score_key, (made, made.total))
    score, total = known
    if claimed_score is not None and claimed_score != total:
        return None
    return DealOutcome(record=record, options=options, dealer=dealer, players=tuple(players),
                       deal=deal, auction=auction, play=play, contract=contract,
                       declarer=declarer, tricks=tricks, honours=honours, honours_known=True,
                       score=score)


def _claimed(values: Record, name: str) -> SidePoints | bool | None:
    """A claimed ``NS n EW m`` value; ``None`` when unspecified, ``False`` when unreadable."""
    text = values.get(name)
    if is_unspecified(text):
        return None
    assert text is not None
    got = _points_of(text)
    return False if got is None else got

