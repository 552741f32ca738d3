"""R19–R24: games, bonuses, forfeits, the end of a rubber, settlement and the partie."""

from __future__ import annotations

import pytest
from rules_support import errors, findings, rules, sheet

from priffe_records.game.cards import Seat
from priffe_records.rules.findings import Severity
from priffe_records.rules.priffe.options import PRESETS
from priffe_records.rules.priffe.rubber import RubberState, parse_settlement, settle
from priffe_records.rules.priffe.scoring import SidePoints
from priffe_records.rules.priffe.sheet import score_partie

SEATINGS = {  # R24 rotation: dealer and forehand stay, the other two swap
    1: ("Anna", "Bertil", "Cecilia", "David"),
    2: ("Anna", "Bertil", "David", "Cecilia"),
    3: ("Anna", "Cecilia", "Bertil", "David"),
}


def deal(rubber: int, board: int, contract: str, declarer: str, result: str,
         preset: str = "sv", seats: tuple[str, str, str, str] | None = None,
         **claims: str) -> str:
    n, e, s, w = seats or SEATINGS[(rubber - 1) % 3 + 1]
    return sheet(contract, declarer, result, Rubber=str(rubber), Board=str(board),
                 North=n, East=e, South=s, West=w, Scoring=f"Priffe;preset={preset}", **claims)


def partie(*records: str) -> str:
    return "\n".join(records)


# R19 ------------------------------------------------------------------------------------------

def test_R19_first_game_at_30() -> None:
    s, step = RubberState.new().after(SidePoints(30, 0), SidePoints(30, 0), PRESETS["sv"])
    assert step.game_made is not None and s.games == SidePoints(1, 0)
    s, step = RubberState.new().after(SidePoints(20, 0), SidePoints(20, 0), PRESETS["sv"])
    assert step.game_made is None and s.counts == SidePoints(20, 0)


def second_game(preset: str, claim2: str, **settlement: str) -> str:
    return partie(deal(1, 1, "Spela", "N", "NS 10 EW 3", preset, ScoreRubber="NS 50 EW 0"),
                  deal(1, 2, "Spela", "N", "NS 9 EW 4", preset, ScoreRubber=claim2,
                       **settlement))


def test_R19_second_game_at_30_in_sv() -> None:
    text = second_game("sv", "NS 100 EW 0", Settlement="N 10;S 10;E -10;W -10")
    assert not errors(text)
    assert score_partie_rows(text)[-1] == ("R1", True)


def test_R19_second_game_at_40_in_en() -> None:
    text = second_game("en", "NS 80 EW 0")
    assert not errors(text)
    assert score_partie_rows(text)[-1] == ("R1", False)


def test_R19_second_game_claimed_too_early_in_en_is_error() -> None:
    fs = errors(second_game("en", "NS 100 EW 0", Settlement="N 10;S 10;E -10;W -10"))
    assert [f.rule for f in fs] == ["R23", "R22"]


def score_partie_rows(text: str) -> list[tuple[str, bool]]:
    from priffe_records import loads
    from priffe_records.rules.priffe.sheet import RubberRow
    return [(f"R{r.rubber}", r.finished) for r in score_partie(loads(text)).rows
            if isinstance(r, RubberRow)]


# R20 ------------------------------------------------------------------------------------------

def test_R20_game_bonuses_ok() -> None:
    s, step = RubberState.new().after(SidePoints(40, 0), SidePoints(40, 0), PRESETS["sv"])
    assert step.bonus == SidePoints(10, 0) and s.totals == SidePoints(50, 0)
    s, step = s.after(SidePoints(0, 30), SidePoints(0, 30), PRESETS["sv"])
    assert step.bonus == SidePoints(0, 10)
    s, step = s.after(SidePoints(30, 0), SidePoints(30, 0), PRESETS["sv"])
    assert step.bonus == SidePoints(20, 0) and step.ended


def test_R20_missing_game_bonus_is_error() -> None:
    text = deal(1, 1, "Spela", "N", "NS 10 EW 3", ScoreRubber="NS 40 EW 0")
    [f] = errors(text)
    assert f.rule == "R20" and "NS made a game, bonus 10" in f.message


# R21 ------------------------------------------------------------------------------------------

def forfeit(preset: str, claim: str) -> str:
    return partie(deal(1, 1, "Spela", "E", "NS 5 EW 8", preset, ScoreRubber="NS 0 EW 20"),
                  deal(1, 2, "Spela", "N", "NS 10 EW 3", preset, ScoreRubber=claim))


def test_R21_forfeit_in_sv() -> None:
    assert not errors(forfeit("sv", "NS 50 EW 0"))


def test_R21_no_forfeit_in_en() -> None:
    assert not errors(forfeit("en", "NS 50 EW 20"))


def test_R21_missing_forfeit_is_error() -> None:
    [f] = errors(forfeit("sv", "NS 50 EW 20"))
    assert f.rule == "R21" and "EW forfeits 20" in f.message


def test_R21_penalty_points_above_game_points_stay() -> None:
    # EW's 2 penalty tricks: 40 points, 20 toward game; only the 20 are forfeited.
    text = partie(deal(1, 1, "Hjärter", "N", "NS 5 EW 8", ScoreRubber="NS 0 EW 40"),
                  deal(1, 2, "Spela", "N", "NS 10 EW 3", ScoreRubber="NS 50 EW 20"))
    assert not errors(text)


# R22 ------------------------------------------------------------------------------------------

def ended_rubber(third_rubber_tag: str) -> str:
    return partie(deal(1, 1, "Spela", "N", "NS 13 EW 0", ScoreRubber="NS 100 EW 0"),
                  deal(1, 2, "Spela", "N", "NS 13 EW 0", ScoreRubber="NS 210 EW 0",
                       Settlement="N 21;S 21;E -21;W -21"),
                  deal(int(third_rubber_tag), 3, "Passnoll", "", "NS 6 EW 7",
                       ScoreRubber="NS 10 EW 0"))


def test_R22_rubber_ends_at_second_game_ok() -> None:
    assert not [f for f in findings(ended_rubber("2")) if f.severity is not Severity.WARNING
                and f.rule != "R8"]


def test_R22_deal_after_the_rubber_ended_is_error() -> None:
    fs = errors(ended_rubber("1"))
    assert [f.rule for f in fs] == ["R22"]
    assert "rubber 1, which already ended" in fs[0].message


def test_R22_settlement_before_the_end_is_error() -> None:
    text = deal(1, 1, "Spela", "N", "NS 13 EW 0", Settlement="N 10;S 10;E -10;W -10")
    assert rules(text) == ["R22"]


def test_R22_rubber_abandoned_is_warning() -> None:
    text = partie(deal(1, 1, "Spela", "N", "NS 10 EW 3"), deal(2, 2, "Spela", "N", "NS 10 EW 3"))
    assert ("R22", Severity.WARNING) in [(f.rule, f.severity) for f in findings(text)]


# R23 ------------------------------------------------------------------------------------------

def test_R23_settlement_arithmetic() -> None:
    assert settle(SidePoints(210, 20)) == {Seat.N: 19, Seat.S: 19, Seat.E: -19, Seat.W: -19}
    assert settle(SidePoints(90, 190)) == {Seat.N: -10, Seat.S: -10, Seat.E: 10, Seat.W: 10}
    assert set(settle(SidePoints(70, 70)).values()) == {0}
    assert parse_settlement("E -3;W -3;N 3;S 3") == settle(SidePoints(40, 10))


def test_R23_wrong_settlement_is_error() -> None:
    text = ended_rubber("2").replace("N 21;S 21;E -21;W -21", "N 20;S 20;E -20;W -20")
    [f] = errors(text)
    assert f.rule == "R23" and "settle N 21;S 21;E -21;W -21" in f.message


def test_R23_wrong_running_total_is_error_once() -> None:
    text = ended_rubber("2").replace("NS 100 EW 0", "NS 110 EW 0")
    assert [f.rule for f in errors(text)] == ["R23"]


# R24 ------------------------------------------------------------------------------------------

RUBBER_A = [("Spela", "N", "NS 13 EW 0", "NS 100 EW 0"),  # NS 210 : 0 → 21
            ("Spela", "N", "NS 13 EW 0", "NS 210 EW 0")]
RUBBER_B = [("Spela", "E", "NS 1 EW 12", "NS 0 EW 80"),  # EW 190 : 0 → 19
            ("Spela", "E", "NS 0 EW 13", "NS 0 EW 190")]
RUBBER_C = [("Hjärter", "N", "NS 5 EW 8", "NS 0 EW 40"),  # NS 210 : 20 → 19
            ("Spela", "N", "NS 13 EW 0", "NS 100 EW 20"),
            ("Spela", "N", "NS 13 EW 0", "NS 210 EW 20")]
SETTLE = {"A": "N 21;S 21;E -21;W -21", "B": "N -19;S -19;E 19;W 19",
          "C": "N 19;S 19;E -19;W -19"}


def six_rubbers(seatings: dict[int, tuple[str, str, str, str]] | None = None) -> str:
    out, board = [], 1
    for r, kind in enumerate("ABCBAC", 1):
        rows = {"A": RUBBER_A, "B": RUBBER_B, "C": RUBBER_C}[kind]
        for i, (contract, decl, result, total) in enumerate(rows):
            extra = {"Settlement": SETTLE[kind]} if i == len(rows) - 1 else {}
            seats = seatings[r] if seatings else None
            out.append(deal(r, board, contract, decl, result, seats=seats, ScoreRubber=total,
                            **extra))
            board += 1
    return partie(*out)


def test_R24_six_rubber_partie_settlement_golden() -> None:
    from priffe_records import loads
    text = six_rubbers()
    assert not [f for f in findings(text) if f.severity is not Severity.UNVERIFIABLE]
    sheet_ = score_partie(loads(text))
    assert sheet_.standings == (("Anna", 42), ("Bertil", 34), ("Cecilia", -38),
                                ("David", -38))
    assert sum(p for _, p in sheet_.standings) == 0


def test_R24_partnership_repeated_is_warning() -> None:
    same = dict.fromkeys(range(1, 7), SEATINGS[1])
    fs = [f for f in findings(six_rubbers(same)) if f.rule == "R24"]
    assert fs and all(f.severity is Severity.WARNING for f in fs)
    assert "keeps the partnerships" in fs[0].message


def test_R24_third_pairing_within_six_is_warning() -> None:
    seats = {1: SEATINGS[1], 2: SEATINGS[2], 3: SEATINGS[1], 4: SEATINGS[2], 5: SEATINGS[1],
             6: SEATINGS[3]}
    msgs = [f.message for f in findings(six_rubbers(seats)) if f.rule == "R24"]
    assert any("a third time" in m for m in msgs)


def test_name_key_is_kept_per_name_and_its_memo_bounded(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A partie's names come back every deal: each is keyed (NFKD, no accents) once."""
    from priffe_records.game.memo import Memo
    from priffe_records.rules import players

    monkeypatch.setattr(players, "_KEYS", Memo(2))
    first = players.name_key("David  Öhrnström")
    assert first == "david ohrnstrom"
    assert players.name_key("David  Öhrnström") is first  # kept, not worked out again
    assert players.name_key("Åsa") == "asa" and players.name_key("Bo") == "bo"
    assert len(players._KEYS) <= 2
