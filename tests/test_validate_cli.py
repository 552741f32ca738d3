"""``priffe validate``: report, JSON lines, exit codes; the golden broken file."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rules_support import DATA, FORMAT_EXAMPLE

from priffe_records.cli import cli
from priffe_records.format.writer import dumps
from priffe_records.rules.priffe.generate import iter_records

GOLDEN = Path(__file__).resolve().parent / "golden"


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_validate_clean_file_exits_0(tmp_path: Path) -> None:
    f = tmp_path / "ok.ppn"
    f.write_text(FORMAT_EXAMPLE, encoding="utf-8")
    code, out, _ = run("validate", str(f))
    assert code == 0
    assert "0 errors, 0 warnings, 0 unverifiable in 1 file (1 record)" in out


def test_validate_broken_file_matches_golden_json() -> None:
    code, out, err = run("validate", "--nl", str(DATA / "broken.ppn"))
    assert code == 1
    rows = [json.loads(line) for line in out.splitlines()]
    for r in rows:
        r["file"] = Path(r["file"]).name
    golden = json.loads((GOLDEN / "broken.findings.json").read_text(encoding="utf-8"))
    assert rows == golden
    assert "9 errors, 2 warnings, 2 unverifiable" in err


def test_validate_report_groups_by_file_and_record_errors_first() -> None:
    code, out, _ = run("validate", str(DATA / "broken.ppn"))
    assert code == 1
    assert "record 1 (board 1)" in out and "record 4" in out
    assert "record 5" not in out  # a bridge deal (Contract "3NT"): bridge's, and legal
    rec2 = out.split("record 2 (board 2)")[1].split("record 3")[0]
    assert rec2.index("error") < rec2.index("warning") < rec2.index("unverifiable")
    assert "trick 3: East plays ♥6 while holding ♦10 — must follow diamonds" in out


def test_validate_missing_file_exits_2_without_traceback() -> None:
    code, out, err = run("validate", "no-such-file.ppn")
    assert code == 2
    assert err.strip() == "priffe: no-such-file.ppn: no such file"
    assert "Traceback" not in out + err


def test_validate_folder(tmp_path: Path) -> None:
    (tmp_path / "a.ppn").write_text(FORMAT_EXAMPLE, encoding="utf-8")
    (tmp_path / "b.ppn").write_text(FORMAT_EXAMPLE, encoding="utf-8")
    code, out, _ = run("validate", str(tmp_path))
    assert code == 0 and "in 2 files (2 records)" in out


def test_validate_conventions_and_preset_flags(tmp_path: Path) -> None:
    f = tmp_path / "en.ppn"
    text = FORMAT_EXAMPLE.replace('[Scoring "Priffe"]\n', "")
    text = text.replace('[Score "NS 80 EW 0"]', '[Score "NS 100 EW 0"]')
    text = text.replace('[ScoreRubber "NS 90 EW 0"]', '[ScoreRubber "NS 110 EW 0"]')
    f.write_text(text, encoding="utf-8")
    assert run("validate", str(f))[0] == 1  # sv: honours in two hands score nothing
    assert run("validate", "--preset", "en", str(f))[0] == 0  # en: the side holds three, 20
    code, out, _ = run("validate", "--conventions", "--preset", "en", "--nl", str(f))
    assert code == 0 and all(json.loads(line)["rule"] == "R9" for line in out.splitlines())


def test_validate_bad_preset_is_usage_error() -> None:
    code, _, err = run("validate", "--preset", "de", str(DATA / "broken.ppn"))
    assert code == 2 and "de" in err


def test_validate_bridge_corpus_never_crashes(corpus_dir: Path) -> None:
    code, out, err = run("validate", "--nl", str(corpus_dir))
    assert code == 1 and "Traceback" not in out + err
    msgs = [json.loads(line)["message"] for line in out.splitlines()]
    assert any(m.startswith("not a Priffe record") for m in msgs)


def test_validate_streams_a_big_file_with_a_progress_bar_on_a_terminal(
        tmp_path: Path, monkeypatch: object) -> None:
    import pytest

    from priffe_records.cli import rules
    from priffe_records.format.writer import write
    from priffe_records.rules.priffe.generate import generate_records

    mp = monkeypatch
    assert isinstance(mp, pytest.MonkeyPatch)
    f = tmp_path / "big.ppn"
    write(generate_records(120, seed=5), f)
    mp.setattr(rules, "PROGRESS_BYTES", 0)
    shown: list[str] = []
    real_open = rules.rich.progress.open

    def spy(path, mode, **kw):  # type: ignore[no-untyped-def]
        shown.append(kw["description"])
        return real_open(path, mode, **kw)

    mp.setattr(rules.rich.progress, "open", spy)
    mp.setattr(rules, "_stderr_is_terminal", lambda: True)
    result = CliRunner().invoke(cli, ["validate", str(f)])
    assert result.exit_code == 0, result.output
    assert shown == ["checking big.ppn"]
    assert "0 errors, 0 warnings, 0 unverifiable in 1 file (120 records)" in result.stdout


def _damaged_partie(event: str, n: int = 12) -> str:
    """A generated partie whose every ScoreRubber claims one point too many (R23)."""
    text = dumps(iter_records(n, 3, one_partie=True)).replace('[Event "', f'[Event "{event} ')
    return re.sub(r'\[ScoreRubber "NS (\d+)',
                  lambda m: f'[ScoreRubber "NS {int(m.group(1)) + 1}', text)


@pytest.mark.slow  # a real process
@pytest.mark.parametrize("style", ["--nl", "--json"])
def test_validate_prints_a_partie_s_findings_when_the_partie_ends(style: str) -> None:
    """Streamed: the first partie's rows are out while the input is still open, so the
    findings are never all held at once. The clean second partie is longer than the
    reader's block, so the reader has the start of it without waiting for the end."""
    first = _damaged_partie("Först")
    second = dumps(iter_records(150, 4, one_partie=True)).replace('[Event "', '[Event "Sedan ')
    proc = subprocess.Popen([sys.executable, "-c", "from priffe_records.cli import main; main()",
                             "validate", style, "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write((first + "\n" + second).encode())
        proc.stdin.flush()  # the input stays open: the second partie has not ended
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        early = os.read(proc.stdout.fileno(), 1 << 16).decode() if ready else ""
        assert "R23" in early
    finally:
        proc.stdin.close()
        rest = proc.stdout.read().decode()
        proc.wait(timeout=120)
    whole = early + rest
    rows = json.loads(whole) if style == "--json" else \
        [json.loads(line) for line in whole.splitlines()]
    assert len(rows) >= 2 and {r["rule"] for r in rows} == {"R23"}
