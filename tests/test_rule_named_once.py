"""A finding names its rule once: in ``Finding.rule`` (and ``also``), shown at display, never
again at the end of its text ("fel R15: …", not also "… (R15)")."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA, EXAMPLES

from priffe_records import read, validate
from priffe_records.cli import cli
from priffe_records.rules.findings import Finding, Severity, unverifiable

RULE_AT_END = re.compile(r"\((?:[RP]\d{1,2})(?:, [^()]*)?\)\s*$")
FILES = [*sorted(EXAMPLES.glob("*.ppn")), *sorted(DATA.glob("*.ppn"))]


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_no_finding_repeats_a_rule_id_in_its_text(lang: str) -> None:
    seen = 0
    for path in FILES:
        for f in validate(read(path, errors="collect")):
            text = f.message if lang == "en" else f.render("sv").split(": ", 2)[-1]
            assert not RULE_AT_END.search(text), (path.name, f.rule, text)
            seen += 1
    assert seen > 20  # the broken fixtures give findings of many rules


def test_a_finding_for_several_rules_names_each_once_in_its_head() -> None:
    f = unverifiable("R8", "not checked (no Auction): contract is taken as written",
                     also=("R12", "R17"))
    assert f.rules == ("R8", "R12", "R17")
    assert f.render("en") == ("unverifiable R8, R12, R17: not checked (no Auction): contract "
                              "is taken as written")


def test_the_validate_report_shows_every_rule_of_a_not_checked_note(tmp_path: Path) -> None:
    sheet = tmp_path / "blad.ppn"
    sheet.write_text('[Event "Protokoll"]\n[Board "1"]\n[Declarer "N"]\n[Contract "Spela"]\n'
                     '[Result "NS 13 EW 0"]\n', "utf-8")
    res = CliRunner().invoke(cli, ["validate", str(sheet)], env={"PRIFFE_LANG": "sv"})
    line = next(x for x in res.stdout.splitlines() if "tas som de står" in x
                or "som skrivet" in x or "R12" in x)
    assert "R12" in line and not RULE_AT_END.search(line), res.stdout


def test_an_archive_from_before_schema_11_loses_the_rule_at_the_end(tmp_path: Path) -> None:
    """Stored findings keep reading in both languages after the migration: their message
    ids lose the rule ID they ended with, as the catalog's did."""
    from priffe_records.archive.schema import SCHEMA_VERSION, ensure_schema, open_archive
    from priffe_records.archive.stored_messages import shown

    path = tmp_path / "gammal.db"
    res = CliRunner().invoke(cli, ["import", "--db", str(path), str(DATA / "broken.ppn")])
    assert res.exit_code == 0, res.output
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT id, rule, message_json FROM findings").fetchall()
    for ident, rule, data in rows:  # as schema 10 stored them: the rule again at the end
        old = json.loads(data)
        if old["id"].startswith("not checked") or not re.fullmatch(r"[RP]\d+", rule):
            continue  # a reader's error ("PPN") or a preset's never named one
        old["id"] += f" ({rule})"
        conn.execute("UPDATE findings SET message_json = ?, message = message || ? "
                     "WHERE id = ?", [json.dumps(old, ensure_ascii=False), f" ({rule})", ident])
    conn.execute("PRAGMA user_version = 10")
    conn.commit()
    conn.close()
    db = open_archive(str(path))
    ensure_schema(db)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 11
    after = db.execute("SELECT id, rule, message, message_json FROM findings").fetchall()
    db.close()
    assert len(after) == len(rows)
    for _, rule, message, data in after:
        if not re.fullmatch(r"[RP]\d+", rule):
            continue
        assert not message.endswith(f"({rule})"), message
        sv = shown(data, None, "sv")
        assert sv is not None and sv != shown(data, None, "en")  # found in the catalog
        assert not RULE_AT_END.search(sv), sv


def test_a_more_line_names_its_rule_once() -> None:
    from priffe_records.format.record import Location
    from priffe_records.rules.repeats import More, counted

    same = [Finding("R2", Severity.ERROR, "♠A is dealt twice to North",
                    Location("a.ppn", 3, 8), 1)] * 6
    more = counted(same)[-1]
    assert isinstance(more, More)
    assert more.render("en") == "error R2: … and 3 more like this"
    assert more.render("sv") == "fel R2: … och 3 likadana till"
