"""What one record shows once the rules have been applied: the engine's answer per deal.

Its own module so that the full analysis (:mod:`.analysis`) and the lean check of a
clean record (:mod:`.lean`) build the same value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from priffe_records.format.record import Record
from priffe_records.format.values import is_unspecified
from priffe_records.game.calls import Contract
from priffe_records.game.cards import Deal, Seat
from priffe_records.rules.findings import Finding
from priffe_records.rules.priffe.auction import AuctionResult
from priffe_records.rules.priffe.options import PRESETS, Options
from priffe_records.rules.priffe.play import PlayResult
from priffe_records.rules.priffe.scoring import DealScore, SidePoints


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
