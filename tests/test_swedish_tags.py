"""No PBN tag name inside a Swedish sentence (issue 29 item 6; GLOSSARY-sv.md: "say what
it is"): ``poängen på raden säger NS 90 ÖV 0``, not ``Score säger …``.

A tag stays where the text is about the file's syntax and shows it as the file does, in
brackets or quotes (``[Score "…"]``, ``skriv Contract "Tvångsnoll"``), and in --help
texts that name a tag as a tag (``taggarna Score, Honours …``); English keeps the names.
Two checks: every Swedish finding the examples and the test files give (validate, the
score sheets' books, replay's checks: one engine), and every Swedish catalog entry of a
message the engine or the reader words (rules/, format/, game/).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import (
    CONFORMANCE_FILES,
    CORPUS_FILES,
    DATA,
    EXAMPLE_FILES,
    FIXTURE_FILES,
    GOLDEN_FILES,
)
from test_engine_equivalence import damaged, several_parties

from priffe_records import dumps, loads, read, validate
from priffe_records.game import catalogs
from priffe_records.game.language import render
from priffe_records.game.words import lacking_tags, tag_word
from priffe_records.rules.partie import parties

TAGS = ("Event", "Site", "Date", "Rubber", "Board", "West", "North", "East", "South", "Dealer",
        "Deal", "Scoring", "Declarer", "Contract", "Result", "Score", "Honours", "ScoreRubber",
        "Settlement", "Auction", "Play", "Talon", "Discard", "Dropout", "Pot", "Balance")
_BARE = re.compile(r"(?<![\w/.])(" + "|".join(sorted(TAGS, key=len, reverse=True)) + r")(?!\w)")
# What may show a tag: the file's own text in brackets or quotes, a field, a tag named as
# a tag ("taggen [Event]").
_SHOWN = re.compile(r"\[[^\]]*\]|'[^']*'|\"[^\"]*\"|\{[^}]*\}")

# Catalog entries of the engine's words that may keep a bare tag name, and why: none now
# (a tag the file's syntax needs is written as the file writes it, [Play], [Scoring "…"]).
ALLOWED: set[str] = set()


def bare_tags(text: str) -> list[str]:
    """The tag names ``text`` says outside brackets, quotes and fields."""
    return _BARE.findall(_SHOWN.sub("", text))


def test_bare_tags_are_found_and_file_tokens_are_not() -> None:
    assert bare_tags("Score säger NS 90, men …") == ["Score"]
    assert bare_tags("inte kontrollerat (saknar Auction, Play eller Deal)") == [
        "Auction", "Play", "Deal"]
    assert bare_tags("skriv [Contract \"Tvångsnoll\"]; taggen [Event]; 'Play'; PBN §3.6") == []


def test_the_tags_have_swedish_words_and_english_keeps_their_names() -> None:
    assert render(tag_word("Score"), "sv") == "poängen på raden"
    assert render(tag_word("Score"), "en") == "Score"
    assert render(tag_word("OptimumScore"), "sv") == "OptimumScore"  # a file's own tag
    lacking = lacking_tags(["Auction", "Play", "Deal"])
    assert render(lacking, "en") == "no Auction, Play or Deal"
    assert render(lacking, "sv") == "ingen budgivning, inget spel eller inga händer"
    for name in TAGS:
        assert not bare_tags(render(tag_word(name), "sv")), name


def _findings_sv(records: list[object], **kw: object) -> list[str]:
    """Every finding the validator and the books (score sheets, replay's checks) say."""
    said = [f.render("sv") for f in validate(records, **kw)]  # type: ignore[arg-type]
    for res in parties(records, **kw):  # type: ignore[arg-type]
        said += [f.render("sv") for f in res.findings]
    return said


# Tag values a secretary gets wrong, put into the first record of a test file: each
# gives a finding that names the tag.
_WRONG = {
    "evening-hand.ppn": [("Dealer", "Q"), ("Declarer", "Q"), ("Result", "NS 8 EW x"),
                         ("Score", "NS x"), ("Honours", "NS 40 EW 0 apa"),
                         ("ScoreRubber", "NS 1 2"), ("Contract", "Klöver"), ("Board", "x")],
    "format-example.ppn": [("Auction", "Q"), ("Play", "Q"), ("Deal", "N:AKQ")],
    "preference-graz.ppn": [("Dealer", "W"), ("Declarer", "Q"), ("Talon", "C9 C9"),
                            ("Discard", "x"), ("Dropout", "W"), ("Pot", "x"),
                            ("Balance", "x"), ("Result", "x"), ("Score", "x"),
                            ("Scoring", "Preference;ante=x")],
}


def _wrong_texts() -> list[str]:
    out = []
    for name, wrong in _WRONG.items():
        text = (DATA / name).read_text(encoding="utf-8")
        for tag, value in wrong:
            pair = f'[{tag} "{value}"]'
            at = re.search(rf'\[{tag} "[^"]*"\]', text)
            out.append(text[:at.start()] + pair + text[at.end():] if at is not None
                       else text.replace("[Dealer ", pair + "\n[Dealer ", 1))
    return out


def _damaged_texts() -> list[str]:
    texts = [dumps(damaged(seed, "en" if seed % 2 else "sv", 1 + seed % 6)) for seed in range(12)]
    return texts + [several_parties(seed, random.Random(seed)) for seed in range(3)] + \
        _wrong_texts()


FILES = EXAMPLE_FILES + FIXTURE_FILES + GOLDEN_FILES + CONFORMANCE_FILES + CORPUS_FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_finding_of_a_file_names_a_tag_in_swedish(path: Path) -> None:
    said = _findings_sv(list(read(path, errors="collect")))
    assert [(s, bare_tags(s)) for s in said if bare_tags(s)] == []


def test_no_finding_of_a_damaged_partie_names_a_tag_in_swedish() -> None:
    said = [s for text in _damaged_texts()
            for s in _findings_sv(list(loads(text, errors="collect")))]
    assert len(said) > 50
    assert [(s, bare_tags(s)) for s in said if bare_tags(s)] == []


def _engine_entry(locations: list[tuple[str, int | None]]) -> bool:
    return any(f.split("/")[1] in ("rules", "format", "game") for f, _ in locations)


def test_no_swedish_engine_message_names_a_tag() -> None:
    found = []
    for m in catalogs.read("sv"):
        if not m.id or not _engine_entry(m.locations):
            continue
        english = m.id[0] if isinstance(m.id, tuple) else m.id
        if english in ALLOWED:
            continue
        for text in (m.string if isinstance(m.string, tuple) else (m.string,)):
            if bare_tags(text):
                found.append((english, text))
    assert found == []


def test_a_finding_stored_with_a_tag_name_reads_with_its_word() -> None:
    """An archive's message_json from before the words (a tag's name in a field) renders
    as the engine words it now: no migration, the ids are the same."""
    from priffe_records.archive.stored_messages import shown

    lacking = ('{"id":"not checked ({why}): {what} is taken as written","plural":"not checked '
               '({why}): {what} are taken as written","n":1,"params":{"why":{"id":"no {tags}",'
               '"params":{"tags":{"id":"{a} or {b}","params":{"a":"Play","b":"Deal"}}}},'
               '"what":{"id":"honours"}}}')
    assert shown(lacking, None, "sv") == (
        "ej kontrollerat (inget spel eller inga händer): honnörer godtas som det står")
    assert shown(lacking, None, "en") == (
        "not checked (no Play or Deal): honours is taken as written")
    claim = '{"id":"{tag} {reason}","params":{"tag":"Score","reason":"x"}}'
    assert shown(claim, None, "sv") == "poängen på raden x"
