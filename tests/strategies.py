"""Hypothesis strategies for records with awkward strings, comments and partial sections."""

from __future__ import annotations

from hypothesis import strategies as st

from priffe_records.format.record import (
    Comment,
    CommentKind,
    RawSection,
    Record,
    Section,
    Tag,
    Token,
    TokenKind,
)
from priffe_records.game.calls import Call
from priffe_records.game.cards import FULL_DECK

# Tags whose values the reader normalises get values already canonical.
_FREE_NAMES = ("Event", "Site", "West", "North", "East", "South", "Annotator", "Room",
               "Stage", "Round", "Board", "Rubber", "Score", "ScoreRubber", "Honours",
               "Settlement", "Scoring", "HomeTeam", "Application")

# No U+FEFF: a byte-order mark after a file's start is dropped with a located warning
# (issue 28 item 5), so text holding one cannot read back as written.
_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
                           blacklist_characters="\x85\ufeff"),
    max_size=20)
tag_values = _text.filter(lambda s: not s.startswith("#"))
tag_names = st.one_of(st.sampled_from(_FREE_NAMES),
                      st.from_regex(r"\A[A-Z][A-Za-z0-9_]{0,8}\Z").filter(
                          lambda n: n not in ("Auction", "Play", "Note", "Dealer", "Deal",
                                              "Declarer", "Contract", "Result", "Date",
                                              "OptimumScore", "Vulnerable")
                          and not n.endswith("Table")))

brace_comments = st.builds(
    lambda t: Comment(t, CommentKind.BRACE),
    st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
                                   blacklist_characters="{}[\x85\ufeff") | st.just("\n"),
            max_size=20))
line_comments = st.builds(lambda t: Comment(t, CommentKind.LINE), _text)
escape_comments = st.builds(lambda t: Comment(t, CommentKind.ESCAPE),
                            _text.filter(lambda s: "PPN" not in s and "PBN" not in s
                                         and "EXPORT" not in s))
comments = st.lists(st.one_of(brace_comments, line_comments, escape_comments), max_size=2)

_cards = sorted(str(c) for c in FULL_DECK)


def _token(kind: TokenKind, text: str, irregularity: str | None = None):  # type: ignore[no-untyped-def]
    return st.builds(
        lambda note, nags, cs: Token(kind, text, irregularity, note, tuple(sorted(nags)),
                                     tuple(cs)),
        st.none() | st.integers(1, 32), st.lists(st.integers(0, 255), max_size=2), comments)


call_tokens = st.one_of(
    st.sampled_from([c.value for c in Call]).flatmap(
        lambda w: _token(TokenKind.CALL, w, None) | _token(TokenKind.CALL, w, "I")),
    st.sampled_from(["1NT", "2C", "X", "XX", "AP"]).flatmap(
        lambda w: _token(TokenKind.FOREIGN, w)),
    _token(TokenKind.UNKNOWN, "-"), _token(TokenKind.SKIP, "^S"))
card_tokens = st.one_of(
    st.sampled_from(_cards).flatmap(
        lambda c: st.sampled_from([None, "R", "L"]).flatmap(
            lambda irr: _token(TokenKind.CARD, c, irr))),
    _token(TokenKind.UNKNOWN, "-"))


def _section(tokens: st.SearchStrategy[Token]) -> st.SearchStrategy[Section]:
    """Tokens, then possibly '*' (ended) or '+' (to be continued): PBN puts '+' last."""
    ends = {"": (), "*": (Token(TokenKind.END, "*"),), "+": (Token(TokenKind.CONTINUE, "+"),)}
    return st.builds(lambda toks, end: Section(tuple(toks) + ends[end]),
                     st.lists(tokens, max_size=10), st.sampled_from(sorted(ends)))


seats = st.sampled_from(["N", "E", "S", "W"])
plain_tags = st.builds(
    lambda n, v, cs: Tag(n, v, tuple(cs)), tag_names, tag_values, comments)
section_elements = st.one_of(
    st.from_regex(r"\A[A-Za-z0-9+\-*\\/:.,]{1,6}\Z"),
    tag_values.map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'))
raw_section_tags = st.builds(
    lambda n, v, rows: Tag(n, v, (), RawSection(tuple(tuple(r) for r in rows))),
    tag_names, tag_values, st.lists(st.lists(section_elements, min_size=1, max_size=4),
                                    min_size=1, max_size=3))
# Tables (PBN §5.2): column names with and without a width and alignment, one cell a column.
_columns = st.builds(lambda name, width, align: name + (f"\\{width}{align}" if width else ""),
                     st.sampled_from(["Rank", "Contract", "Names_NS", "Score_NS"]),
                     st.integers(0, 8), st.sampled_from(["", "L", "R"]))
table_tags = st.integers(1, 4).flatmap(lambda n: st.builds(
    lambda name, cols, rows: Tag(name, ";".join(cols), (), RawSection(tuple(map(tuple, rows)))),
    st.sampled_from(["ScoreTable", "OptimumResultTable"]), st.lists(_columns, min_size=n,
                                                                   max_size=n),
    st.lists(st.lists(section_elements, min_size=n, max_size=n), min_size=1, max_size=3)))
auction_tags = st.builds(lambda s, cs, sec: Tag("Auction", s, tuple(cs), sec),
                         seats, comments, _section(call_tokens))
play_tags = st.builds(lambda s, cs, sec: Tag("Play", s, tuple(cs), sec),
                      seats, comments, _section(card_tokens))
note_tags = st.builds(lambda n, t: Tag("Note", f"{n}:{t}"), st.integers(1, 32), tag_values)


@st.composite
def records(draw: st.DrawFn) -> Record:
    # One tag of each name: PBN lets only Note repeat (a repeat is an error now).
    tags = draw(st.lists(st.one_of(plain_tags, raw_section_tags, table_tags), min_size=1,
                         max_size=6,
                         unique_by=lambda t: t.name))
    if draw(st.booleans()):
        tags.append(draw(auction_tags))
        tags.extend(draw(st.lists(note_tags, max_size=2)))
    if draw(st.booleans()):
        tags.append(draw(play_tags))
    return Record(tuple(tags), tuple(draw(comments)))
