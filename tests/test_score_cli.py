"""``priffe score``: the sheet on screen, ``--fill`` writing computed tags back safely."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from rules_support import DATA, FORMAT_EXAMPLE

from priffe_records import Record, dumps, loads
from priffe_records.cli import cli
from priffe_records.rules.priffe.generate import PartieSpec, generate_partie

CLAIMS = ("Score", "Honours", "ScoreRubber", "Settlement")


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args))
    return res.exit_code, res.stdout, res.stderr


def strip_claims(text: str) -> str:
    return re.sub(r'^\[(' + "|".join(CLAIMS) + r') "[^"]*"\]\n', "", text, flags=re.M)


def partie_text(seed: int = 5) -> str:
    return dumps(generate_partie(seed, PartieSpec(comments=True), rubbers=2))


def test_score_prints_sheet_with_rubber_ends_and_standings(tmp_path: Path) -> None:
    f = tmp_path / "p.ppn"
    f.write_text(partie_text(), encoding="utf-8")
    code, out, _ = run("score", str(f))
    assert code == 0
    assert "Klubbkväll · Uppsala · 29 Nov 2026" in out
    assert out.count("end of rubber ") == 2 and "Standings" in out
    assert "end of rubber 1: Σ NS" in out and "\nR1 " not in out, "a rubber end in words"


def test_score_fill_writes_the_computed_tags(tmp_path: Path) -> None:
    full = partie_text()
    f = tmp_path / "p.ppn"
    f.write_text(strip_claims(full), encoding="utf-8")
    code, _, err = run("score", "--fill", str(f))
    assert code == 0, err
    assert f.read_text(encoding="utf-8") == full


def test_score_fill_keeps_correct_claims(tmp_path: Path) -> None:
    f = tmp_path / "p.ppn"
    f.write_text(FORMAT_EXAMPLE, encoding="utf-8")
    assert run("score", "--fill", str(f))[0] == 0
    assert f.read_text(encoding="utf-8") == FORMAT_EXAMPLE.replace(
        '[ScoreRubber "NS 90 EW 0"]', '[Honours "NS 0 EW 0"]\n[ScoreRubber "NS 90 EW 0"]')


def test_score_fill_refuses_a_wrong_claim_unless_forced(tmp_path: Path) -> None:
    f = tmp_path / "p.ppn"
    wrong = FORMAT_EXAMPLE.replace('[Score "NS 80 EW 0"]', '[Score "NS 90 EW 0"]')
    f.write_text(wrong, encoding="utf-8")
    code, _, err = run("score", "--fill", str(f))
    assert code == 1 and "nothing written" in err and "R15" in err
    assert f.read_text(encoding="utf-8") == wrong
    code, _, _ = run("score", "--fill", "--force", str(f))
    assert code == 0 and '[Score "NS 80 EW 0"]' in f.read_text(encoding="utf-8")


def test_score_fill_to_other_file_or_stdout(tmp_path: Path) -> None:
    f = tmp_path / "p.ppn"
    f.write_text(strip_claims(FORMAT_EXAMPLE), encoding="utf-8")
    out = tmp_path / "out.ppn"
    assert run("score", "--fill", "-o", str(out), str(f))[0] == 0
    assert f.read_text(encoding="utf-8") == strip_claims(FORMAT_EXAMPLE)
    assert '[Score "NS 80 EW 0"]' in out.read_text(encoding="utf-8")
    code, stdout, _ = run("score", "--fill", "-o", "-", str(f))
    assert code == 0 and stdout == out.read_text(encoding="utf-8")


def test_score_unreadable_records_are_not_written(tmp_path: Path) -> None:
    f = tmp_path / "b.ppn"
    text = (DATA / "broken.ppn").read_text(encoding="utf-8")
    f.write_text(text, encoding="utf-8")
    code, _, err = run("score", "--fill", "--force", str(f))
    assert code == 1 and "could not be read; nothing written" in err
    assert "broken.ppn:60:1: unknown call 'Hjärterr'" in err or "b.ppn:60:1" in err
    assert f.read_text(encoding="utf-8") == text


def test_score_missing_file_exits_2() -> None:
    code, out, err = run("score", "nowhere.ppn")
    assert code == 2 and err.strip() == "priffe: nowhere.ppn: no such file"
    assert "Traceback" not in out + err


def test_score_says_when_there_is_nothing_to_score(tmp_path: Path) -> None:
    f = tmp_path / "empty.ppn"
    f.write_text("% nothing here yet\n", "utf-8")
    result = CliRunner().invoke(cli, ["score", str(f)])
    assert result.exit_code == 0
    assert f"{f}: no deals to score" in result.stderr


def test_score_analyses_each_record_once_for_both_games(tmp_path: Path, monkeypatch: Any
                                                        ) -> None:
    """One run of the engine gives the Priffe and the Préférence sheets, as validate runs it:
    each record is analysed once (each game's sheet used to run the engine over the file)."""
    from priffe_records.rules.preference.family import Preference
    from priffe_records.rules.priffe.family import Priffe

    examples = Path(__file__).parents[1] / "examples"
    text = "\n".join((examples / name).read_text("utf-8")
                     for name in ("partie-uppsala.ppn", "preference-graz.ppn"))
    f = tmp_path / "both.ppn"
    f.write_text(text, "utf-8")
    records = list(loads(text))
    seen: list[str | None] = []
    for family in (Priffe, Preference):
        def counting(self: Any, record: Record, default: object, conventions: bool,
                     _analyse: Any = family.analyse) -> Any:
            seen.append(record.get("Board"))
            return _analyse(self, record, default, conventions)
        monkeypatch.setattr(family, "analyse", counting)
    code, out, _ = run("score", str(f))
    assert code == 0, out
    assert "Standings" in out and "Préférence" in out, "both games' sheets"
    assert len(seen) == len(records)


def test_an_evening_that_stops_mid_rubber_does_not_call_it_ended(tmp_path: Path) -> None:
    """The last rubber of an evening is often left open: its line says "so far", not "end"."""
    records = list(loads(partie_text()))
    f = tmp_path / "open.ppn"
    f.write_text(dumps(records[:1]), encoding="utf-8")
    for lang, said, never in (("en", "rubber 1 so far: Σ NS", "end of rubber"),
                              ("sv", "robbert 1 hittills: Σ NS", "robbert 1 slut")):
        code, out, _ = run("--lang", lang, "score", str(f))
        assert code == 0 and said in out and never not in out, out
