"""The CLI speaks Swedish or English: --lang, PRIFFE_LANG, the locale; golden outputs of
validate, score and replay in both languages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA, EXAMPLES, GOLDEN, ROOT

from priffe_records.cli import cli
from priffe_records.game.language import language

BROKEN = DATA / "broken.ppn"
UPDATE = os.environ.get("PRIFFE_UPDATE_GOLDEN") == "1"


def _run(args: list[str], env: dict[str, str | None] | None = None) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, args, env=env)
    return res.exit_code, res.stdout, res.stderr


def _golden(name: str, text: str) -> None:
    """Compare with tests/golden/NAME (PRIFFE_UPDATE_GOLDEN=1 rewrites it)."""
    path = GOLDEN / name
    text = text.replace(str(ROOT) + os.sep, "")
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_validate_golden(lang: str) -> None:
    code, out, _ = _run(["validate", "--lang", lang, str(BROKEN)])
    assert code == 1
    _golden(f"validate-broken.{lang}.txt", out)


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_score_golden(lang: str) -> None:
    partie = EXAMPLES / "partie-uppsala.ppn"
    code, out, err = _run(["score", "--lang", lang, str(partie)])
    assert code in (0, 1), err
    _golden(f"score-uppsala.{lang}.txt", out + err)


def test_swedish_output_has_the_club_words_and_keeps_ids_and_places() -> None:
    _, sv, _ = _run(["validate", "--lang", "sv", str(BROKEN)])
    _, en, _ = _run(["validate", "--lang", "en", str(BROKEN)])
    assert "måste bekänna ruter" in sv and "must follow diamonds" in en
    assert "strafftrick" in sv and "spelförare" not in en
    assert "9 fel, 2 varningar, 2 ej kontrollerbara i 1 fil (5 givar)" in sv
    # Rule IDs and line:col are the same in both languages.
    def ids(text: str) -> list[tuple[str, str]]:
        return [(line.split()[1], line.split()[2]) for line in text.splitlines()
                if line.startswith("    ")]
    assert ids(sv)[:3] == ids(en)[:3]


def test_language_from_priffe_lang_then_locale_and_option_wins() -> None:
    sv_word = "Syd"
    assert sv_word in _run(["validate", str(BROKEN)], {"PRIFFE_LANG": "sv"})[1]
    assert sv_word in _run(["validate", str(BROKEN)], {"LANG": "sv_SE.UTF-8"})[1]
    assert sv_word not in _run(["validate", str(BROKEN)], {"LANG": "en_GB.UTF-8"})[1]
    assert sv_word not in _run(["validate", "--lang", "en", str(BROKEN)],
                               {"PRIFFE_LANG": "sv"})[1]
    assert sv_word in _run(["--lang", "sv", "validate", str(BROKEN)])[1]
    assert language() == "en"  # the CLI's choice does not leak into the library


def test_every_command_takes_lang() -> None:
    def walk(cmd: object, path: list[str]) -> list[list[str]]:
        import click
        out = [path]
        if isinstance(cmd, click.Group):
            for name, sub in cmd.commands.items():
                out += walk(sub, [*path, name])
        return out

    for path in walk(cli, []):
        code, out, _ = _run([*path, "--help"])
        assert code == 0 and "--lang" in out, path


def _subprocess(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("PRIFFE_LANG", "LC_ALL")}
    full.update(env)
    priffe = Path(sys.executable).parent / "priffe"  # the installed console script
    return subprocess.run([str(priffe), *args], env=full,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.slow  # a real process
def test_a_swedish_locale_speaks_swedish_and_lang_en_english_in_a_real_process() -> None:
    rel = str(BROKEN.relative_to(ROOT))
    sv = _subprocess(["validate", rel], LANG="sv_SE.UTF-8")
    en = _subprocess(["validate", "--lang", "en", rel], LANG="sv_SE.UTF-8")
    assert sv.returncode == en.returncode == 1
    assert sv.stdout == (GOLDEN / "validate-broken.sv.txt").read_text(encoding="utf-8")
    assert en.stdout == (GOLDEN / "validate-broken.en.txt").read_text(encoding="utf-8")


def test_cli_errors_speak_the_language() -> None:
    missing = str(Path("no-such-file.ppn"))
    code, _, err = _run(["score", "--lang", "sv", missing])
    assert code == 2 and "filen finns inte" in err
    code, _, err = _run(["score", "--lang", "en", missing])
    assert code == 2 and "no such file" in err


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_replay_of_an_illegal_move_golden_in_one_language(lang: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay never mixes languages: the engine's R11 message is in the replay's too."""
    # A path relative to the repository: the message wraps at 80 columns, so an
    # absolute path would move the line break with the checkout's folder name.
    monkeypatch.chdir(ROOT)
    code, out, _ = _run(["replay", "--lang", lang, "tests/golden/replay-revoke.ppn"],
                        {"NO_COLOR": "1"})
    assert code == 1
    _golden(f"replay-revoke.{lang}.txt", out)
    flat = " ".join(out.split())
    if lang == "sv":
        assert "Uppspelningen stannar här" in flat
        assert "stick 3: Väst spelar ♣4 men har ♦9 — måste bekänna ruter" in flat
        stop = flat[flat.index("Uppspelningen"):]
        assert not any(w in stop for w in ("West", "plays", "holding", "trick"))
    else:
        assert "trick 3: West plays ♣4 while holding ♦9 — must follow diamonds" in flat


def test_html_replay_in_swedish_has_no_english_engine_text(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    code, _, err = _run(["replay", "--lang", "sv", "--html", str(page),
                         str(GOLDEN / "replay-revoke.ppn")])
    assert code == 1, err
    html = page.read_text(encoding="utf-8")
    assert '<html lang="sv">' in html
    assert "måste bekänna ruter" in html and "must follow" not in html
    assert "skrev" in err  # "wrote …" on stderr, in Swedish too


def test_help_texts_speak_the_language_even_before_lang_is_parsed() -> None:
    code, out, _ = _run(["validate", "--help", "--lang", "sv"])
    assert code == 0 and "Kontrollera FILER mot priffereglerna" in out
    assert "Bara fel: inga varningar" in out
    _, out, _ = _run(["--help"], {"LANG": "sv_SE.UTF-8"})
    assert "Läs, kontrollera, arkivera och spela upp" in out
    _, out, _ = _run(["replay", "--help"], {"PRIFFE_LANG": "en"})
    assert "Replay deals of FILE trick by trick" in out
