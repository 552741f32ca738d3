"""Numbers from the wild (issue 11, point 8): each one a located finding, never a traceback.

A tag value of a real file can be anything: ``Rubber "²"``, 20 digits, a
trick count over 13. Every command must read such a record, name the tag
with its line and column, and go on with the other records and files.
"""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest
import sqlite_utils
from archive_support import count, run
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from preference_support import example_with
from rules_support import FORMAT_EXAMPLE, set_tag

from priffe_records import dumps, read, validate
from priffe_records import loads as read_text
from priffe_records.archive.importing import import_file
from priffe_records.rules.partie import parties
from priffe_records.rules.priffe.scoring import MAX_CLAIM

# A score-sheet deal (no hands): the tag under test is swapped in on line 5.
SHEET = """\
[Event "Klubbkväll"]
[Site "Västerås"]
[Date "1952.03.14"]
[Board "1"]
{tag}
[West "Folke"]
[North "Ingeborg"]
[East "Helmer"]
[South "Elna"]
[Declarer "N"]
[Contract "Noll"]
{result}
"""

# (tag line, Result line, the rule reported, the tag it is reported at)
WILD = {
    "rubber-superscript": ('[Rubber "²"]', '[Result "NS 8 EW 5"]', "R22", "Rubber"),
    "rubber-20-digits": ('[Rubber "99999999999999999999"]', '[Result "NS 8 EW 5"]', "R22",
                         "Rubber"),
    "rubber-negative": ('[Rubber "-3"]', '[Result "NS 8 EW 5"]', "R22", "Rubber"),
    "result-14": ('[Rubber "1"]', '[Result "14"]', "R12", "Result"),
    "result-999999": ('[Rubber "1"]', '[Result "999999"]', "R12", "Result"),
    "result-over-13": ('[Rubber "1"]', '[Result "NS 14 EW 3"]', "R12", "Result"),
    "score-20-digits": ('[Rubber "1"]', '[Result "NS 8 EW 5"]\n'
                        '[Score "NS 99999999999999999999 EW 0"]', "R15", "Score"),
    "settlement-20-digits": ('[Rubber "1"]', '[Result "NS 8 EW 5"]\n'
                             '[Settlement "N 99999999999999999999;S 1;E 1;W 1"]', "R22",
                             "Settlement"),
}


def sheet(tmp_path: Path, name: str) -> tuple[Path, str, int]:
    """The file, the rule to expect and the line of the tag it must point at."""
    tag, result, rule, at = WILD[name]
    path = tmp_path / f"{name}.ppn"
    text = SHEET.format(tag=tag, result=result)
    path.write_text(text, "utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(f"[{at} "))
    return path, rule, line


@pytest.mark.parametrize("name", sorted(WILD))
def test_each_wild_number_is_one_located_finding(tmp_path: Path, name: str) -> None:
    path, rule, line = sheet(tmp_path, name)
    res = run("validate", "--nl", str(path))
    assert res.exit_code in (0, 1), res.output
    found = [json.loads(x) for x in res.stdout.splitlines()]
    assert any(f["rule"] == rule and f["line"] == line and f["column"] for f in found), found
    assert "internal error" not in res.output
    res = run("score", str(path))
    assert res.exit_code in (0, 1) and "internal error" not in res.output, res.output
    for args in ((), ("--html", str(tmp_path / "out.html"))):
        res = run("replay", str(path), *args)
        assert res.exit_code in (0, 1) and "Traceback" not in res.output, res.output
    db = tmp_path / "a.db"
    res = run("import", str(path), "--db", str(db))
    assert res.exit_code == 0 and "1 new" in res.stdout, res.output
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM findings WHERE rule = ? AND line = ?",
                            [rule, line]).fetchone()[0] >= 1
    conn.close()
    res = run("query", "--db", str(db), "--format", "json")
    assert res.exit_code == 0 and len(json.loads(res.stdout)) == 1
    res = run("replay", "--db", str(db), "--id", "1")
    assert res.exit_code in (0, 1) and "Traceback" not in res.output


def test_one_bad_file_never_hides_the_others(tmp_path: Path) -> None:
    good = SHEET.format(tag='[Rubber "1"]', result='[Result "NS 8 EW 5"]')
    a, c = tmp_path / "a.ppn", tmp_path / "c.ppn"
    a.write_text(good, "utf-8")
    c.write_text(good.replace("Klubbkväll", "Nationskväll"), "utf-8")
    bad = tmp_path / "bad.ppn"
    bad.write_text(SHEET.format(tag='[Rubber "²"]', result='[Result "14"]'), "utf-8")
    res = run("validate", "--nl", str(a), str(bad), str(c))
    files = {json.loads(x)["file"] for x in res.stdout.splitlines()}
    assert files == {str(a), str(bad), str(c)}, res.output
    assert "3 files" in res.stderr
    # A path that is not there: the others are checked and counted, exit 2 at the end.
    res = run("validate", "--nl", str(a), str(tmp_path / "saknas.ppn"), str(c))
    assert res.exit_code == 2 and "saknas.ppn: no such file" in res.stderr
    assert {json.loads(x)["file"] for x in res.stdout.splitlines()} == {str(a), str(c)}
    assert "2 files" in res.stderr
    db = tmp_path / "a.db"
    res = run("import", str(a), str(bad), str(c), "--db", str(db))
    assert res.exit_code == 0, res.output
    assert count(db) == 3
    assert [len(list(read(p))) for p in (a, bad, c)] == [1, 1, 1]


@pytest.mark.parametrize("value", ["²", "99999999999999999999", "-3", ""])
def test_wild_numbers_in_a_preference_partie(tmp_path: Path, value: str) -> None:
    """The other family reads the same wild values without a traceback (found by the fuzz)."""
    text = (EXAMPLES / "preference-graz.ppn").read_text("utf-8")
    path = tmp_path / "graz.ppn"
    path.write_text(text.replace('[Board "2"]', f'[Board "{value}"]', 1)
                    .replace("Scoring \"Preference", f"Scoring \"Preference;ante={value}", 1),
                    "utf-8")
    for args in (("validate", str(path)), ("score", str(path)), ("replay", str(path)),
                 ("import", str(path), "--db", str(tmp_path / "a.db"))):
        res = run(*args)
        assert res.exit_code in (0, 1), (args, res.output)
        assert "internal error" not in res.output


def test_a_note_numbered_with_a_superscript_is_kept_as_text() -> None:
    [rec] = read_text('[Event "x"]\n[Note "²:eftersnack"]\n[Note "1:bra"]\n')
    assert rec.notes == {1: "bra"}


# Any digits in any numeric tag (property test): a located finding when the number is
# absurd, and never an exception, from the rules, the books or the archive.
_PRIFFE_TAGS = {  # tag: the value with the number in it (n), another number (m)
    "Score": "NS {n} EW {m}", "Honours": "NS {m} EW {n}", "Result": "NS {n} EW {m}",
    "ScoreRubber": "NS {n} EW {m}", "Settlement": "N {n};S {n};E -{n};W -{m}",
    "Rubber": "{n}", "Board": "{n}",
}
_PREFERENCE_TAGS = {
    "Score": "N {n};E -{m};S 0", "Balance": "N -{n};E {m};S 0", "Pot": "{n}",
    "Result": "N {n} E {m} S 1", "Board": "{n}", "Scoring": "Preference;ante={n}",
}
_digits = st.one_of(st.integers(0, 10 ** 12).map(str),
                    st.integers(10 ** 18, 10 ** 40).map(str),
                    st.text("0123456789", min_size=1, max_size=5000),
                    st.sampled_from(["²", "٣٤", "-3", "+7", "0" * 30 + "1"]))


def _absurd(number: str) -> bool:
    """Larger than any score or total can be: more than a SQLite integer holds."""
    digits = number.lstrip("+-").lstrip("0")
    return number.isascii() and number.lstrip("+-").isdigit() and \
        (len(digits) > 19 or int(digits or "0") > MAX_CLAIM)


def _never_raises(text: str, tag: str, number: str) -> None:
    records = list(read_text(text, errors="collect"))
    found = validate(records)
    assert list(parties(records))
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(f"[{tag} "))
    if _absurd(number):
        assert any(f.location is not None and f.location.line == line for f in found), \
            (tag, number[:30], [str(f) for f in found])
    db = sqlite_utils.Database(memory=True)
    import_file(db, io.BytesIO(text.encode("utf-8")), name="wild.ppn")
    assert db["deals"].count == len(records)


_SETTINGS = settings(max_examples=12, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("base", ["deal", "sheet"])
@pytest.mark.parametrize("tag", sorted(_PRIFFE_TAGS))
@_SETTINGS
@given(_digits, st.integers(0, 999))
def test_any_digits_in_a_priffe_tag_never_raise(tag: str, base: str, number: str,
                                                other: int) -> None:
    text = FORMAT_EXAMPLE if base == "deal" else SHEET.format(
        tag='[Rubber "1"]', result='[Result "NS 8 EW 5"]')
    value = _PRIFFE_TAGS[tag].format(n=number, m=other)
    _never_raises(set_tag(text, tag, value), tag, number)


@pytest.mark.parametrize("tag", sorted(_PREFERENCE_TAGS))
@_SETTINGS
@given(_digits, st.integers(0, 999))
def test_any_digits_in_a_preference_tag_never_raise(tag: str, number: str, other: int) -> None:
    value = _PREFERENCE_TAGS[tag].format(n=number, m=other)
    _never_raises(example_with(1, **{tag: value}), tag, number)


def test_claimed_numbers_beyond_a_sqlite_integer_are_located_findings() -> None:
    """Honours of 20 digits on a sheet made import stop ('internal error (OverflowError …)');
    claimed Score, ScoreRubber and Settlement above 2**63 are each a finding at their tag."""
    big = str(2 ** 63 + 12345)
    for tag, value, rule in (("Honours", f"NS 0 EW {big}", "R17"),
                             ("Score", f"NS {big} EW 0", "R15"),
                             ("ScoreRubber", f"NS {big} EW 0", "R23")):
        text = set_tag(FORMAT_EXAMPLE, tag, value)
        line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(f"[{tag} "))
        found = [f for f in validate(read_text(text)) if f.location and f.location.line == line]
        assert [f.rule for f in found] == [rule], (tag, found)
        assert "holds a number larger than any score or total can be" in found[0].message
    # A Settlement in a rubber whose totals are unknown (no Result) is still read.
    text = SHEET.format(tag='[Rubber "1"]', result=f'[Settlement "N {big};S 1;E 1;W 1"]')
    assert [(f.rule, f.location.line) for f in validate(read_text(text))
            if f.is_error and f.location] == [("R23", 12)]
    [rec] = read_text(SHEET.format(tag='[Rubber "1"]', result='[Result "NS 8 EW 5"]'
                                   f'\n[Honours "NS 0 EW {big}"]'))
    db = sqlite_utils.Database(memory=True)
    import_file(db, io.BytesIO(dumps([rec]).encode("utf-8")), name="sheet.ppn")
    assert db["deals"].count == 1


def test_honours_other_than_r17_gives_are_an_error_not_a_score() -> None:
    """Without hands an Honours claim was taken as written, whatever it said, and added to
    the score: now only 0, or 20, 40 or 50 to one side (R17) is honours."""
    text = SHEET.format(tag='[Rubber "1"]', result='[Result "NS 8 EW 5"]'
                        '\n[Honours "NS 0 EW 9223372036854775807"]')
    found = [f for f in validate(read_text(text)) if f.is_error]
    assert [(f.rule, f.location.line) for f in found if f.location] == [("R17", 13)]
    assert "which R17 never gives" in found[0].message
    ok = SHEET.format(tag='[Rubber "1"]', result='[Result "NS 8 EW 5"]\n[Honours "NS 0 EW 40"]')
    assert [f for f in validate(read_text(ok)) if f.is_error] == []
