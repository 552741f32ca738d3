"""One Préférence record checked on its own (P1–P12), and its claimed Declarer and Result (P14).

Like the Priffe analysis, every fact the record lets us compute is computed
and compared with what it claims; what it does not let us compute is taken
as written and said so (*unverifiable*). The pot and the balances depend on
the deals before, so Score, Pot and Balance are checked by the partie's
books (:mod:`.books`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from priffe_records.format.record import PLAYER_TAGS, Record
from priffe_records.game.cards import Card, CardError, Hand, Seat
from priffe_records.game.language import Message, listing, msg, reason
from priffe_records.game.tricks import cards_of, hand_mask
from priffe_records.game.words import card_name, lacking_word, seat_name, tag_word
from priffe_records.rules.findings import Finding, error, tag_location, unverifiable, warning
from priffe_records.rules.players import seated_names
from priffe_records.rules.preference.bids import CONTRACTS, Bid

from .auction import AuctionResult, run_auction
from .deal import Cards, check_deal, given, parse_cards
from .options import DEFAULT_OPTIONS, PrefOptions, read_options
from .payments import Payments, payments
from .play import PrefPlay, play_seats, replay_play
from .table import PLAYERS, next_player, seat_numbers

_CONTRACT_WORDS = " ".join(b.value for b in CONTRACTS)


@dataclass(frozen=True, slots=True)
class PrefOutcome:
    """What one Préférence record shows once P1–P12 have been applied."""

    record: Record
    options: PrefOptions = DEFAULT_OPTIONS
    dealer: Seat | None = None
    players: tuple[str | None, str | None, str | None] = (None, None, None)  # N, E, S
    cards: Cards | None = None
    auction: AuctionResult | None = None
    contract: Bid | None = None
    declarer: Seat | None = None
    discard: tuple[Card, ...] | None = None
    dropouts: tuple[Seat, ...] = ()  # accepted drop-outs and give-up, in order
    gave_up: bool = False
    play: PrefPlay | None = None
    tricks: dict[Seat, int] | None = None
    payments: Payments | None = None
    findings: tuple[Finding, ...] = field(default=())
    index: int = 0

    in_family = True

    @property
    def is_diagram(self) -> bool:
        """A deal shown without auction or contract: not a deal of the partie."""
        return self.contract is None and self.auction is None and self.declarer is None \
            and not given(self.record.get("Score"))

    def placed(self, index: int) -> PrefOutcome:
        return PrefOutcome(self.record, self.options, self.dealer, self.players, self.cards,
                           self.auction, self.contract, self.declarer, self.discard,
                           self.dropouts, self.gave_up, self.play, self.tricks, self.payments,
                           tuple(f.at_record(index) for f in self.findings), index)

    def player(self, seat: Seat) -> str | None:
        return self.players[PLAYERS.index(seat)] if seat in PLAYERS else None

    @property
    def out(self) -> tuple[Seat, ...]:
        """Defenders who dropped out (the declarer's give-up excluded)."""
        return _out(self.dropouts, self.declarer)

    @property
    def no_play(self) -> bool:
        return _no_play(self.gave_up, self.declarer, self.out)


_SEAT_LETTER = {s.value: s for s in Seat}


def _out(dropouts: tuple[Seat, ...], declarer: Seat | None) -> tuple[Seat, ...]:
    return tuple(s for s in dropouts if s is not declarer)


def _no_play(gave_up: bool, declarer: Seat | None, out: tuple[Seat, ...]) -> bool:
    """The deal ended before the first card: the declarer gave up, or both defenders
    dropped out (P9)."""
    return gave_up or (declarer is not None and len(out) == 2)


def _seat(record: Record, name: str, rule: str, f: list[Finding],
          allow_w: bool = False) -> Seat | None:
    text = record.get(name)
    if text is None:
        return None
    seat = _SEAT_LETTER.get(text)  # a seat as export form writes it
    if seat is not None and (seat is not Seat.W or allow_w):
        return seat
    if not given(text):
        return None
    try:
        seat = Seat.parse(text)
    except CardError:
        f.append(error(rule, msg("{name} {text!r} is not a seat (N, E or S)",
                           name=tag_word(name), text=text),
                       tag_location(record, name)))
        return None
    if seat is Seat.W and not allow_w:
        f.append(error(rule, msg("{name} is W, but W stays empty in Préférence: N, E or S",
                           name=tag_word(name)),
                       tag_location(record, name)))
        return None
    return seat


def _players(record: Record, f: list[Finding]) -> tuple[str | None, str | None, str | None]:
    west = record.get("West")
    if given(west):
        f.append(error("P1", msg("West is {west!r}, but Préférence has three players at N, "
                                 "E and S: W stays empty", west=west),
                       tag_location(record, "West")))
    names, twice = seated_names(record, PLAYERS, dash=True)
    for name, first, second in twice:
        f.append(error("P1", msg("{name} sits both {first} and {second}: three players, "
                                 "one per seat", name=name,
                                 first=seat_name(first), second=seat_name(second)),
                       tag_location(record, PLAYER_TAGS[second])))
    return (names[0], names[1], names[2])


def _contract(record: Record, auction: AuctionResult | None, f: list[Finding]) -> Bid | None:
    """The Contract tag, checked against the final bid (P8)."""
    text = record.get("Contract")
    if not given(text):
        return None
    assert text is not None
    loc = tag_location(record, "Contract")
    try:
        contract = Bid.parse(text)
    except ValueError as e:
        f.append(error("P8", msg("Contract: {reason} (contracts: {words})",
                                   reason=reason(e), words=_CONTRACT_WORDS), loc))
        return None
    if contract is Bid.PASS:
        f.append(error("P8", msg("Contract 'Pass' names no trumps (contracts: {words})",
                                   words=_CONTRACT_WORDS), loc))
        return None
    final = auction.final if auction is not None else None
    if final is not None:
        if contract.is_hand != final.is_hand:
            why = (msg("a hand bid makes a hand contract") if final.is_hand
                   else msg("a talon bid makes a talon contract"))
            f.append(error("P8", msg("Contract {contract} after the final bid {final}: "
                                     "{why}", contract=contract.value,
                                     final=final.value, why=why), loc))
        elif contract.suit_value < final.suit_value:
            f.append(error("P8", msg("Contract {contract} is below the final bid {final}: "
                                     "the trumps must be worth at least the bid",
                                     contract=contract.value, final=final.value),
                           loc))
    return contract


def _dropouts(record: Record, declarer: Seat | None, f: list[Finding]
              ) -> tuple[tuple[Seat, ...], bool]:
    """P9: the accepted drop-outs in order and whether the declarer gave up."""
    text = record.get("Dropout")
    if not given(text):
        return (), False
    assert text is not None
    loc = tag_location(record, "Dropout")
    accepted: list[Seat] = []
    gave_up = False
    for word in text.split():
        try:
            seat = Seat.parse(word)
        except CardError:
            f.append(error("P9", msg("Dropout {word!r} is not a seat (N, E or S)", word=word),
                           loc))
            continue
        if seat is Seat.W:
            f.append(error("P9", msg("Dropout W: W stays empty in Préférence"), loc))
            continue
        out = [s for s in accepted if s is not declarer]
        if gave_up or len(out) == 2:
            what = (msg("the declarer gave up") if gave_up
                    else msg("both defenders dropped out"))
            f.append(error("P9", msg("{seat} drops out after {what}: that ended the deal, so "
                                     "this entry is ignored", seat=seat_name(seat),
                                     what=what), loc))
            continue
        if seat in accepted:
            f.append(error("P9", msg("{seat} drops out twice", seat=seat_name(seat)), loc))
            continue
        accepted.append(seat)
        if seat is declarer:
            gave_up = True
    return tuple(accepted), gave_up


def _result(record: Record, seats: tuple[Seat, ...] | None, f: list[Finding]
            ) -> dict[Seat, int] | None:
    """The Result tag: tricks of each playing seat, ten in all."""
    text = record.get("Result")
    if not given(text):
        return None
    assert text is not None
    try:
        raw = seat_numbers(text, scores=False)
    except ValueError as e:
        f.append(error("P14", msg("Result {reason}", reason=reason(e)),
                       tag_location(record, "Result")))
        return None
    tricks = dict(raw)
    if seats is not None and set(tricks) != set(seats):
        who = " ".join(s.value for s in seats)
        f.append(error("P14", msg("Result {text!r} must give the tricks of the seats that play: "
                                    "{who}", text=text, who=who),
                       tag_location(record, "Result")))
        return None
    if sum(tricks.values()) != 10:
        f.append(error("P14", msg("Result {text!r} makes {count} tricks; there are 10",
                                    text=text, count=sum(tricks.values())),
                       tag_location(record, "Result")))
        return None
    return tricks


def _discard(record: Record, contract: Bid | None, final: Bid | None, declarer: Seat | None,
             cards: Cards | None, f: list[Finding]) -> tuple[Card, ...] | None:
    """P7: two discards from the declarer's twelve after a talon bid; none after a hand bid."""
    text = record.get("Discard")
    loc = tag_location(record, "Discard")
    decided = final or contract
    hand_game = decided.is_hand if decided is not None else None
    if not given(text):
        return None
    assert text is not None
    if hand_game:
        f.append(error("P7", msg("Discard {text!r} after a hand bid: the talon is not touched "
                                   "and there is no discard", text=text), loc))
        return None
    try:
        discard = parse_cards(text)
    except CardError as e:
        f.append(error("P7", msg("Discard: {reason}", reason=reason(e)), loc))
        return None
    if len(discard) != 2 or len(set(discard)) != 2:
        f.append(error("P7", msg("Discard {text!r} must be two different cards", text=text),
                       loc))
        return None
    if declarer is not None and cards is not None:
        hand = cards.hand(declarer)
        if hand is not None and cards.talon is not None:
            twelve = set(hand.cards) | set(cards.talon)
            for c in discard:
                if c not in twelve:
                    f.append(error("P7", msg("{seat} discards {card}, which is neither in his "
                                                 "hand nor in the talon",
                                                 seat=seat_name(declarer), card=card_name(c)),
                                   loc))
                    return None
    return discard


def playing_masks(cards: Cards | None, declarer: Seat, contract: Bid,
                  discard: tuple[Card, ...] | None) -> dict[Seat, int | None]:
    """The hands as played, as card bits: the declarer's after taking the talon and
    discarding (P7)."""
    if cards is None:
        return {}
    masks = dict(cards.masks)
    if not contract.is_hand:
        mask = masks.get(declarer)
        if mask is None or cards.talon is None or discard is None:
            masks[declarer] = None
        else:
            masks[declarer] = (mask | hand_mask(cards.talon)) & ~hand_mask(discard)
    return masks


def playing_hands(cards: Cards | None, declarer: Seat, contract: Bid,
                  discard: tuple[Card, ...] | None) -> dict[Seat, Hand | None]:
    """The hands as played (:func:`playing_masks`) as cards, for a caller that wants them."""
    return {s: None if m is None else Hand(tuple(cards_of(m)))
            for s, m in playing_masks(cards, declarer, contract, discard).items()}


def analyse(record: Record) -> PrefOutcome:
    """Check one Préférence record (P1–P12, and P14 for Declarer and Result)."""
    f: list[Finding] = []
    options, problems = read_options(record.get("Scoring") or "Preference")
    for problem in problems:
        where = tag_location(record, "Scoring")
        if problem.rule == "Presets":
            f.append(error("Presets", msg("{reason}; the record is checked with the defaults",
                                          reason=problem.text), where))
        else:
            f.append((warning if problem.warning else error)(problem.rule, problem.text, where))
    players = _players(record, f)
    dealer = _seat(record, "Dealer", "P2", f)
    cards = check_deal(record, f)

    # Auction (P4–P6).
    auction: AuctionResult | None = None
    section = record.auction
    if section is not None and section.kinds:
        first = _seat(record, "Auction", "P4", f)
        if first is not None:
            if dealer is not None and first is not next_player(dealer):
                f.append(error("P4", msg("the auction starts with {first}, but eldest hand is "
                                         "{eldest}, after the dealer {dealer}",
                                         first=seat_name(first),
                                         eldest=seat_name(next_player(dealer)),
                                         dealer=seat_name(dealer)),
                               tag_location(record, "Auction")))
            auction = run_auction(section, first)
            f.extend(auction.findings)

    contract = _contract(record, auction, f)
    claimed_declarer = _seat(record, "Declarer", "P14", f)
    declarer = claimed_declarer
    if auction is not None and auction.declarer is not None:
        declarer = auction.declarer
        if claimed_declarer is not None and claimed_declarer is not declarer:
            f.append(error("P14", msg("Declarer says {claimed}, but {seat} made the final "
                                      "bid",
                                      claimed=seat_name(claimed_declarer),
                                      seat=seat_name(declarer)),
                           tag_location(record, "Declarer")))
    final = auction.final if auction is not None else None
    if contract is None and final is not None and given(record.get("Contract")) is False:
        f.append(unverifiable("P8", msg("no Contract tag: the final bid was {final}, but the "
                                         "trumps the declarer named are not known",
                                         final=final.value),
                              record.location))
    discard = _discard(record, contract, final, declarer, cards, f)
    dropouts, gave_up = _dropouts(record, declarer, f)
    out = _out(dropouts, declarer)
    if declarer is None:
        if auction is None and contract is None and not given(record.get("Result")):
            return PrefOutcome(record, options, dealer, players, cards, auction, contract,
                               declarer, discard, dropouts, gave_up, findings=tuple(f))
        if auction is None or auction.complete:
            f.append(warning("P6", msg("the record names no declarer: nothing to score"),
                             record.location))
        return PrefOutcome(record, options, dealer, players, cards, auction, contract, declarer,
                           discard, dropouts, gave_up, findings=tuple(f))

    # Drop-outs end the deal before the play (P9).
    play: PrefPlay | None = None
    tricks: dict[Seat, int] | None = None
    play_section = record.play
    if _no_play(gave_up, declarer, out):
        if play_section is not None and play_section.kinds:
            f.append(error("P9", msg("there is a Play section, but the deal ended before the "
                                     "first card (the declarer gave up or both defenders "
                                     "dropped out)"),
                           tag_location(record, "Play", value=False)))
        if given(record.get("Result")):
            f.append(error("P9", msg("there is a Result, but the deal ended before the first "
                                     "card"), tag_location(record, "Result")))
    else:
        seats = play_seats(declarer, out)
        if play_section is not None and play_section.kinds:
            lead = _seat(record, "Play", "P10", f)
            if lead is not None and lead is not declarer:
                f.append(error("P10", msg("the play starts with {lead}, but the declarer {seat} "
                                          "leads to the first trick",
                                          lead=seat_name(lead), seat=seat_name(declarer)),
                               tag_location(record, "Play")))
            if contract is None:
                f.append(unverifiable("P10", msg("the contract is not known, so the trumps and the "
                                          "trick winners are not either"),
                                      tag_location(record, "Play")))
            else:
                if not contract.is_hand and discard is None and cards is not None \
                        and cards.hand(declarer) is not None:
                    f.append(unverifiable("P7", msg("no Discard tag: the declarer's hand after the "
                                              "talon is not known, so his cards are not "
                                              "checked"), tag_location(record, "Play")))
                hands = playing_masks(cards, declarer, contract, discard)
                play = replay_play(play_section, declarer, out, hands, contract.suit,
                                   options.must_trump)
                f.extend(play.findings)
        claimed = _result(record, seats, f)
        tricks = claimed
        if play is not None:
            if play.complete:
                tricks = play.won
                if claimed is not None and claimed != play.won:
                    f.append(error("P14", msg("Result says {claimed}, but the play gives "
                                              "{won}",
                                             claimed=_fmt(claimed), won=_fmt(play.won)),
                                   tag_location(record, "Result")))
            elif claimed is not None:
                short = [s for s in seats if claimed[s] < play.won.get(s, 0)]
                if short:
                    s = short[0]
                    f.append(error("P14", msg("Result gives {seat} {claimed} tricks, but "
                                              "{seat} won {won} in the play before it ended",

                                             seat=seat_name(s), claimed=claimed[s],
                                             won=play.won[s]), tag_location(record, "Result")))
                    tricks = None
            elif play.claimed:
                f.append(error("P10", msg("the play ends with a claim '*' but no Result gives "
                                          "the final tricks"),
                               tag_location(record, "Result")))
        if tricks is None and not any(x.is_error and x.rule in ("P10", "P14") for x in f):
            f.append(unverifiable("P12", msg("the tricks are not known (no Result and no complete "
                                      "play), so the deal cannot be settled"),
                              record.location))
    pays = payments(dealer, declarer, tricks, out, gave_up)
    if pays is None and tricks is not None and dealer is None:
        f.append(unverifiable("P12", msg("the dealer is not known, so who pays the defenders' "
                                      "fee is not either"), record.location))
    taken: list[tuple[Message, str]] = []
    if auction is None:
        taken.append((msg("declarer"), "P6"))
    if play is None and tricks is not None:
        taken.append((msg("tricks"), "P10"))
    if taken:
        lacking = [n for n, have in (("Auction", auction is not None),
                                     ("Play", play is not None), ("Deal", cards is not None))
                   if not have]
        what: Message = taken[0][0]
        for t, _ in taken[1:]:
            what = msg("{a} and {b}", a=what, b=t)
        missing = listing([lacking_word(tag) for tag in lacking], "or")
        f.append(unverifiable(taken[0][1], msg("not checked (no {missing}): {what} taken as "
                                               "written", missing=missing, what=what),
                              record.location, also=tuple(r for _, r in taken[1:])))
    return PrefOutcome(record, options, dealer, players, cards, auction, contract, declarer,
                       discard, dropouts, gave_up, play, tricks, pays, tuple(f))


def _fmt(tricks: dict[Seat, int]) -> str:
    return " ".join(f"{s.value} {tricks[s]}" for s in PLAYERS if s in tricks)

