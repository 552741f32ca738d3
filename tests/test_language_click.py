"""Click's own words (Usage:, Options, Error:, Missing argument, the placeholders) follow the
language like ours: golden usage errors in both languages, every help page in Swedish."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import GOLDEN, ROOT

from priffe_records.cli import cli
from priffe_records.cli.click_words import METAVARS, metavar_words

UPDATE = os.environ.get("PRIFFE_UPDATE_GOLDEN") == "1"

# Mistakes a new user makes, each answered by click itself.
MISTAKES = [
    ["validate"],
    ["validate", "--bogus", "x.ppn"],
    ["validate", "--preset", "zz", "x.ppn"],
    ["valdate", "x.ppn"],
    ["fmt", "-o", "tests", "x.ppn"],
    ["validate", "--jobs", "0", "x.ppn"],
    ["query", "--limit", "many"],
    ["deal", "--seed"],
]
# English that must not be left on a Swedish page.
ENGLISH = ("Usage:", "Options:", "Commands:", "Show this message", "Show the version",
           "[OPTIONS]", "FILES", "[default:", "Error:", "Try '", "Missing argument",
           "No such", "Invalid value", "is not one of", "COMMAND", " FILE\n", " INTEGER",
           "FLOAT", "Examples:")  # TEXT is Swedish too


def _commands(cmd: click.Command, path: list[str]) -> list[list[str]]:
    out = [path]
    if isinstance(cmd, click.Group):
        for name, sub in sorted(cmd.commands.items()):
            out += _commands(sub, [*path, name])
    return out


def _mistakes(lang: str) -> str:
    runner = CliRunner()
    parts = []
    for args in MISTAKES:
        res = runner.invoke(cli, ["--lang", lang, *args], prog_name="priffe")
        assert res.exit_code == 2, (args, res.output)
        parts.append(f"$ priffe {' '.join(args)}\n{res.stderr}")
    return "\n".join(parts)


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_usage_errors_golden(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = _mistakes(lang)
    path = GOLDEN / f"click-errors.{lang}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_swedish_usage_errors_read_swedish_end_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = _mistakes("sv")
    for word in ENGLISH:
        assert word not in text, word
    for word in ("Användning: priffe validate [FLAGGOR] FILER...",
                 "Skriv 'priffe validate --help' för hjälp.", "Fel: Argument saknas",
                 "Flaggan '--bogus' finns inte", "Kommandot 'valdate' finns inte",
                 "Fil 'tests' är en mapp", "är inte något av 'en', 'sv'",
                 "ligger utanför intervallet", "'many' är inte ett giltigt heltal.",
                 "Flaggan '--seed' kräver ett värde"):
        assert word in text, word


def test_every_swedish_help_page_is_swedish_and_english_is_click_as_is() -> None:
    runner = CliRunner()
    for path in _commands(cli, []):
        sv = runner.invoke(cli, ["--lang", "sv", *path, "--help"], prog_name="priffe").output
        assert "Användning: priffe" in sv and "Flaggor:" in sv, path
        assert "[FLAGGOR]" in sv and "Visa den här hjälpen och avsluta." in sv, path
        left = [w for w in ENGLISH if w in sv]
        assert not left, (path, left)
        en = runner.invoke(cli, ["--lang", "en", *path, "--help"], prog_name="priffe").output
        assert "Usage: priffe" in en and "[OPTIONS]" in en and "Show this message" in en, path
    root = runner.invoke(cli, ["--lang", "sv", "--help"]).output
    assert "Kommandon:" in root and "KOMMANDO [ARGUMENT]..." in root


def test_every_placeholder_word_has_a_translation() -> None:
    """A new argument or option type shows its own word: it needs an entry in METAVARS."""
    assert set(metavar_words(cli)) <= set(METAVARS)


def test_a_path_made_during_a_swedish_run_is_english_again_afterwards() -> None:
    """click names a Path through gettext when the command is defined: a command module loaded
    lazily inside a Swedish run gets 'fil', which must not become its English word."""
    from priffe_records.cli.click_words import translate_types
    from priffe_records.game.language import use_language

    with use_language("sv"):
        command = click.Command("x", params=[click.Option(["--db"],
                                                          type=click.Path(dir_okay=False))])
        assert command.params[0].type.name == "fil"
        translate_types(command, "sv")
    translate_types(command, "en")
    assert command.params[0].type.name == "file"
    assert list(metavar_words(command)) == ["FILE"]


def test_click_texts_stay_click_s_own_outside_a_swedish_run() -> None:
    """Another click program in the process sees click's gettext lookup in English."""
    import click.exceptions

    assert click.exceptions._("Missing argument") == "Missing argument"  # type: ignore[attr-defined]
    from priffe_records.game.language import use_language

    with use_language("sv"):
        assert click.exceptions._("Missing argument") == "Argument saknas"  # type: ignore[attr-defined]


@pytest.mark.slow  # a real process
def test_a_swedish_locale_gets_swedish_click_words_in_a_real_process() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PRIFFE_LANG", "LC_ALL")}
    env["LANG"] = "sv_SE.UTF-8"
    priffe = Path(sys.executable).parent / "priffe"
    res = subprocess.run([str(priffe), "validate", "nope.ppn", "--bogus"], env=env,
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 2
    assert res.stderr.startswith("Användning: priffe validate [FLAGGOR] FILER...\n")
    assert "Fel: Flaggan '--bogus' finns inte." in res.stderr
    res = subprocess.run([str(priffe), "validate", "nope.ppn"], env=env,
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 2 and "nope.ppn: filen finns inte" in res.stderr
