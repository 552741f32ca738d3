"""``priffe score`` keeps its small promises (issue 11, point 9).

--fill writes only what it knows; --fill --force removes a Settlement that
does not belong; honours two known partner hands settle are counted (R17);
a Spader/Klöver contract is explained as Tvångsnoll (R8); each error once.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from priffe_records import loads
from priffe_records.cli import cli
from priffe_records.rules.priffe.sheet import score_partie
from priffe_records.rules.validate import validate

HEAD = """\
[Event "Priffeafton"]
[Site "Västerås"]
[Date "1952.03.14"]
[Rubber "1"]
[Board "1"]
[West "Folke"]
[North "Ingeborg"]
[East "Helmer"]
[South "Elna"]
"""
NOLL = HEAD + '[Declarer "N"]\n[Contract "Noll"]\n[Result "NS 8 EW 5"]\n'
# North and South known, East and West not: N holds three aces, so the fourth is
# with the opponents, whichever of them has it.
PARTNERS_THREE = "N:A5432.A5.A5.5432 - KQJT.KQJ.KQJ.KQJ -"
# North holds one ace, South none: whether EW hold three in one hand is unknown.
PARTNERS_ONE = "N:A5432.K5.K5.5432 - KQJT.QJ4.QJ4.KQJ -"


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sheet.ppn"
    path.write_text(text, "utf-8")
    return path


def test_fill_writes_no_invented_honours(tmp_path: Path) -> None:
    """The Score leaves honours 0 here, but nobody wrote them: no Honours tag appears."""
    path = write(tmp_path, NOLL + '[Score "NS 0 EW 40"]\n')
    code, out, _ = run("score", str(path), "--fill", "-o", "-")
    assert code == 0
    assert "[Score " in out and "[Honours" not in out
    # Written by the scorer, they stay.
    path = write(tmp_path, NOLL + '[Score "NS 0 EW 40"]\n[Honours "NS 0 EW 0"]\n')
    code, out, _ = run("score", str(path), "--fill", "-o", "-")
    assert code == 0 and '[Honours "NS 0 EW 0"]' in out


def test_fill_force_removes_a_settlement_that_does_not_end_the_rubber(tmp_path: Path) -> None:
    path = write(tmp_path, NOLL + '[Settlement "N 10;S 10;E -10;W -10"]\n')
    code, _, err = run("score", str(path), "--fill", "-o", "-")
    assert code == 1 and "does not end the rubber" in err and "nothing written" in err
    code, out, _ = run("score", str(path), "--fill", "--force", "-o", "-")
    assert code == 0 and "Settlement" not in out and '[Score "NS 0 EW 40"]' in out


def test_honours_settled_by_two_partner_hands_are_counted() -> None:
    """R17 (variant hand): three aces in North, the fourth with EW: NS 20 either way."""
    text = HEAD + f'[Deal "{PARTNERS_THREE}"]\n[Declarer "N"]\n[Contract "Spela"]\n' \
                  '[Result "NS 9 EW 4"]\n'
    row = score_partie(loads(text)).rows[0]
    assert str(row.honours) == "NS 20 EW 0" and row.honours_known
    assert not any("honours" in f.message for f in validate(loads(text)))
    # A wrong claim is now an error, located at the tag.
    wrong = validate(loads(text + '[Honours "NS 0 EW 0"]\n'))
    assert [(f.rule, f.location.line if f.location else 0) for f in wrong
            if f.is_error] == [("R17", 14)]


def test_honours_the_known_hands_do_not_settle_stay_unknown() -> None:
    text = HEAD + f'[Deal "{PARTNERS_ONE}"]\n[Declarer "N"]\n[Contract "Spela"]\n' \
                  '[Result "NS 9 EW 4"]\n'
    row = score_partie(loads(text)).rows[0]
    assert row.honours is None and not row.honours_known
    assert row.score is None  # open honours are no silent 0 (R17)
    assert any("honours open" in f.message and f.rule == "R17" for f in validate(loads(text)))


def test_a_spader_contract_on_a_sheet_says_tvangsnoll(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + '[Declarer ""]\n[Contract "Spader"]\n[Result "NS 7 EW 6"]\n'
                 '[Score "NS 0 EW 10"]\n')
    code, out, err = run("score", str(path))
    assert code == 1
    assert err.count("Tvångsnoll") >= 1 and "R8" in err and "sheet.ppn:11:12" in err
    assert "Tvångsnoll" in out  # scored as the forced noll it is
    code, out, _ = run("validate", str(path))
    assert "Tvångsnoll" in out and "not a Priffe record" not in out


def test_an_unreadable_record_is_reported_once(tmp_path: Path) -> None:
    path = write(tmp_path, NOLL + "\n" + HEAD.replace('"1"]\n[West', '"2"]\n[West')
                 + '[Contract "Spela\n')
    code, _, err = run("score", str(path))
    assert code == 1
    assert err.count("unterminated string") == 1, err
