"""Catalog upkeep with Babel: extract the messages, update the ``.po`` files, compile ``.mo``.

Used by developers (``python -m priffe_records.game.catalogs update``), by the
tests and by the package build (``setup.py`` loads this file by path, so it
imports nothing of the package). The running program reads the compiled ``.mo`` files;
it needs Babel only for numbers (:func:`~priffe_records.game.language.number`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent
LOCALE_DIR = PACKAGE / "game" / "locale"
DOMAIN = "priffe"
TRANSLATED = ("sv",)
# The marker functions of priffe_records.game.language, as Babel keyword specs;
# `pybabel extract -F babel.cfg -k msg -k msg_n:1,2 -k msg_p:1c,2 -k N_` is the same.
KEYWORDS: dict[str, Any] = {"msg": None, "msg_n": (1, 2), "msg_p": ((1, "c"), 2), "N_": None}


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract() -> Any:
    """A template catalog of every marked message in the package's sources."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (PACKAGE.parent / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    template = Catalog(project="priffe-records", domain=DOMAIN)
    for filename, lineno, message, comments, context in extract_from_dir(
            PACKAGE.parent, method_map, options_map, keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        template.add(message, None, [(filename, lineno)], auto_comments=comments,
                     context=context)
    return template


def read(lang: str) -> Any:
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def write(lang: str, catalog: Any) -> None:
    """Sorted by id, file names without line numbers: merges stay small."""
    from babel.messages.pofile import write_po

    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=True, include_lineno=False,
                 ignore_obsolete=True)


def update() -> dict[str, list[str]]:
    """Add new messages (untranslated) to every ``.po``, drop unused ones; returns the new ids."""
    from babel.messages.catalog import Catalog

    template = extract()
    added: dict[str, list[str]] = {}
    for lang in TRANSLATED:
        catalog = read(lang) if po_path(lang).exists() else Catalog(locale=lang, domain=DOMAIN)
        known = {m.id for m in catalog if m.id}
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        added[lang] = [str(m.id) for m in catalog if m.id and m.id not in known]
        write(lang, catalog)
    return added


def untranslated(lang: str) -> list[str]:
    """Ids in the sources with no (or a fuzzy) translation in ``lang``."""
    catalog = read(lang)
    out = []
    for m in extract():
        if not m.id:
            continue
        entry = catalog.get(m.id, context=m.context)
        strings = entry.string if entry is not None else None
        done = strings and (all(strings) if isinstance(strings, tuple) else True)
        if not done or (entry is not None and entry.fuzzy):
            out.append(m.id if isinstance(m.id, str) else m.id[0])
    return out


def stale() -> Iterator[tuple[Path, Path]]:
    """(po, mo) pairs whose ``.mo`` is missing or older than its ``.po``."""
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            yield po, mo


def compile_po(po: Path, mo: Path) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, domain=DOMAIN)
    mo.parent.mkdir(parents=True, exist_ok=True)
    tmp = mo.with_suffix(".mo.tmp")
    with tmp.open("wb") as f:
        write_mo(f, catalog)
    tmp.replace(mo)


def compile_all(force: bool = False) -> list[Path]:
    """Compile every ``.po`` whose ``.mo`` is stale (all with ``force``)."""
    pairs = [(po, po.with_suffix(".mo"))
             for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))] if force \
        else list(stale())
    for po, mo in pairs:
        compile_po(po, mo)
    return [mo for _, mo in pairs]


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "update":
        for lang, ids in update().items():
            print(f"{po_path(lang)}: {len(ids)} new message(s) to translate")
            for i in ids:
                print(f"  {i}")
        return 0
    if command == "compile":
        for mo in compile_all(force=True):
            print(f"compiled {mo}")
        return 0
    if command == "check":
        missing = {lang: untranslated(lang) for lang in TRANSLATED}
        for lang, ids in missing.items():
            for i in ids:
                print(f"{lang}: untranslated: {i}")
        return 1 if any(missing.values()) else 0
    print("usage: python -m priffe_records.game.catalogs update|compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
