"""The duplicate score of a deal (B9, B10; the Laws of Duplicate Bridge, law 77), and
the Vulnerable, Result and Score tags read as PBN §3.4.10, §3.4.15 and §4.2.1 write them.

>>> from .contract import Contract
>>> score(Contract.parse("4H"), 10, False), score(Contract.parse("3NT"), 9, True)
(420, 600)
>>> score(Contract.parse("6SX"), 12, True), score(Contract.parse("1CXX"), 8, False)
(1660, 430)
>>> score(Contract.parse("5SX"), 8, False), score(Contract.parse("7NTXX"), 6, True)
(-500, -4000)
"""

from __future__ import annotations

import re

from priffe_records.game.cards import Seat

from .contract import Contract

_VULNERABLE = {"none": "", "love": "", "-": "", "ns": "NS", "ew": "EW", "all": "NSEW",
               "both": "NSEW"}
_SIDES = re.compile(r"(NS|EW) ([-+]?\d+)(?: (NS|EW) ([-+]?\d+))?")


def vulnerable(value: str | None) -> str | None:
    """The vulnerable sides (``""``, ``NS``, ``EW``, ``NSEW``); ``None`` when not known."""
    return _VULNERABLE.get((value or "").strip().casefold())


def score(contract: Contract, tricks: int, vul: bool) -> int:
    """What the declaring side scores: positive when the contract is made."""
    down = contract.tricks_needed - tricks
    if down > 0:
        if not contract.risk:
            return -down * (100 if vul else 50)
        steps = [200, 300] if vul else [100, 200, 200, 300]
        doubled = sum(steps[min(k, len(steps) - 1)] for k in range(down))
        return -doubled * contract.risk
    odd = 20 if contract.strain < 2 else 30
    mult = 1 << contract.risk
    points = (odd * contract.level + (10 if contract.trump is None else 0)) * mult
    over = tricks - contract.tricks_needed
    total = points + (300 + 200 * vul if points >= 100 else 50)
    total += over * (odd if not contract.risk else (100 + 100 * vul) * contract.risk)
    total += {6: 500 + 250 * vul, 7: 1000 + 500 * vul}.get(contract.level, 0)  # slams
    return total + 50 * contract.risk


def side_numbers(value: str | None, declarer: Seat, tricks: bool
                 ) -> tuple[int, bool] | None:
    """A Result (``tricks``) or Score value as the declaring side's number, and whether a
    ``^`` marks it as agreed though it differs from the play (PBN §3.4.15); ``None``:
    not readable. The other side's tricks are 13 less, its score the opposite.

    >>> side_numbers("NS 500", Seat.W, False), side_numbers("NS 4", Seat.W, True)
    ((-500, False), (9, False))
    >>> side_numbers("^9", Seat.N, True), side_numbers("x", Seat.N, True)
    ((9, True), None)
    """
    text = (value or "").strip()
    caret = text.startswith("^")
    text = text.lstrip("^").strip()
    if re.fullmatch(r"[-+]?\d+", text):
        return int(text), caret
    m = _SIDES.fullmatch(" ".join(text.upper().split()))
    if m is None:
        return None
    own = declarer.side.name
    if m[1] == own:
        return int(m[2]), caret
    if m[3] == own:
        return int(m[4]), caret
    return (13 - int(m[2]) if tricks else -int(m[2])), caret
