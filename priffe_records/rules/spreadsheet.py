"""A partie as spreadsheet rows, one a deal, and back: ``sheet-import`` and ``score --csv``.

A sheet holds, before its heading row, ``name, value`` rows for the partie
(Event, Site, Date, the players), then a heading row and one row a deal.
Columns are found by their Swedish or English headings, in any order and
case; each cell is read by the game's entry hooks (its family's ``entry``,
:mod:`priffe_records.rules.entry`), as ``priffe add`` reads an answer.
Every bad cell is a problem located by row and column heading; the records
are then checked by the rules engine, and its errors are located the same way.

>>> rows = [(1, ["Datum", "2026.11.26"]), (2, ["Nord", "Anna"]),
...         (3, ["Giv", "Kontrakt", "Spelförare", "Stick"]), (4, ["1", "Hjärter", "Ö", "10"])]
>>> got = import_rows(rows, "k.csv")
>>> [(r.get("Date"), r.get("North"), r.get("Declarer"), r.get("Result")) for r in got.records]
[('2026.11.26', 'Anna', 'E', 'NS 3 EW 10')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from priffe_records.format.errors import PriffeError
from priffe_records.format.record import PLAYER_TAGS, Record, Tag
from priffe_records.format.sheet_dates import sheet_date
from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import SEATS, Seat
from priffe_records.game.language import Message, msg, render
from priffe_records.game.words import file_words, shown_words
from priffe_records.rules.entry import (
    EntryError,
    cell_of,
    entry_form,
    parse_seat,
    verified_text,
    with_entry,
)
from priffe_records.rules.family import EntryForm, default_family, families, family_for
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.validate import validate

T = TypeVar("T")
# Column -> the headings it is found by (compared case-folded, without dots and blanks).
HEADINGS: dict[str, tuple[str, ...]] = {
    "Board": ("board", "deal", "giv", "givnr", "nr", "no"),
    "Dealer": ("dealer", "dlr", "given", "giver"),
    "Contract": ("contract", "kontrakt", "slutbud"),
    "Declarer": ("declarer", "decl", "spelförare"),
    "Result": ("tricks", "result", "stick", "resultat"),
    "Score": ("score", "poäng", "payments", "betalningar"),
    "Honours": ("honours", "honors", "honnörer"),
    "Dropout": ("dropout", "dropouts", "out", "avhopp", "ladesig"),  # Préférence (P9)
    # Players by seat, for a partie whose seats change at a rubber's end (R24): a name
    # holds from its row on.
    "North": ("north", "nord"), "East": ("east", "öst"), "South": ("south", "syd"),
    "West": ("west", "väst"),
}
# Rows before the headings: the partie's tags.
META: dict[str, tuple[str, ...]] = {
    "Event": ("event", "evenemang", "tävling", "klubb"),
    "Site": ("site", "plats", "ort"),
    "Date": ("date", "datum"),
    "North": ("north", "nord"), "East": ("east", "öst"), "South": ("south", "syd"),
    "West": ("west", "väst"),
    "Scoring": ("scoring", "regler"),
}
# What score --csv writes, per language (the import reads either); a game writes its own
# columns of these, some in words of its own (its entry hooks' heading_words).
WRITTEN = {"en": {"Board": "Board", "Dealer": "Dealer", "Contract": "Contract",
                  "Declarer": "Declarer", "Dropout": "Dropout", "Result": "Tricks",
                  "Honours": "Honours", "Score": "Score"},
           "sv": {"Board": "Giv", "Dealer": "Given", "Contract": "Kontrakt",
                  "Declarer": "Spelförare", "Dropout": "Avhopp", "Result": "Stick",
                  "Honours": "Honnörer", "Score": "Poäng"}}
META_WRITTEN = {"sv": {"Event": "Evenemang", "Site": "Plats", "Date": "Datum", "North": "Nord",
                       "East": "Öst", "South": "Syd", "West": "Väst", "Scoring": "Regler"}}
PLAYER_COLUMNS = tuple(PLAYER_TAGS[s] for s in SEATS)
# Columns whose values name sides or seats among numbers (NS 8 ÖV 5, Ö S), and seats alone.
_VALUE_COLUMNS = frozenset({"Result", "Score", "Honours", "Dropout"})
_SEAT_COLUMNS = frozenset({"Dealer", "Declarer"})


def _key(text: str) -> str:
    return "".join(text.casefold().replace(".", " ").split())


_BY_HEADING = {w: col for col, words in HEADINGS.items() for w in words}
_BY_META = {_key(w): tag for tag, words in META.items() for w in (tag, *words)}


@dataclass(frozen=True, slots=True)
class Problem:
    """A bad cell or a rule broken: where in the sheet (row, column heading) and what."""

    file: str
    row: int
    column: str | None
    text: Message | str
    severity: Severity = Severity.ERROR
    rule: str | None = None  # a rule the deal breaks; None for a cell that does not read

    def __str__(self) -> str:
        where = f"{self.file}:{self.row}" + (f":{self.column}" if self.column else "")
        rule = f" {self.rule}" if self.rule else ""
        return f"{where}: {self.severity.word}{rule}: {render(self.text)}"

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


@dataclass
class Imported:
    """The records a sheet gave, and every problem found; write only when none is an error."""

    records: list[Record] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)  # the sheet row of each record
    heads: dict[str, str] = field(default_factory=dict)  # column -> its heading in the sheet

    @property
    def ok(self) -> bool:
        return not any(p.is_error for p in self.problems)


@dataclass
class _Meta:
    """The partie's tags from the rows above the headings, and the cell each was read from
    (row, column letter), so a value that does not read names its cell."""

    values: dict[str, str] = field(default_factory=dict)
    cells: dict[str, tuple[int, str]] = field(default_factory=dict)


def _meta(rows: Sequence[tuple[int, list[str]]], file: str, out: Imported,
          given: Mapping[str, str]) -> _Meta:
    """The ``name, value`` rows above the headings; any other non-empty row is a warning.
    A date is read in any common spelling (:func:`sheet_date`) and written as PBN's; a
    tag ``given`` (an option) wins, and its cell is not read."""
    found = _Meta()
    for number, cells in rows:
        if not any(cells):
            continue
        tag = _BY_META.get(_key(cells[0]))
        if tag is None:
            out.problems.append(Problem(file, number, None, msg(
                "neither the headings (a Contract column) nor a row 'name, value' of Event, "
                "Site, Date or a player: ignored"), Severity.WARNING))
            continue
        if tag in given:
            continue
        at = next((i for i, c in enumerate(cells) if i and c), 1)
        value = cells[at] if at < len(cells) else ""
        found.cells[tag] = (number, column_letter(at))
        if tag == "Date" and not is_unspecified(value):
            day = sheet_date(value)
            if day is None:
                out.problems.append(Problem(file, number, column_letter(at), not_a_date(value)))
            value = day or "?"
        found.values[tag] = value
    return found


def not_a_date(value: str) -> Message:
    """What is said of a date cell or option that is no day: how to write one."""
    return msg("{value!r} is not a date: write it as 2026-11-25, 25.11.2026 or 25 nov 2026 "
               "(day before month)", value=value)


def column_letter(index: int) -> str:
    """The spreadsheet's name of the column at ``index`` (0 is A, 26 is AA)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass
class _Row:
    """One deal row's cells by column, and the problems met reading them."""

    number: int
    cells: dict[str, str]
    heads: dict[str, str]
    file: str
    problems: list[Problem]
    failed: int = 0

    def read(self, column: str, parse: Callable[[str], T]) -> T | None:
        """The cell read by ``parse``; a problem (and ``None``) when it does not read."""
        text = self.cells.get(column, "")
        try:
            return parse(text)
        except PriffeError as e:
            self.failed += 1
            self.problems.append(Problem(self.file, self.number, self.heads[column], e.args[0]))
            return None


def _partie(meta: Mapping[str, str], given: Mapping[str, str]) -> dict[str, str]:
    """The partie's tags: options win over the sheet's own rows; unknowns are ``?``.
    Only the seats that play the game (its family's ``players``) get a name."""
    scoring = given.get("Scoring") or meta.get("Scoring") or default_family().scoring_tag()
    seats = family_for(scoring).players
    tags = {name: given.get(name) or meta.get(name) or "?"
            for name in ("Event", "Site", "Date", *(PLAYER_TAGS[s] for s in seats))}
    tags["Scoring"] = scoring
    return tags


def _base(partie: Mapping[str, str], players: Mapping[Seat, str], board: str,
          dealer: Seat | None) -> Record:
    tags = [Tag(n, players[s] if s is not None else v) for n, v in partie.items()
            for s in [_SEAT_OF.get(n)]]
    tags.append(Tag("Board", board))
    if dealer is not None:
        tags.append(Tag("Dealer", dealer.value))
    return Record(tuple(tags))


_SEAT_OF = {PLAYER_TAGS[s]: s for s in SEATS}


def import_rows(rows: Sequence[tuple[int, list[str]]], file: str, *,
                given: Mapping[str, str] | None = None, first_dealer: Seat = Seat.N,
                options: object = None) -> Imported:
    """The partie a sheet holds, checked cell by cell and then by the rules.

    ``given`` tags (from the command line) win over the sheet's own rows;
    the dealer, when the sheet has no Dealer column or leaves a cell empty,
    passes on from ``first_dealer`` as the game deals (R3). ``options``: the
    game's own rule variants, ``None`` for its defaults.
    """
    out = Imported()
    head = next((i for i, (_, cells) in enumerate(rows)  # the first naming a contract column
                 if any(_BY_HEADING.get(_key(c)) == "Contract" for c in cells)), None)
    if head is None:
        out.problems.append(Problem(file, 1, None, msg(
            "no heading row with a Contract column (Contract or Kontrakt)")))
        return out
    meta = _meta(rows[:head], file, out, given or {})
    partie = _partie(meta.values, given or {})
    try:
        form = entry_form(partie["Scoring"])
    except EntryError as e:
        out.problems.append(Problem(file, rows[head][0], None, e.args[0]))
        return out
    columns = _columns(rows[head], file, out, form.computed)
    out.heads = {col: rows[head][1][i] for i, col in columns.items()}
    missing = [f"{WRITTEN['en'][c]}/{WRITTEN['sv'][c]}" for c in ("Declarer", "Result")
               if c not in out.heads]
    if missing:
        out.problems += [Problem(file, rows[head][0], None, msg("no {column} column", column=c))
                         for c in missing]
        return out
    _deal_rows(rows[head + 1:], columns, partie, first_dealer, out, file, form)
    if out.ok:
        _check(out, file, options, meta.cells)
    return out


def _deal_rows(rows: Sequence[tuple[int, list[str]]], columns: Mapping[int, str],
               partie: Mapping[str, str], first_dealer: Seat, out: Imported, file: str,
               form: EntryForm) -> None:
    """A record per deal row into ``out``, each read by the game's entry hooks; the board
    and dealer carry on from the row before, and a name in a player column holds from
    its row on."""
    family = family_for(partie["Scoring"])
    players = {s: partie[PLAYER_TAGS[s]] for s in family.players}
    if first_dealer not in players:  # a seat the game leaves empty (Préférence's West)
        out.problems.append(Problem(file, rows[0][0] if rows else 1, None,
                                    form.dealer_out(first_dealer)))
        return
    dealer: Seat | None = None
    board = 0
    for number, cells in rows:
        if not any(cells):
            continue
        row = _Row(number, {col: _read_words(col, cells[i] if i < len(cells) else "")
                            for i, col in columns.items()}, out.heads, file, out.problems)
        board = int(b) if (b := row.cells.get("Board", "")).isdigit() else board + 1
        players |= {s: name for s in players if (name := row.cells.get(PLAYER_TAGS[s]))}
        typed = row.read("Dealer", partial(parse_seat, players=dict(players))) \
            if row.cells.get("Dealer") else None
        dealer = typed if typed is not None else (
            first_dealer if dealer is None else family.next_dealer(dealer))
        entry = form.read_row(row, players)
        if entry is not None:
            base = _base(partie, players, row.cells.get("Board") or str(board), dealer)
            out.records.append(with_entry(base, entry))
            out.rows.append(number)


def _read_words(column: str, text: str) -> str:
    """A cell in the file's words: the sides and seats a Swedish sheet writes (ÖV, Ö, V) in a
    value column are PPN's EW, E, W; names, seats and contracts are read by their own rules."""
    return file_words(text) if column in _VALUE_COLUMNS else text


def _written(column: str, text: str, lang: str) -> str:
    """A cell as the reader writes it: a seat by its letter, a side by its name (Ö, ÖV)."""
    return shown_words(text, lang) if column in _VALUE_COLUMNS or column in _SEAT_COLUMNS \
        else text


def _columns(heading: tuple[int, list[str]], file: str, out: Imported,
             computed: tuple[str, ...]) -> dict[int, str]:
    """Cell index -> column, from the heading row; an unknown heading is a warning, but for
    what the game's sheet computes (``computed``: written by ``score --csv``)."""
    number, cells = heading
    columns: dict[int, str] = {}
    for i, text in enumerate(cells):
        col = _BY_HEADING.get(_key(text))
        if col is not None and col not in columns.values():
            columns[i] = col
        elif text and file_words(text) not in computed:
            out.problems.append(Problem(file, number, text, msg(
                "a column this program does not read: ignored"), Severity.WARNING))
    return columns


def _check(out: Imported, file: str, options: object,
           cells: Mapping[str, tuple[int, str]]) -> None:
    """The rules engine's errors and warnings, each at its row and (by its tag) column.

    ``cells``: where the partie's tags were read (row, letter), for a value the PPN text
    would not keep."""
    try:
        _, again = verified_text(out.records, file)
    except PriffeError as e:
        out.problems.append(_unkept(out, file, cells) or Problem(file, 1, None, e.args[0]))
        return
    for f in validate(again, options=options):
        if f.severity is Severity.UNVERIFIABLE or f.record is None:
            continue
        out.problems.append(Problem(file, out.rows[f.record - 1],
                                    _column_of(f, again[f.record - 1], out.heads), f.text,
                                    f.severity, f.rule))


def _unkept(out: Imported, file: str, cells: Mapping[str, tuple[int, str]]) -> Problem | None:
    """The first cell whose value the PPN text would not give back (one tag at a time)."""
    for rec, row in zip(out.records, out.rows, strict=True):
        for tag in rec.tags:
            try:
                verified_text([Record((tag,))], file)
            except PriffeError:
                number, column = cells.get(tag.name) or (row, out.heads.get(tag.name))
                return Problem(file, number, column, msg(
                    "{value!r} would not read back the same from the PPN file: write it "
                    "otherwise", value=tag.value))
    return None


def _column_of(f: Finding, rec: Record, heads: Mapping[str, str]) -> str | None:
    """The sheet's heading of the tag a finding points at (by its line in the text written)."""
    if f.location is None:
        return None
    for t in rec.tags:
        loc = t.location
        if loc is not None and loc.line == f.location.line:
            return heads.get(t.name)
    return None


def sheet_table(records: Sequence[Record], sheet: object, lang: str = "en"
                ) -> list[list[str]]:
    """A partie as rows :func:`import_rows` reads back to the same records.

    ``sheet``: the partie's score sheet, made by its game's family. The deal
    columns are the records' own values (the score as written, not as
    computed), then what the game's sheet computes (Priffe's running totals
    ``Σ NS``/``Σ EW``) for the reader. Player columns appear when the seats change.
    """
    form, deals = _deals_of(sheet)
    read = [(n, cells) for n, cells in deals if cells is not None]
    first = records[read[0][0] - 1]
    names = META_WRITTEN.get(lang, {})
    table = [[names.get(tag, tag), value] for tag in META
             if not is_unspecified(value := first.get(tag) or "")]
    table.append([])
    shown = lang if lang in WRITTEN else "en"
    own = form.heading_words.get(shown, {})
    heads = {c: own.get(c) or WRITTEN[shown][c] for c in form.columns}
    players = [t for t in PLAYER_COLUMNS if first.get(t) is not None]
    if len({tuple(records[n - 1].get(t) for t in players) for n, _ in read}) > 1:  # seats changed
        heads |= {t: names.get(t, t) for t in players}
    table.append([*heads.values(), *(shown_words(c, lang) for c in form.computed)])
    for n, cells in read:  # an unreadable record has no cells to write: its error says so
        table.append([_written(tag, cell_of(records[n - 1], tag), lang) for tag in heads]
                     + list(cells or ()))
    return table


def _deals_of(sheet: object) -> tuple[EntryForm, Sequence[tuple[int, tuple[str, ...] | None]]]:
    """The entry hooks of the game whose score sheet ``sheet`` is, and its deals."""
    for family in families():
        form = family.entry
        deals = form.sheet_rows(sheet) if form is not None else None
        if form is not None and deals is not None:
            return form, deals
    raise TypeError(f"no family's entry hooks know the sheet {sheet!r}")

