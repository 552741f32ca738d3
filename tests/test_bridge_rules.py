"""Bridge's rules (docs/bridge.md B1–B11): a legal and an illegal record for each, the
duplicate score against endplay's, and the replay of a bridge deal trick by trick."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from priffe_records import loads
from priffe_records.cli import cli
from priffe_records.rules.bridge.contract import Contract
from priffe_records.rules.bridge.scoring import score
from priffe_records.rules.validate import validate

RANKS = "AKQJT98765432"
# N holds the spades, W the clubs; E the hearts but ♥2 and ♦2, S the diamonds but ♦2 and ♥2.
DEAL = "N:AKQJT98765432... .AKQJT9876543.2. .2.AKQJT9876543. ...AKQJT98765432"
EAST = [f"H{r}" for r in RANKS[:-1]] + ["D2"]
SOUTH = ["H2"] + [f"D{r}" for r in RANKS[:-1]]
# The Play tag's columns are E S W N (E leads, N's left); N ruffs the first trick and wins all.
ROWS = [f"{e} {s} C{r} S{r}" for e, s, r in zip(EAST, SOUTH, RANKS, strict=True)]


def record(auction: str = "7S Pass Pass Pass", rows: list[str] = ROWS, **tags: str) -> str:
    """The base deal (7S by N, all 13 tricks, NS not vulnerable: 1510) with ``tags``
    changed (a value ``""`` leaves the tag out)."""
    values = {"Scoring": "IMP", "Dealer": "N", "Vulnerable": "None", "Deal": DEAL,
              "Declarer": "N", "Contract": "7S", "Result": "13", "Score": "NS 1510",
              "Auction": "N", "Play": "E", **tags}
    head = "".join(f'[{k}  "{v}"]\n'.replace("  ", " ") for k, v in values.items()
                   if v and k not in ("Auction", "Play"))
    play = f'[Play "{values["Play"]}"]\n' + "\n".join(rows) + "\n" if rows else ""
    return head + f'[Auction "{values["Auction"]}"]\n{auction}\n' + play


def rules(text: str) -> list[str]:
    return [f.rule for f in validate(loads(text)) if f.is_error]


def test_the_base_deal_breaks_no_rule() -> None:
    assert validate(loads(record())) == []


@pytest.mark.parametrize(("rule", "legal", "illegal"), [
    ("B1", {}, {"Deal": DEAL.rsplit(" ", 1)[0] + " 2...AKQJT9876543"}),  # ♠2 twice
    ("B2", {"auction": "1S 2S ^I 7S Pass Pass Pass"}, {"auction": "2S 1S 7S Pass Pass Pass"}),
    ("B3", {"auction": "7S X XX Pass Pass Pass", "Contract": "7SXX", "Score": "NS 2680"},
     {"auction": "7S Pass X Pass Pass Pass"}),
    ("B4", {"auction": "7S AP"}, {"auction": "7S Pass Pass Pass Pass"}),
    ("B5", {"Declarer": "^S"}, {"Declarer": "S"}),
    ("B5", {"Contract": "7s"}, {"Contract": "6S"}),
    ("B6", {}, {"Play": "S"}),
    ("B7", {}, {"rows": [ROWS[0], ROWS[1].replace("SK", "SA"), *ROWS[2:]]}),
    ("B8", {"rows": [ROWS[0].replace("H2", "^R H2"), *ROWS[1:]]},
     {"rows": [r.replace("H2", "XX").replace("DA", "H2").replace("XX", "DA")
               for r in ROWS]}),
    ("B9", {"rows": [*ROWS[:3], "*"]}, {"rows": [*ROWS[:3], "*"], "Result": "2"}),
    ("B9", {"rows": [*ROWS[:3], "*"], "Result": "NS 13"}, {"rows": ROWS[:3], "Result": ""}),
    ("B9", {"Result": "^12", "Score": "NS 1460"}, {"Result": "12", "Score": "NS 1460"}),
    ("B10", {"Vulnerable": "NS", "Score": "2210"}, {"Score": "NS 1500"}),
    ("B10", {"Contract": "", "Declarer": "", "Result": "", "Score": "NS 0", "rows": [],
             "auction": "Pass Pass Pass Pass"}, {"Score": "EW 1510"}),
    ("B11", {"Vulnerable": "Both", "Score": "NS 2210"}, {"Vulnerable": "Sometimes"}),
])
def test_each_rule_has_a_legal_and_an_illegal_case(rule: str, legal: dict[str, object],
                                                   illegal: dict[str, object]) -> None:
    assert rule not in rules(record(**legal))  # type: ignore[arg-type]
    assert rule in rules(record(**illegal))  # type: ignore[arg-type]


def test_the_findings_say_where_and_what() -> None:
    [f] = validate(loads(record(auction="7S Pass X Pass Pass Pass")))
    assert (f.rule, str(f.location), f.message) == (
        "B3", "<string>:10:9", "South doubles, but there is no opponents' bid to double")
    [f] = validate(loads(record(rows=[r.replace("H2", "XX").replace("DA", "H2")
                                      .replace("XX", "DA") for r in ROWS])))
    assert f.render("sv").endswith("stick 1: Syd spelar ♦Ä men har ♥2 — måste bekänna "
                                   "hjärter")


@pytest.mark.parametrize(("contract", "tricks", "vul", "points"), [
    ("4H", 10, False, 420), ("3NT", 9, True, 600), ("1NT", 8, False, 120),
    ("2C", 8, False, 90), ("6SX", 12, True, 1660), ("1CXX", 8, False, 430),
    ("5SX", 8, False, -500), ("4HX", 6, False, -800), ("7NTXX", 6, True, -4000),
    ("3D", 7, True, -200), ("7C", 13, False, 1440)])
def test_the_duplicate_score(contract: str, tricks: int, vul: bool, points: int) -> None:
    c = Contract.parse(contract)
    assert c is not None and score(c, tricks, vul) == points


@pytest.mark.slow
def test_every_score_agrees_with_endplay() -> None:
    """Each contract, risk, vulnerability and number of tricks: 2,940 scores."""
    et = pytest.importorskip("endplay.types")
    for level in range(1, 8):
        for strain, denom in (("C", et.Denom.clubs), ("D", et.Denom.diamonds),
                              ("H", et.Denom.hearts), ("S", et.Denom.spades),
                              ("NT", et.Denom.nt)):
            for risk, penalty in enumerate((et.Penalty.passed, et.Penalty.doubled,
                                            et.Penalty.redoubled)):
                ours = Contract.parse(f"{level}{strain}{'X' * risk}")
                assert ours is not None
                for tricks in range(14):
                    theirs = et.Contract(level=level, denom=denom, declarer=et.Player.north,
                                         penalty=penalty, result=tricks - level - 6)
                    for vul, v in ((False, et.Vul.none), (True, et.Vul.ns)):
                        assert score(ours, tricks, vul) == theirs.score(v), (ours, tricks, vul)


def test_a_bridge_deal_replays_trick_by_trick(tmp_path: Path) -> None:
    src = tmp_path / "b.pbn"
    src.write_text(record(auction="1NT Pass 2C Pass\n7S Pass Pass Pass"), "utf-8")
    res = CliRunner().invoke(cli, ["--lang", "sv", "replay", str(src)])
    assert res.exit_code == 0, res.output + res.stderr
    out = res.stdout
    assert "1 sang" in out and "7 spader av Nord" in out and "hemgång" in out
    assert "poäng: Nord-Syd +1510, Öst-Väst -1510" in out
    assert "   13   Nord" in out  # the 13th trick, led by North
    page = tmp_path / "b.html"
    res = CliRunner().invoke(cli, ["replay", str(src), "--html", str(page)])
    assert res.exit_code == 0 and "♠" in page.read_text("utf-8")
