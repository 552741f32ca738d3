"""Words in the player's language: translatable messages and the gettext catalogs.

A message is kept as its English text (the gettext message id, with
``{name}`` fields) plus the values for those fields, not as a finished
string: a finding made by the engine can then be shown in Swedish by the CLI
and in English by a library user who never asked for a language. Values that
are themselves words (a seat, a suit, a nested message) are :class:`Message`
objects too, so a Swedish sentence never carries an English seat name.

The active language is English unless a caller picks one
(:func:`set_language`, :func:`use_language`); the CLI picks it from
``--lang``, ``PRIFFE_LANG`` or the locale (:func:`resolve_language`).

>>> m = msg("{seat} is dealt {count} cards; each player holds 13",
...         seat=msg("South"), count=12)
>>> str(m)
'South is dealt 12 cards; each player holds 13'
>>> m.render("sv")
'Syd har fått 12 kort; varje spelare ska ha 13'
>>> with use_language("sv"):
...     print(m)
Syd har fått 12 kort; varje spelare ska ha 13
"""

from __future__ import annotations

import errno
import gettext
import os
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "sv")
DEFAULT_LANGUAGE = "en"
DOMAIN = "priffe"
LOCALE_DIR = Path(__file__).with_name("locale")

_current: ContextVar[str] = ContextVar("priffe_language", default=DEFAULT_LANGUAGE)


class Message:
    """A translatable text: its gettext id, optional context/plural, and the field values.

    Equal messages have equal ids and values, so findings stay comparable.
    """

    __slots__ = ("context", "id", "n", "params", "plural")

    def __init__(self, id: str, params: Mapping[str, object] | None = None, *,
                 context: str | None = None, plural: str | None = None,
                 n: int | None = None) -> None:
        self.id = id
        self.params: Mapping[str, object] = dict(params or {})
        self.context = context
        self.plural = plural
        self.n = n

    def render(self, lang: str | None = None) -> str:
        """The text in ``lang`` (default: the active language)."""
        lang = lang or _current.get()
        cat = catalog(lang)
        if self.plural is not None:
            n = self.n if self.n is not None else 1
            text = (cat.npgettext(self.context, self.id, self.plural, n) if self.context
                    else cat.ngettext(self.id, self.plural, n))
        elif self.context is not None:
            text = cat.pgettext(self.context, self.id)
        else:
            text = cat.gettext(self.id)
        if not self.params and self.plural is None:
            return text
        values = {k: render(v, lang) for k, v in self.params.items()}
        if self.plural is not None:
            values.setdefault("n", number(self.n if self.n is not None else 1, lang))
        return text.format(**values)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Message({self.id!r}, {dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.id, self.context, self.n))

    def _key(self) -> tuple[object, ...]:
        return (self.id, self.context, self.plural, self.n, sorted(self.params.items()))


def msg(id: str, /, **params: object) -> Message:
    """Mark ``id`` for translation (Babel keyword ``msg``); fields are filled at render time."""
    return Message(id, params)


def msg_n(singular: str, plural: str, n: int, /, **params: object) -> Message:
    """A message with a plural form chosen by ``n`` (Babel keyword ``msg_n:1,2``); ``{n}`` is n."""
    return Message(singular, params, plural=plural, n=n)


def msg_p(context: str, id: str, /, **params: object) -> Message:
    """A short word that needs a context to translate (``rank`` "J"), keyword ``msg_p:1c,2``."""
    return Message(id, params, context=context)


def N_(text: str) -> str:
    """Mark a plain string for extraction only; it is translated where it is shown (help texts)."""
    return text


def render(value: object, lang: str | None = None) -> str:
    """A field value as text: messages (and anything with ``render``) in ``lang``."""
    if isinstance(value, Message):
        return value.render(lang)
    localised = getattr(value, "render", None)
    if callable(localised):
        return str(localised(lang or _current.get()))
    return str(value)


def listing(items: Sequence[object], conjunction: str | None = "and") -> Message:
    """``a, b and c`` (``"and"``), ``a, b or c`` (``"or"``) or ``a, b, c`` (``None``), in the
    language the whole message is rendered in."""
    if not items:
        return Message("")
    out = Message("{a}", {"a": items[0]})
    for i, item in enumerate(items[1:], start=2):
        if i == len(items) and conjunction == "and":
            out = msg("{a} and {b}", a=out, b=item)
        elif i == len(items) and conjunction == "or":
            out = msg("{a} or {b}", a=out, b=item)
        else:
            out = Message("{a}, {b}", {"a": out, "b": item})
    return out


def reason(error: BaseException) -> Message | str:
    """An exception's message as a field value: the Message it was raised with, if any."""
    first = error.args[0] if error.args else ""
    return first if isinstance(first, Message) else str(error)


def translate(text: str, lang: str | None = None) -> str:
    """A plain marked string (:func:`N_`) in ``lang``."""
    return catalog(lang or _current.get()).gettext(text)


# ------------------------------------------------------------------ numbers


def number(value: float, lang: str | None = None, decimals: int | None = None) -> str:
    """A count or a measure as the reader writes it (Babel's rules for the language):
    ``1 234`` and ``2,5`` in Swedish, ``1,234`` and ``2.5`` in English; ``decimals`` fixes
    how many digits follow the decimal sign.

    >>> number(2.5, "sv"), number(1234, "en"), number(100, "sv", decimals=1)
    ('2,5', '1,234', '100,0')
    """
    from babel.numbers import format_decimal  # only when a number is shown: import cost

    pattern = None if decimals is None else "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=_babel_locale(lang),
                          decimal_quantization=decimals is not None)


def percent(value: float, lang: str | None = None, decimals: int = 1) -> str:
    """A percentage given as 0–100, in the language's own pattern: ``100,0 %`` in Swedish
    (a no-break space before the sign), ``100.0%`` in English.

    >>> percent(100, "sv").replace("\xa0", " "), percent(62.5, "en")
    ('100,0 %', '62.5%')
    """
    from babel import Locale
    from babel.numbers import format_percent

    locale = Locale.parse(_babel_locale(lang))
    pattern = locale.percent_formats[None].pattern
    if decimals:
        pattern = pattern.replace("0", "0." + "0" * decimals, 1)
    return format_percent(value / 100, format=pattern, locale=locale)


def shown_date(value: str, lang: str | None = None) -> str:
    """A PBN date (``2026.11.29``) as the reader writes a date (Babel's medium format): a
    complete real date only; one with ``?`` parts, or anything else, is shown as written.

    >>> shown_date("2026.11.29", "sv"), shown_date("2026.11.29", "en"), shown_date("2026.??.??")
    ('29 nov. 2026', '29 Nov 2026', '2026.??.??')
    """
    from priffe_records.game.dates import pbn_day

    day = pbn_day(value)
    if day is None:
        return value
    from babel.dates import format_date  # only when a date is shown: import cost

    return format_date(day, "medium", locale=_babel_locale(lang))


def _babel_locale(lang: str | None) -> str:
    return {"sv": "sv_SE", "en": "en_GB"}[_checked(lang or _current.get())]


# ------------------------------------------------------------------ the active language


def language() -> str:
    """The active language: ``en`` unless a caller picked another."""
    return _current.get()


def set_language(lang: str) -> None:
    _current.set(_checked(lang))


class use_language:
    """Render in ``lang`` inside the block, e.g. a replay page built in Swedish.

    A class, not a generator: one never closed (a click context left open after
    ``--help``) is dropped by the collector without running its exit, where a generator's
    late ``finally`` would put back an old language in whatever code runs then.
    """

    def __init__(self, lang: str) -> None:
        self.lang = _checked(lang)

    def __enter__(self) -> None:
        self.token = _current.set(self.lang)

    def __exit__(self, *exc: object) -> None:
        _current.reset(self.token)


def _checked(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not available (use sv or en)")
    return lang


def resolve_language(option: str | None = None,
                     environ: Mapping[str, str] | None = None) -> str:
    """``--lang``, else ``PRIFFE_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``), else English; a locale we have no catalog for means English.

    >>> resolve_language(None, {"LANG": "sv_SE.UTF-8"})
    'sv'
    >>> resolve_language("en", {"PRIFFE_LANG": "sv"})
    'en'
    >>> resolve_language(None, {"LC_ALL": "C", "LANG": "sv_SE.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    if option:
        return _checked(option)
    chosen = env.get("PRIFFE_LANG", "").strip()
    if chosen:
        return _locale_language(chosen)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if value:  # the first one set decides, as in POSIX
            return _locale_language(value)
    return DEFAULT_LANGUAGE


def accepted_language(header: str) -> str | None:
    """The language a browser's ``Accept-Language`` header asks for: its most wanted tag
    (q-values honoured, ``q=0`` refused) that we have a catalog for; ``sv-SE`` is Swedish.
    ``None`` when the header names none of ours, so the caller keeps its default.

    >>> accepted_language("sv-SE,sv;q=0.9,en;q=0.5"), accepted_language("en-GB")
    ('sv', 'en')
    >>> accepted_language("en;q=0.4, sv;q=0.8"), accepted_language("de, fr"), accepted_language("")
    ('sv', None, None)
    """
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0  # a malformed weight: as if refused
        primary = tag.split("-")[0].lower()
        if q > 0 and primary in LANGUAGES:
            wanted.append((-q, i, primary))
    return min(wanted)[2] if wanted else None


def _locale_language(value: str) -> str:
    """``sv_SE.UTF-8`` → ``sv``; ``C``, ``POSIX`` and languages we lack → English."""
    code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog for ``lang``; English is the message ids themselves."""
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


# ------------------------------------------------------------------ stored messages


class Texts:
    """A field value we cannot store as a message: its text in each language, as rendered
    when it was stored."""

    __slots__ = ("texts",)

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = dict(texts)

    def render(self, lang: str | None = None) -> str:
        lang = lang or _current.get()
        return self.texts.get(lang) or self.texts.get(DEFAULT_LANGUAGE) or ""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Texts) and self.texts == other.texts

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.texts.items())))


def to_data(message: Message) -> dict[str, object]:
    """A message as JSON-ready data (the archive stores it), to be read back by
    :func:`from_data` and rendered in whatever language the reader has."""
    out: dict[str, object] = {"id": message.id}
    if message.context is not None:
        out["context"] = message.context
    if message.plural is not None:
        out["plural"] = message.plural
        out["n"] = message.n
    if message.params:
        out["params"] = {k: _value_data(v) for k, v in message.params.items()}
    return out


def _value_data(value: object) -> object:
    if isinstance(value, Message):
        return to_data(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Texts):
        return {"texts": value.texts}
    return {"texts": {lang: render(value, lang) for lang in LANGUAGES}}


def from_data(data: Mapping[str, Any]) -> Message:
    """The message :func:`to_data` stored."""
    params = {k: _value(v) for k, v in dict(data.get("params") or {}).items()}
    n = data.get("n")
    return Message(str(data["id"]), params, context=data.get("context"),
                   plural=data.get("plural"), n=int(n) if n is not None else None)


def _value(data: object) -> object:
    if isinstance(data, dict):
        return Texts(data["texts"]) if "texts" in data else from_data(data)
    return data


# ------------------------------------------------------------------ operating-system errors

# The C library's words for the errors a user meets (Python gives them in English).
_OS_ERRORS: dict[int, Message] = {
    errno.ENOENT: msg("no such file or folder"), errno.EACCES: msg("permission denied"),
    errno.EPERM: msg("operation not permitted"), errno.ENOSPC: msg("no space left on the disk"),
    errno.EROFS: msg("read-only file system"), errno.EISDIR: msg("is a folder"),
    errno.ENOTDIR: msg("not a folder"), errno.EEXIST: msg("already exists"),
    errno.EIO: msg("input/output error"), errno.EMFILE: msg("too many open files"),
}


def os_reason(error: OSError) -> Texts | str:
    """Why the operating system refused: the system's own words in English, ours in the
    other languages when we know the error, else the system's words in every language."""
    known = _OS_ERRORS.get(error.errno or 0)
    if known is None or not error.strerror:
        return error.strerror or str(error)
    return Texts({lang: error.strerror if lang == DEFAULT_LANGUAGE else known.render(lang)
                  for lang in LANGUAGES})
