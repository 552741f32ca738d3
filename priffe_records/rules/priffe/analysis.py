"""One record, checked on its own: deal (R1–R2), auction (R4–R9), play (R10–R13), score (R14–R18).

:func:`analyse_record` computes every fact the record lets us compute and
compares each claimed tag value with it. What the record does not let us
compute (a score sheet has no hands) is taken as written and reported as
*unverifiable*, so the rubber bookkeeping can still go on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace

from priffe_records.format.record import PLAYER_TAGS, Location, Record, TokenKind
from priffe_records.game.calls import Call, CallError, Contract, is_final_bid
from priffe_records.game.cards import (
    FULL_DECK,
    SEATS,
    Card,
    CardError,
    Deal,
    Hand,
    Seat,
    Side,
    Suit,
    sorted_cards,
)
from priffe_records.game.language import Message, listing, msg, msg_n, reason
from priffe_records.game.memo import Memo
from priffe_records.game.tricks import apart, deal_masks, parse_deal
from priffe_records.game.words import (
    card_name,
    lacking_tags,
    seat_from_word,
    seat_hint,
    seat_name,
    suit_name,
    tag_word,
)
from priffe_records.rules.entry import kept_tags
from priffe_records.rules.findings import Finding, error, tag_location, unverifiable, warning
from priffe_records.rules.players import seated_names
from priffe_records.rules.priffe.auction import AuctionResult, run_auction
from priffe_records.rules.priffe.evaluation import honour_tricks, is_guarded, show_hs, suit_values
from priffe_records.rules.priffe.options import (
    PRESETS,
    NotPriffeError,
    Options,
    OptionsError,
    is_unspecified,
    parse_scoring,
)
from priffe_records.rules.priffe.play import PlayResult, opening_leader, replay
from priffe_records.rules.priffe.scoring import (
    ZERO,
    DealScore,
    SidePoints,
    claimed_number,
    declaring_side,
    honour_values,
    known_points,
    parse_points,
    score_deal,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class DealOutcome:
    """What one record shows once the rules have been applied.

    ``priffe`` is false for a record of another game (bridge): it then has a
    single finding and takes no part in the rubber. ``honours`` are computed
    from the hands when they tell, else taken from the record.
    """

    record: Record
    priffe: bool = True
    options: Options = PRESETS["sv"]
    dealer: Seat | None = None
    players: tuple[str | None, ...] = (None, None, None, None)
    deal: Deal | None = None
    auction: AuctionResult | None = None
    play: PlayResult | None = None
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: SidePoints | None = None
    honours: SidePoints | None = None
    honours_known: bool = False  # from the hands or the Honours tag (not what Score leaves)
    score: DealScore | None = None
    findings: tuple[Finding, ...] = field(default=())
    index: int = 0  # 1-based position in the validated sequence, set by the driver

    def player(self, seat: Seat) -> str | None:
        return self.players[seat.index]

    @property
    def in_family(self) -> bool:
        return self.priffe

    @property
    def is_diagram(self) -> bool:
        """A deal shown without auction or contract: not a deal of the partie.

        A Contract written but unreadable (``Nol``) is a deal that could not be
        scored, not a diagram: leaving it out would drop a deal from the sheet.
        """
        return self.priffe and self.contract is None and self.auction is None \
            and is_unspecified(self.record.get("Contract"))

    def placed(self, index: int) -> DealOutcome:
        # A copy field by field: dataclasses.replace is slower, once a deal.
        new = object.__new__(DealOutcome)
        for name in _FIELDS:
            object.__setattr__(new, name, getattr(self, name))
        object.__setattr__(new, "index", index)
        if self.findings:
            object.__setattr__(new, "findings",
                               tuple(f.at_record(index) for f in self.findings))
        return new


_FIELDS = tuple(f.name for f in fields(DealOutcome))


_BARE_NUMBER = re.compile(r"^\s*\d+\s*$")
_BARE_SCORE = re.compile(r"^\s*[+-]?\d+\s*$")
_CONTRACT_WORDS = "Spela, Noll, Hjärter, Ruter, Tvångsnoll, Passnoll"


def _claim(record: Record, name: str, rule: str, findings: list[Finding],
           total: int | None = None) -> SidePoints | None:
    """A claimed ``NS n EW m`` value; a malformed one is an error, then ignored."""
    text = record.get(name)
    if text is None:
        return None
    got = known_points(text, total)
    if got is not None or is_unspecified(text):
        return got  # read before, or nothing claimed
    try:
        return parse_points(text, total)
    except ValueError as e:
        findings.append(error(rule, msg("{tag} {reason}", tag=tag_word(name), reason=reason(e)),
                              tag_location(record, name)))
        return None


def _claim_score(record: Record, contract: Contract | None, declarer: Seat | None,
                 findings: list[Finding]) -> SidePoints | None:
    """Score as ``NS n EW m`` (or ``n–m``); a bare number is the declaring side's points.

    PBN's ``<score>`` is the declarer's score, as a bare Result is the declarer's
    tricks: the other side's part (its honours) is then 0, and a Score whose
    honours went the other way says so by not matching.
    """
    text = record.get("Score")
    if text is None:
        return None
    known = known_points(text)  # read before as 'NS n EW m' (a bare number never is)
    if known is not None:
        return known
    if not _BARE_SCORE.match(text):
        return _claim(record, "Score", "R15", findings)
    side = declaring_side(contract, declarer) if contract is not None else None
    if side is None:
        findings.append(error("R15", msg("Score {text!r} does not say which side scored: write "
                                         "'NS n EW m'", text=text),
                              tag_location(record, "Score")))
        return None
    try:
        n = claimed_number(text.strip(), text)
    except ValueError as e:
        findings.append(error("R15", msg("{tag} {reason}", tag=tag_word("Score"), reason=reason(e)),
                              tag_location(record, "Score")))
        return None
    return SidePoints.one(side, n) if n >= 0 else SidePoints.one(side.other, -n)


def _check_players(record: Record, findings: list[Finding]) -> tuple[str | None, ...]:
    """R1: four different players, one per seat."""
    names, twice = seated_names(record, SEATS)
    for name, first, second in twice:
        findings.append(error("R1", msg("{name} sits both {seat} and {other}: four "
                                        "players, one per seat", name=name,
                                        seat=seat_name(first), other=seat_name(second)),
                              tag_location(record, PLAYER_TAGS[second])))
    return tuple(names)


def _seat_tag(record: Record, name: str, rule: str, findings: list[Finding]) -> Seat | None:
    text = record.get(name)
    if text is None:
        return None
    seat = _SEAT.get(text)
    if seat is not None or is_unspecified(text):
        return seat  # a seat letter as written in export form, or none given
    seat = seat_from_word(text)
    where = tag_location(record, name)
    if seat is not None or any(e.location == where and not e.is_warning for e in record.errors):
        return seat  # a seat, or one the reader has already said is none: one error a mistake
    hint = seat_hint(text, {s: record.get(tag) for s, tag in PLAYER_TAGS.items()})
    findings.append(error(rule, msg("{tag} {text!r} is not a seat (N, E, S or W)",
                                    tag=tag_word(name), text=text) if hint is None else
                          msg("{tag} {text!r} is not a seat (N, E, S or W); {hint}",
                              tag=tag_word(name), text=text, hint=hint), where))
    return None


def check_deal(record: Record, findings: list[Finding]) -> Deal | None:
    """R2: 13 cards each, every card once; an unknown hand (``-``) is allowed.

    With exactly one hand unknown it is deduced from the other three, which
    is certain, not a guess.
    """
    text = record.get("Deal")
    if text is None or is_unspecified(text):
        return None
    fast = parse_deal(text)
    if fast is not None:
        deal = fast
        n, e, s, w = deal_masks(deal)
        if n is not None and e is not None and s is not None and w is not None \
                and n.bit_count() == e.bit_count() == s.bit_count() == w.bit_count() == 13 \
                and apart(deal):
            return deal  # the common case: a whole deal, nothing to say
    else:
        try:
            deal = Deal.parse(text)
        except CardError as e:
            findings.append(error("R2", msg("Deal: {reason}", reason=e.message),
                                  tag_location(record, "Deal", column=e.column)))
            return None
    known = [h for h in deal.hands if h is not None]
    masks = [m for m in deal_masks(deal) if m is not None]
    union = 0
    for m in masks:
        union |= m
    if all(len(h) == 13 for h in known) and union.bit_count() == 13 * len(known):
        ok = True  # the common case, on bit masks; the loop below names what is wrong
        where = dict.fromkeys((c for h in known for c in h.cards), Seat.N) \
            if len(known) == 3 else {}
    else:
        ok, where = _deal_faults(deal, tag_location(record, "Deal"), findings)
    if not ok:
        return None
    unknown = [s for s in SEATS if deal.hand(s) is None]
    if len(unknown) == 1:
        rest = FULL_DECK - where.keys()
        hands = list(deal.hands)
        hands[unknown[0].index] = Hand(tuple(sorted_cards(rest)))
        deal = Deal((hands[0], hands[1], hands[2], hands[3]))
    return deal


def _deal_faults(deal: Deal, loc: Location | None, findings: list[Finding]
                 ) -> tuple[bool, dict[Card, Seat]]:
    """R2 findings naming each short hand and each card dealt twice."""
    ok = True
    where: dict[Card, Seat] = {}
    for seat in SEATS:
        hand = deal.hand(seat)
        if hand is None:
            continue
        if len(hand) != 13:
            ok = False
            findings.append(error("R2", msg("{seat} is dealt {count} cards; each player holds "
                                            "13", seat=seat_name(seat), count=len(hand)),
                                  loc))
        for c in hand.cards:
            if c in where:
                ok = False
                other = where[c]
                twice = (msg("{card} is dealt twice to {seat}: a deal uses every card once",
                              card=card_name(c), seat=seat_name(seat)) if other is seat
                         else msg("{card} is dealt to both {seat} and {other}: a deal uses "
                                  "every card once", card=card_name(c),
                                  seat=seat_name(other), other=seat_name(seat)))
                findings.append(error("R2", twice, loc))
            where[c] = seat
    return ok, where


def _conventions(auction: AuctionResult, deal: Deal | None, findings: list[Finding]) -> None:
    """R9: what an opening bid by forehand promises (warnings only)."""
    if not auction.calls or deal is None:
        return
    first = auction.calls[0]
    hand = deal.hand(first.seat)
    if hand is None or first.call is None or not first.call.is_bid:
        return
    hs = honour_tricks(hand)
    per_suit = suit_values(hand.cards)
    length = {s: sum(1 for c in hand.cards if c.suit is s) for s in Suit}
    call = first.call
    why: Message | None = None
    if call in (Call.HJARTER, Call.RUTER):
        suit = Suit.H if call is Call.HJARTER else Suit.D
        if hs < 2.5 or length[suit] < 5:
            why = msg("at least 2½ hs and 5 {suit}", suit=suit_name(suit))
        elif call is Call.RUTER and not is_guarded(hand, Suit.H):
            why = msg("hearts guarded")
    elif call is Call.NOLL and not 2 <= hs <= 3:
        why = msg("2–3 hs")
    elif call is Call.SPADER and not (4 <= hs <= 4.5 and sum(1 for v in per_suit.values() if v)
                                      >= 3):
        why = msg("4–4½ hs in at least three suits")
    elif call is Call.KLOVER and not (2.5 <= hs <= 3.5
                                      and sum(1 for s in Suit if is_guarded(hand, s)) >= 3):
        why = msg("2½–3½ hs with at least three suits guarded")
    if why is not None:
        findings.append(warning("R9", msg("forehand {seat} opens {call} with {hs} hs; the "
                                          "convention expects {why}",
                                          seat=seat_name(first.seat), call=call.value,
                                          hs=show_hs(hs), why=why),
                                first.token.location))


def _parse_result(record: Record, contract: Contract | None, declarer: Seat | None,
                  findings: list[Finding]) -> SidePoints | None:
    """Result as ``NS n EW m``; a bare number is the declaring side's tricks (PBN)."""
    text = record.get("Result")
    if text is None:
        return None
    known = known_points(text, 13)  # read before as 'NS n EW m' (a bare number never is)
    if known is not None and min(known.ns, known.ew) >= 0 and known.ns + known.ew == 13:
        return known
    if is_unspecified(text):
        return None
    if _BARE_NUMBER.match(text):
        loc = tag_location(record, "Result")
        side = declaring_side(contract, declarer) if contract is not None else None
        if side is None:
            findings.append(error("R12", msg("Result {text!r} does not say which side took the "
                                             "tricks: write 'NS n EW m'", text=text), loc))
            return None
        n = int(text) if len(text.strip()) <= 3 else 14  # 4,300 digits would raise
        if n > 13:
            findings.append(error("R12", msg("Result {text}: a side takes 0 to 13 tricks",
                                             text=_short(text)), loc))
            return None
        return SidePoints.one(side, n) + SidePoints.one(side.other, 13 - n)
    res = _claim(record, "Result", "R12", findings, total=13)
    if res is None:
        return None
    if min(res.ns, res.ew) >= 0 and res.ns + res.ew == 13:
        return res  # the common case: nothing to say
    loc = tag_location(record, "Result")
    if min(res.ns, res.ew) < 0 or max(res.ns, res.ew) > 13:
        findings.append(error("R12", msg("Result {text}: a side takes 0 to 13 tricks",
                                         text=repr(text)), loc))
        return None
    if res.ns + res.ew != 13:
        findings.append(error("R12", msg("Result {text!r} makes {count} tricks; there are 13",
                                          text=text, count=res.ns + res.ew), loc))
        return None
    return res


def _short(text: str, limit: int = 24) -> str:
    """A tag value quoted for a message, cut short when it is huge (20 digits and more)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _score_rule(claimed: SidePoints, ds: DealScore) -> str:
    """Which part of the score a wrong claim most likely missed."""
    diff = ds.total - claimed
    side = ds.scoring_side
    tricks = SidePoints.one(side.other, ds.trick_points + ds.slam) + ds.honours
    if claimed == tricks:
        return "R14"  # the other side credited with the tricks
    if ds.slam and diff == SidePoints.one(side, ds.slam):
        return "R16"
    if ds.honours != SidePoints() and diff == ds.honours:
        return "R17"
    return "R15"


def _values(values: frozenset[SidePoints]) -> Message:
    """Honour scores as a message lists them: ``NS 0 EW 40 or NS 0 EW 50``."""
    return listing([str(v) for v in sorted(values, key=lambda v: (v.ns, v.ew))], "or")


def _open_score(record: Record, claimed: SidePoints, bare: DealScore,
                values: frozenset[SidePoints], options: Options) -> Finding:
    """A claimed Score that no honours the known hands allow can give (R17 when it is
    the tricks plus honours R17 can give elsewhere, else R15)."""
    totals = [str(bare.total + v) for v in sorted(values, key=lambda v: (v.ns, v.ew))]
    rule = "R17" if claimed - bare.total in _HONOUR_VALUES else "R15"
    return error(rule, msg("Score says {claimed}, but with the honours the known hands allow "
                           "({values}, {variant}) the deal scores {totals}",
                           claimed=claimed, values=_values(values),
                           variant=options.honours.said(), totals=listing(totals, "or")),
                 tag_location(record, "Score"))


def _open_note(record: Record, values: frozenset[SidePoints], used: SidePoints | None,
               from_tag: bool, options: Options) -> Finding:
    """What open honours leave unchecked: the claim that settled them, or the score."""
    if used is None:
        return unverifiable("R17", msg("the known hands leave the honours open ({values}), so "
                                       "the deal's score is not known ({variant})",
                                       values=_values(values), variant=options.honours.said()),
                            tag_location(record, "Deal"))
    tag = "Honours" if from_tag else "Score"
    return unverifiable("R17", msg("the known hands leave the honours open ({values}): {tag} "
                                   "is taken as written ({variant})",
                                   values=_values(values), tag=tag_word(tag),
                                   variant=options.honours.said()),
                        tag_location(record, tag))


def _score_breakdown(ds: DealScore) -> Message:
    side = ds.scoring_side.value
    parts = [msg("{side} {n} penalty tricks {points}", side=side, n=ds.n, points=ds.trick_points)
             if ds.penalty else
             msg("{side} {n} tricks {points}", side=side, n=ds.n, points=ds.trick_points)]
    if ds.slam:
        parts.append(Message("{slam} {points}", {"slam": ds.slam_name, "points": ds.slam}))
    if ds.honours != SidePoints():
        parts.append(msg("honours {points}", points=ds.honours))
    return listing(parts, None)


def _tricks(record: Record, play: PlayResult | None, claimed_tricks: SidePoints | None,
            f: list[Finding]) -> SidePoints | None:
    """Tricks from a complete play, else from Result, checked against a claim (R12, R13)."""
    tricks = claimed_tricks
    if play is not None:
        if play.complete:
            tricks = play.won
            if claimed_tricks is not None and claimed_tricks != play.won:
                f.append(error("R12", msg("Result says {claimed}, but the play gives {won}",
                                           claimed=claimed_tricks, won=play.won),
                               tag_location(record, "Result")))
        elif claimed_tricks is None:
            if play.claimed:
                f.append(error("R13", msg("the play ends with a claim '*' but no Result gives "
                                          "the final tricks"),
                               tag_location(record, "Result")))
        else:
            short = [side for side in Side if claimed_tricks[side] < play.won[side]]
            if short:
                side = short[0]
                rule = "R13" if play.claimed else "R12"
                f.append(error(rule, msg("Result gives {side} {claimed} tricks, but {side} won "
                                         "{won} in the play before it ended",
                                         side=side.value, claimed=claimed_tricks[side],
                                         won=play.won[side]),
                               tag_location(record, "Result")))
                tricks = None
    return tricks


def _not_checked(record: Record, contract: Contract | None, auction: AuctionResult | None,
                 play: PlayResult | None, deal: Deal | None, tricks: SidePoints | None,
                 honours_from_hands: bool) -> Finding | None:
    """One finding naming what was taken as written because the record lacks a part."""
    missing: list[Message] = []
    rules: list[str] = []
    if auction is None or auction.contract is None:
        missing.append(msg("contract"))
        if contract is None or contract.has_declarer:
            missing.append(msg("declarer"))
        rules.append("R8")
    no_tricks = play is None and tricks is not None
    if no_tricks:
        missing.append(msg("tricks"))
        rules.append("R12")
    if not honours_from_hands and contract is not None:
        missing.append(msg("honours"))
        rules.append("R17")
    if missing:
        lacking = [n for n, have in (("Auction", auction is not None),
                                     ("Play", play is not None or not no_tricks),
                                     ("Deal", deal is not None)) if not have]
        why = lacking_tags(lacking) if lacking else msg("incomplete record")
        return unverifiable(rules[0], msg_n("not checked ({why}): {what} is taken as written",
                                            "not checked ({why}): {what} are taken as written",
                                            len(missing), why=why, what=listing(missing, "and")),
                            record.location, also=tuple(rules[1:]))
    return None


def not_priffe(record: Record, rule: str, message: Message,
               location: Location | None) -> DealOutcome:
    return DealOutcome(record=record, priffe=False,
                       findings=(error(rule, message, location),))


def analyse_record(record: Record, default: Options = PRESETS["sv"],
                   conventions: bool = False) -> DealOutcome:
    """Check one record against R1–R18 and its claimed tag values.

    ``default`` are the rules for a record without a Scoring value. Each step takes
    the plain way first (a tag read as export form writes it, a remembered reading of
    a text seen before, card ids and bit masks) and words a finding, with its place,
    only where something is wrong.
    """
    f: list[Finding] = []
    try:
        scoring = record.get("Scoring")
        options = default if scoring is None or is_unspecified(scoring) else (
            _SCORINGS.get(scoring) or _scoring(scoring))
    except NotPriffeError as e:
        return not_priffe(record, "Presets", msg("not a Priffe record: {reason}",
                                                 reason=reason(e)),
                          tag_location(record, "Scoring"))
    except OptionsError as e:
        f.append(error("Presets", msg("{reason}; the record is checked with preset {preset}",
                                      reason=reason(e), preset=default.preset),
                       tag_location(record, "Scoring")))
        options = default
    contract_text = record.get("Contract")
    claimed_contract: Contract | None = None
    if is_unspecified(contract_text) or contract_text is None:
        pass
    elif (known := _CONTRACTS.get(contract_text)) is not None:
        claimed_contract = known  # read before, without a finding
    else:
        written = contract_text
        if is_final_bid(contract_text):
            # A final bid written where the contract goes (R8): its meaning is certain.
            f.append(error("R8", msg("Contract {text!r} is a final bid, not a contract: a final "
                                     "Spader or Klöver makes the contract Tvångsnoll; write "
                                     "Contract \"Tvångsnoll\"", text=contract_text.strip()),
                           tag_location(record, "Contract")))
            contract_text = Contract.TVANGSNOLL.value
        try:
            claimed_contract = Contract.parse(contract_text)
            if contract_text is written:  # not a final bid read as Tvångsnoll: no finding
                _CONTRACTS.keep(written, claimed_contract)
        except CallError as e:
            why = reason(e)
            if e.suggestion is None:
                return not_priffe(record, "R8", msg("not a Priffe record: contract {text!r} is "
                                                    "not a Priffe contract ({words})",
                                                    text=contract_text, words=_CONTRACT_WORDS),
                                  tag_location(record, "Contract"))
            f.append(error("R8", msg("Contract: {reason}", reason=why),
                           tag_location(record, "Contract")))
    section = record.auction
    if section is not None and section.kinds.count(TokenKind.CALL) != len(section.kinds) \
            and TokenKind.FOREIGN in section.kinds:  # (counting matches by identity: fast)
        i = section.kinds.index(TokenKind.FOREIGN)
        return not_priffe(record, "R5", msg("not a Priffe record: bridge call {call!r} in "
                                            "the auction (Priffe calls: Pass Klöver Spader "
                                            "Ruter Hjärter Noll Spela)",
                                            call=section.texts[i]), section.location_at(i))

    players = _check_players(record, f)
    dealer = _seat_tag(record, "Dealer", "R3", f)
    deal = check_deal(record, f)
    forehand = dealer.left if dealer is not None else None

    # Auction (R4–R8) and the Contract/Declarer tags it decides.
    auction: AuctionResult | None = None
    if section is not None and section.kinds:
        first = _seat_tag(record, "Auction", "R4", f)
        if first is not None:
            if dealer is not None and first is not dealer.left:
                f.append(error("R4", msg("the auction starts with {seat}, but forehand is "
                                         "{forehand}, left of the dealer {dealer}",
                                         seat=seat_name(first), forehand=seat_name(dealer.left),
                                         dealer=seat_name(dealer)),
                               tag_location(record, "Auction")))
            forehand = forehand or first
            auction = run_auction(section, first)
            f.extend(auction.findings)
            if conventions:
                _conventions(auction, deal, f)
    contract = claimed_contract
    if auction is not None and auction.contract is not None:
        if claimed_contract is not None and claimed_contract is not auction.contract:
            f.append(error("R8", msg("Contract says {claimed}, but the auction gives {contract}",
                                      claimed=claimed_contract.value,
                                     contract=auction.contract.value),
                           tag_location(record, "Contract")))
        contract = auction.contract
    claimed_declarer = _seat_tag(record, "Declarer", "R7", f)
    declarer = claimed_declarer
    if auction is not None and auction.contract is not None:
        declarer = auction.declarer
        if auction.declarer is not None and claimed_declarer is not None \
                and claimed_declarer is not auction.declarer:
            f.append(error("R7", msg("Declarer says {claimed}, but {seat} made the final bid",
                                      claimed=seat_name(claimed_declarer),
                                     seat=seat_name(auction.declarer)),
                           tag_location(record, "Declarer")))
    if contract is not None:
        if not contract.has_declarer:
            if claimed_declarer is not None:
                f.append(error("R8", msg("{contract} has no declarer, but Declarer says "
                                         "{seat}: write Declarer \"\"",
                                         contract=contract.value,
                                         seat=seat_name(claimed_declarer)),
                               tag_location(record, "Declarer")))
            declarer = None
        elif declarer is None and (claimed_declarer is not None
                                   or is_unspecified(record.get("Declarer"))):
            # (a Declarer given that is no seat has had its one error above)
            f.append(error("R7", msg("{contract} needs a Declarer: the seat that made the final "
                                     "bid", contract=contract.value),
                           tag_location(record, "Declarer")))
    elif auction is None or auction.complete:
        # An unread Auction or an unreadable Contract: its own error says it.
        if not any(t.name == "Auction" for t in record.unread) and is_unspecified(contract_text):
            f.append(warning("R8", msg("the record names no contract and has no auction: "
                                       "nothing to score"), record.location))
        return DealOutcome(record=record, options=options, dealer=dealer, players=players,
                           deal=deal, auction=auction, findings=tuple(f))

    # Play (R10–R13).
    play: PlayResult | None = None
    play_section = record.play
    if play_section is not None and play_section.kinds:
        lead = _seat_tag(record, "Play", "R10", f)
        if lead is not None and contract is None:
            f.append(unverifiable("R12", msg("the contract is not known, so the trumps and the "
                                             "trick winners are not either"),
                                  tag_location(record, "Play")))
        elif lead is not None and contract is not None:
            if forehand is not None:
                expected = opening_leader(forehand, declarer, contract, options)
                if lead is not expected:
                    f.append(error("R10", msg("the play starts with {seat}, but {leader} leads "
                                              "to the first trick", seat=seat_name(lead),
                                              leader=seat_name(expected)),
                                   tag_location(record, "Play")))
            play = replay(play_section, lead, deal, contract.trump,
                          must_trump=options.must_trump)
            f.extend(play.findings)

    tricks = _tricks(record, play, _parse_result(record, contract, declarer, f), f)

    # Honours (R17): from the hands when they tell, else as written.
    claimed_honours = _claim(record, "Honours", "R17", f)
    possible = honour_values(deal, contract, options) if deal is not None and contract \
        else None
    computed_honours = next(iter(possible)) if possible is not None and len(possible) == 1 \
        else None
    # Known hands that bound the honours without settling them (R17): a value outside the
    # bound is wrong, one inside it unverifiable, and no value is never a silent 0.
    open_honours = possible if possible is not None and len(possible) > 1 else None
    if computed_honours is not None and claimed_honours is not None \
            and computed_honours != claimed_honours:
        f.append(error("R17", msg("Honours says {claimed}, but the hands give {computed} ("
                                  "{variant})", claimed=claimed_honours,
                                  computed=computed_honours, variant=options.honours.said()),
                       tag_location(record, "Honours")))
    elif open_honours is not None and claimed_honours is not None \
            and claimed_honours not in open_honours:
        f.append(error("R17", msg("Honours says {claimed}, but the known hands allow only "
                                  "{values} ({variant})", claimed=claimed_honours,
                                  values=_values(open_honours), variant=options.honours.said()),
                       tag_location(record, "Honours")))
        claimed_honours = None
    elif possible is None and claimed_honours is not None \
            and claimed_honours not in _HONOUR_VALUES:
        # Taken as written it would go into the score: only what R17 can give is honours.
        f.append(error("R17", msg("Honours says {claimed}, which R17 never gives: honours are "
                                  "0, or 20, 40 or 50 to one side",
                                  claimed=claimed_honours),
                       tag_location(record, "Honours")))
        claimed_honours = None
    used_honours = computed_honours if computed_honours is not None else claimed_honours

    # The deal's score (R14–R17).
    score: DealScore | None = None
    claimed_score = _claim_score(record, contract, declarer, f)
    open_note = open_honours is not None
    if contract is not None and tricks is not None and (declarer or not contract.has_declarer):
        if used_honours is None and claimed_score is not None:
            # An old sheet without an Honours column: honours are what the score leaves,
            # within what the known hands allow.
            bare = score_deal(contract, declarer, tricks, SidePoints())
            rest = claimed_score - bare.total
            if rest in (open_honours or _HONOUR_VALUES):
                used_honours = rest
            elif open_honours is not None:
                f.append(_open_score(record, claimed_score, bare, open_honours, options))
                open_note = False
        if used_honours is not None or open_honours is None:
            score = _score(contract, declarer, tricks, used_honours or ZERO)
    if open_note:
        assert open_honours is not None
        f.append(_open_note(record, open_honours, used_honours, claimed_honours is not None,
                            options))
    if score is not None:
        if claimed_score is not None and claimed_score != score.total:
            rule = _score_rule(claimed_score, score)
            if "Score" in kept_tags(record):  # the secretary kept the paper's points
                f.append(warning(rule, msg("the points {claimed} are kept as written on the "
                                           "paper; the rules give {total} ({breakdown})",
                                           claimed=claimed_score, total=score.total,
                                           breakdown=_score_breakdown(score)),
                                 tag_location(record, "Score")))
                score = replace(score, written=claimed_score)
            else:
                f.append(error(rule, msg("Score says {claimed}, but the deal scores {total} "
                                         "({breakdown})", claimed=claimed_score,
                                         total=score.total, breakdown=_score_breakdown(score)),
                               tag_location(record, "Score")))
    elif contract is not None and tricks is None and not any(
            x.rule in ("R12", "R13") and x.is_error for x in f):
        f.append(unverifiable("R14", msg("the tricks are not known (no Result and no complete "
                                         "play), so the deal cannot be scored"),
                              record.location))

    note = _not_checked(record, contract, auction, play, deal, tricks, possible is not None)
    if note is not None:
        f.append(note)
    return DealOutcome(record=record, options=options, dealer=dealer, players=players,
                       deal=deal, auction=auction, play=play, contract=contract,
                       declarer=declarer, tricks=tricks, honours=used_honours,
                       honours_known=computed_honours is not None or claimed_honours is not None,
                       score=score, findings=tuple(f))


def _scoring(text: str) -> Options:
    """``parse_scoring``, remembered by text (a file has a few Scoring values); raises as
    it does, and a text that raises is never remembered."""
    got = _SCORINGS.get(text)
    if got is None:
        got = _SCORINGS.keep(text, parse_scoring(text))
    return got


def _score(contract: Contract, declarer: Seat | None, tricks: SidePoints,
           honours: SidePoints) -> DealScore:
    """``score_deal``, remembered (a partie repeats its few contracts and results)."""
    key = (contract, declarer, tricks.ns, tricks.ew, honours.ns, honours.ew)
    got = _SCORES.get(key)
    if got is None:
        got = _SCORES.keep(key, score_deal(contract, declarer, tricks, honours))
    return got


_SEAT: dict[str, Seat] = {s.value: s for s in SEATS}
# Readings of tag texts (Contract, Scoring) and scores, by plain ints and texts: Enum and
# dataclass hashes run Python code.
_CONTRACTS: Memo[str, Contract] = Memo()
_SCORINGS: Memo[str, Options] = Memo()
_SCORES: Memo[tuple[Contract, Seat | None, int, int, int, int], DealScore] = Memo()
# Every value R17 can give, under either variant.
_HONOUR_VALUES = frozenset({SidePoints()} | {SidePoints.one(s, v) for s in Side
                                             for v in (20, 40, 50)})
