"""Swedish as the players write it: the glossary's words in the catalogue, counts that agree
with their noun, and numbers with the language's decimal sign."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLE_FILES

from priffe_records.archive.metadata import metadata
from priffe_records.cli import cli
from priffe_records.cli.output import Output, emit
from priffe_records.game import catalogs
from priffe_records.game.language import msg_n, number, percent, use_language
from priffe_records.replay.wording import words

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT.parent / "shared" / "GLOSSARY-sv.md"
SOURCES = ROOT / "priffe_records"

# The words GLOSSARY-sv.md forbids ("never …", "not …"), kept here so a clone without
# ../shared checks them too; the test below keeps this list in step with the glossary.
FORBIDDEN = ("Givets", "straffstick", "hedrar", "fil(er)")
# A count glued to a noun with both endings, as in "fil(er)", "giv(ar)", "post(er)".
_BOTH_ENDINGS = re.compile(r"\w\((?:er|ar|or|na|s)\)")
_GLOSSARY_BANS = re.compile(r"\b(?:never|not) [\"`*]([^\"`*]+)[\"`*]")


def _forbidden(text: str) -> list[str]:
    found = [w for w in FORBIDDEN
             if re.search(r"(?<!\w)" + re.escape(w) + r"(?!\w)", text, re.IGNORECASE)]
    return found + _BOTH_ENDINGS.findall(text)


def _swedish_texts() -> list[tuple[str, str]]:
    """Every Swedish text in the catalogue, each with its English id."""
    out = []
    for m in catalogs.read("sv"):
        if not m.id:
            continue
        english = m.id if isinstance(m.id, str) else m.id[0]
        for text in (m.string,) if isinstance(m.string, str) else m.string:
            out.append((english, text))
    return out


def test_the_forbidden_list_follows_the_glossary() -> None:
    if not GLOSSARY.is_file():
        pytest.skip("../shared/GLOSSARY-sv.md is not in this clone")
    banned = set(_GLOSSARY_BANS.findall(GLOSSARY.read_text("utf-8")))
    assert banned and banned <= set(FORBIDDEN), f"add to FORBIDDEN: {banned - set(FORBIDDEN)}"


def test_the_swedish_catalogue_uses_the_glossarys_words() -> None:
    bad = [(english, text, _forbidden(text)) for english, text in _swedish_texts()
           if _forbidden(text)]
    assert not bad, "\n".join(f"{e!r} → {t!r}: {w}" for e, t, w in bad)


def test_the_readmes_terminal_picture_uses_the_glossarys_words() -> None:
    """docs/replay-terminal.svg is a Swedish replay shown to every reader of the README:
    remade by docs/make_pictures.py whenever a word it shows changes."""
    text = html.unescape(re.sub(r"<[^>]+>", "", (ROOT / "docs" / "replay-terminal.svg")
                                .read_text("utf-8"))).replace("\xa0", " ")
    assert "Honnörer" in text and not _forbidden(text), _forbidden(text)


def test_the_check_finds_each_forbidden_word() -> None:
    """The check above can fail: each banned form is caught in a sentence."""
    assert _forbidden("Givets poäng") == ["Givets"]
    assert _forbidden("4 straffstick à 20") == ["straffstick"]
    assert _forbidden("Hedrar: inga") == ["hedrar"]
    assert _forbidden("10 giv(ar), 1 post(er)") == ["v(ar)", "t(er)"]
    assert _forbidden("honnörer, strafftrick, Givens poäng, 2 givar") == []


def test_no_swedish_word_table_in_the_code() -> None:
    """Swedish words live in the catalogue: no source file spells a forbidden one."""
    words_only = [w for w in FORBIDDEN if w.isalpha()]
    bad = [(str(p.relative_to(ROOT)), w)
           for p in [*SOURCES.rglob("*.py"), *SOURCES.rglob("*.html")] for w in words_only
           if re.search(r"(?<!\w)" + w + r"(?!\w)", p.read_text("utf-8"), re.IGNORECASE)]
    assert not bad, bad


def test_replay_words_come_from_the_catalogue() -> None:
    sv = words("sv")
    assert (sv.talon, sv.dropped_out, sv.forehand) == ("Talong", "lägger sig", "Förhand")
    assert sv.seats == ("Nord", "Öst", "Syd", "Väst") and sv.short == ("N", "Ö", "S", "V")
    en = words("en")
    assert (en.talon, en.short) == ("Talon", ("N", "E", "S", "W"))


def test_a_familys_score_words_come_from_the_catalogue() -> None:
    """Priffe words its score lines (R14–R21) from the same catalogue entries."""
    from priffe_records.format.reader import loads
    from priffe_records.replay.model import build_replays
    from priffe_records.replay.wording import score_lines

    text = (ROOT / "tests" / "golden" / "replay-example.ppn").read_text("utf-8")
    [r] = build_replays(list(loads(text)))
    sv = {s.rule: s.text for s in score_lines(r, words("sv"))}
    assert sv["R14–R15"] == "NS tar 10 stick (4 över 6): 4 strafftrick à 20 = 80"
    assert (sv["R17"], sv["R15–R17"]) == ("Honnörer: inga poäng för honnörer",
                                          "Givens poäng: NS 80 ÖV 0")
    with pytest.raises(ValueError, match="not available"):
        words("de")


@pytest.mark.parametrize(("n", "sv", "en"), [(1, "1 giv", "1 deal"), (10, "10 givar", "10 deals"),
                                             (1234, "1\xa0234 givar", "1,234 deals")])
def test_counts_agree_with_their_noun_and_use_the_languages_digits(n: int, sv: str,
                                                                   en: str) -> None:
    m = msg_n("{n} deal", "{n} deals", n)
    assert (m.render("sv"), m.render("en")) == (sv, en)


def test_numbers_and_percentages_per_language() -> None:
    assert percent(100, "sv") == "100,0\xa0%" and percent(100, "en") == "100.0%"
    assert number(62.5, "sv") == "62,5" and number(62.5, "en") == "62.5"


def test_a_table_shows_percentages_in_the_readers_language(
        capsys: pytest.CaptureFixture[str]) -> None:
    rows = [("Anna", 3, 66.7)]
    with use_language("sv"):
        emit(["player", "deals", "success_pct"], rows, Output(fmt="plain"))
    sv = capsys.readouterr().out
    assert "66,7\xa0%" in sv and "66.7" not in sv
    emit(["player", "deals", "success_pct"], rows, Output(style="csv"))
    assert capsys.readouterr().out.splitlines()[1] == "Anna,3,66.7", "CSV keeps the number"


ONE_DEAL = """\
[Event "Klubbkväll"]
[Site "Uppsala"]
[Date "2026.11.29"]
[Board "1"]
[West "Anna"]
[North "Bertil"]
[East "Cecilia"]
[South "David"]
[Dealer "N"]
[Contract "Hjärter"]
[Declarer "E"]
[Result "NS 5 EW 8"]
"""


def test_import_counts_agree_in_swedish(tmp_path: Path) -> None:
    src = tmp_path / "one.ppn"
    src.write_text(ONE_DEAL, encoding="utf-8")
    db = str(tmp_path / "a.db")
    res = CliRunner().invoke(cli, ["import", "--lang", "sv", str(src), "--db", db])
    assert res.exit_code == 0, res.output
    assert "1 fil, 1 giv: 1 ny, 0 dubbletter, 0 med fel" in res.stdout, res.stdout
    again = CliRunner().invoke(cli, ["import", "--lang", "sv", str(src), "--db", db])
    assert "1 giv: 0 nya, 1 dubblett, 0 med fel" in again.stdout, again.stdout
    res = CliRunner().invoke(cli, ["export", "--lang", "sv", "--db", db, "-o", "-"])
    assert "1 giv skriven" in res.stderr and "giv(ar)" not in res.stderr


def test_the_archive_metadata_speaks_the_readers_language() -> None:
    with use_language("sv"):
        sv = metadata("priffe.db")
    en = metadata("priffe.db")
    assert (sv["title"], en["title"]) == ("Priffearkiv", "Priffe archive")
    queries = sv["databases"]["priffe"]["queries"]
    assert queries["slams"]["title"] == "Slammar (R16)"
    assert queries["slams"]["sql"] == en["databases"]["priffe"]["queries"]["slams"]["sql"]
    columns = sv["databases"]["priffe"]["tables"]["deals"]["columns"]
    assert columns["made"] == "1 om spelförarsidan nådde sitt mål (R14), annars 0"


class _Urls:
    def path(self, p: str) -> str:
        return p


class _Datasette:
    urls = _Urls()


def test_datasette_links_in_swedish() -> None:
    pytest.importorskip("datasette")
    from priffe_records.cli.datasette_plugin import render_cell

    with use_language("sv"):
        deal = str(render_cell({"id": 3}, "[Board \"1\"]", "ppn", "deals", "a", _Datasette()))
        partie = str(render_cell({"id": 2}, "Klubbkväll", "event", "parties", "a", _Datasette()))
    assert ">spela upp ▶</a>" in deal and "replay ▶" not in deal
    assert partie.endswith('<a href="/a/parties/2/sheet">protokoll</a>')


# ------------------------------------------------------------------ no English in Swedish mode

_WORD = re.compile(r"[A-Za-zÅÄÖåäöÉé]{3,}")
# Words an English id has and no Swedish text has, yet a Swedish screen may show: each with
# why it is not a translation we lack.
ALLOWED = {
    "bash": "a shell's name (completion SHELL)", "zsh": "a shell's name",
    "fish": "a shell's name",
}
EXAMPLES = ROOT / "examples"
RUNS: tuple[tuple[str, ...], ...] = (
    ("validate", "examples/partie-uppsala.ppn"), ("validate", "examples/preference-graz.ppn"),
    ("validate", "tests/data/broken.ppn"), ("parse", "examples/partie-uppsala.ppn"),
    ("score", "examples/partie-uppsala.ppn"), ("score", "examples/preference-graz.ppn"),
    ("replay", "examples/partie-uppsala.ppn"), ("replay", "examples/preference-graz.ppn"),
    ("replay", "tests/golden/replay-revoke.ppn"), ("fmt", "--check", "examples/"),
    ("deal", "1", "--seed", "7"), ("deal", "--play", "1", "--seed", "7", "--game", "preference"),
    ("import", "examples/", "--db", "{db}"), ("query", "--db", "{db}"),
    ("stats", "--db", "{db}"), ("export", "--db", "{db}", "-o", "{out}"),
    ("sql", "SELECT count(*) AS n FROM deals", "--db", "{db}"),
)


def _english_only() -> set[str]:
    """Words of the English ids that no Swedish text uses: English a Swedish reader
    should never meet."""
    english: set[str] = set()
    swedish: set[str] = set()
    for m in catalogs.read("sv"):
        if not m.id:
            continue
        for text in (m.id,) if isinstance(m.id, str) else m.id:
            english |= {w.lower() for w in _WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}
        for text in (m.string,) if isinstance(m.string, str) else m.string:
            swedish |= _shown_words(text)
    return english - swedish


def _shown_words(text: str) -> set[str]:
    """The words of an output a reader takes for language: example command lines,
    options, paths and file names left out (they are typed, not read)."""
    lines = [line for line in text.splitlines()
             if not re.match(r"\s*(priffe|cat|datasette|pip|\$) ", line)]
    joined = re.sub(r"-\n\s*", "-", "\n".join(lines))  # an option wrapped at its hyphen
    prose = re.sub(r"(?<!\w)-{1,2}[\w-]+|\S*[/\\=_]\S*|priffe\s+[\w-]+"
                   r"|\S+\.(?:ppn|pbn|db|txt|csv|json|html)\b", " ", joined)
    return {w.lower() for w in _WORD.findall(prose)}


def _commands() -> list[tuple[str, ...]]:
    out = [(name, "--help") for name in cli.commands]
    return [*out, *RUNS]


def test_swedish_mode_shows_no_english_word(tmp_path: Path) -> None:
    """Every command's --help and output in Swedish, checked for a word only the English
    catalogue ids have; the words of the input files themselves (commentary, names, tag
    names) are the user's and may show as written."""
    english = _english_only() - set(ALLOWED)
    assert {"required", "penalty", "duplicates"} <= english, "the check has words to find"
    theirs = {w.lower() for p in [*EXAMPLE_FILES, ROOT / "tests/data/broken.ppn",
                                  ROOT / "tests/golden/replay-revoke.ppn"]
              for w in _WORD.findall(p.read_text("utf-8"))}
    found: dict[str, list[str]] = {}
    for args in _commands():
        argv = [a.format(db=tmp_path / "a.db", out=tmp_path / "out.ppn") for a in args]
        res = CliRunner().invoke(cli, ["--lang", "sv", *argv], env={"COLUMNS": "100"},
                                 prog_name="priffe",
                                 catch_exceptions=False)
        bad = sorted((_shown_words(res.output) & english) - theirs)
        if bad:
            found[" ".join(args)] = bad
    assert not found, found


def test_swedish_help_names_its_arguments_in_swedish() -> None:
    """A help text's own sentence names the argument as its usage line does (FIL, FILER),
    and the seats as a Swedish reader writes them (N, Ö, S, V): "file" is also a Swedish
    catalogue word, so the check above cannot see FILE."""
    found = {}
    for name in cli.commands:
        res = CliRunner().invoke(cli, ["--lang", "sv", name, "--help"], prog_name="priffe")
        english = set(re.findall(r"\b(?:FILE|FILES|PATH|INTEGER|DIRECTORY)\b|N, E, S",
                                 res.output))
        if english:
            found[name] = english
    assert not found, found


def test_the_english_check_can_fail() -> None:
    english = _english_only()
    assert _shown_words("2 duplicates, 20 poster") & english == {"duplicates"}
    assert _shown_words("  priffe fmt --check examples/\n  --output FIL") & english == set()


# ------------------------------------------------------------------ the score sheet on a screen


def _sheet(width: int) -> str:
    from io import StringIO

    from rich.console import Console

    from priffe_records.cli.report import SheetView
    from priffe_records.format.reader import read
    from priffe_records.rules.priffe.sheet import drawn, score_parties

    [sheet] = score_parties(list(read(EXAMPLES / "partie-uppsala.ppn", errors="collect")))
    buf = StringIO()
    with use_language("sv"):
        Console(file=buf, width=width, color_system=None).print(SheetView(drawn(sheet)))
    return buf.getvalue()


def test_the_sheet_fits_80_columns_without_cutting_a_word() -> None:
    text = _sheet(80)
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    assert "…" not in text and "Tvångsnoll" in text and "Hjärter" in text
    assert "robbert 1 slut: Σ NS 130, Σ ÖV 0 · NS vinner; Astrid Lindqvist +13" in text
    assert "\nR1 " not in text and "  R1 " not in text, "a rubber end is said in words"
    wide = _sheet(200)
    for word in ("anspråk", "lillslam", "utgång", "förlorar", "Ekström"):
        assert text.count(word) == wide.count(word), f"{word} is folded at 80 columns"


def test_the_sheet_follows_a_wide_terminal_and_piped_is_full_lines(tmp_path: Path) -> None:
    end = ("robbert 1 slut: Σ NS 130, Σ ÖV 0 · NS vinner; Astrid Lindqvist-Långnamnsson +13, "
           "Gunnar Berg -13, Märta Holm +13, Sven Ekström -13")
    src = tmp_path / "p.ppn"
    src.write_text((EXAMPLES / "partie-uppsala.ppn").read_text("utf-8").replace(
        "Astrid Lindqvist", "Astrid Lindqvist-Långnamnsson"), "utf-8")
    res = CliRunner().invoke(cli, ["--lang", "sv", "score", str(src)])
    lines = res.stdout.splitlines()
    assert end in lines, "piped: the rubber's end is one full line, longer than 120"
    rows = [line for line in lines if re.match(r"\s*\d+\s+[NÖSV]\s", line)]
    assert len(rows) == 11, "each deal one line when piped"
    assert "robbert 1 slut: Σ NS 130, Σ ÖV 0 · NS vinner; Astrid Lindqvist +13, Gunnar Berg " \
           "-13, Märta Holm +13, Sven Ekström -13" in _sheet(160), "a wide screen is used"


def test_the_import_progress_counts_records_with_their_noun() -> None:
    from rich.progress import Progress

    from priffe_records.cli.archive import _records_column

    column = _records_column()
    bar = Progress(column)
    bar.add_task("x", total=10, records=1)
    with use_language("sv"):
        assert str(column.render(bar.tasks[0])).strip() == "1 giv"
    assert str(column.render(bar.tasks[0])).strip() == "1 record"


def test_datasette_shows_a_preference_contract_in_swedish() -> None:
    pytest.importorskip("datasette")
    from priffe_records.cli.datasette_plugin import render_cell

    with use_language("sv"):
        cell = render_cell({"id": 3}, "HandClubs", "contract", "deals", "a", _Datasette())
        priffe = render_cell({"id": 4}, "Hjärter", "contract", "deals", "a", _Datasette())
    assert str(cell) == "Handklöver" and priffe is None  # Priffe's are Swedish already
    assert str(render_cell({"id": 3}, "HandClubs", "contract", "deals", "a",
                           _Datasette())) == "HandClubs"


@pytest.mark.parametrize("name", ["partie-uppsala.ppn", "preference-graz.ppn"])
def test_the_printable_sheet_in_swedish_has_no_english_word(tmp_path: Path, name: str) -> None:
    page = tmp_path / "sheet.html"
    res = CliRunner().invoke(cli, ["--lang", "sv", "score", str(EXAMPLES / name),
                                   "--html", str(page)])
    assert res.exit_code == 0, res.output
    text = re.sub(r"<style.*?</style>|<[^>]+>", " ", page.read_text("utf-8"), flags=re.S)
    shown = _shown_words(html.unescape(text))
    assert {"robbert", "slut"} <= shown or name.startswith("preference")
    assert not shown & _english_only(), shown & _english_only()


def test_findings_say_seat_letters_in_swedish(tmp_path: Path) -> None:
    """A seat in a Swedish finding is N/Ö/S/V, as the sheet and the replay say it."""
    text = ONE_DEAL.replace('[Declarer "E"]', '[Declarer "Vst"]').replace(
        '[Dealer "N"]', '[Dealer "N"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQX '
                        '765.432.AKQJ.T98 432.AKQJ.T98.765"]')
    src = tmp_path / "one.ppn"
    src.write_text(text, encoding="utf-8")
    sv = CliRunner().invoke(cli, ["--lang", "sv", "validate", str(src)]).stdout
    assert "ingen plats (N, Ö, S eller V); menade du V (Väst)?" in sv
    assert "Ö handen 'T98.765.432.AKQX'" in sv
    en = CliRunner().invoke(cli, ["--lang", "en", "validate", str(src)]).stdout
    assert "(N, E, S or W); did you mean W (West)?" in en and "E hand 'T98" in en
