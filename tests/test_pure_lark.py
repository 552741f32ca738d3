"""The reader without lark-cython: the path of users who install without the ``fast`` extra.

In this process the parser is rebuilt with ``PRIFFE_PURE_LARK=1`` and every input of the
frozen reader digests (tests/test_reader_equivalence.py: the examples, the test files,
the real PBN files, generated and damaged cases) must read exactly as frozen.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import test_reader_equivalence as frozen

from priffe_records.format import parser


@pytest.fixture
def pure_lark(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PRIFFE_PURE_LARK", "1")
    parser.get_parser.cache_clear()
    yield
    parser.get_parser.cache_clear()  # the next test builds the usual parser again


def test_the_parser_is_plain_lark(pure_lark: None) -> None:
    assert type(parser.get_parser().parser.parser).__module__ == "lark.parsers.lalr_parser"


@pytest.mark.slow  # long: every input read again
def test_plain_lark_reads_every_input_as_frozen(pure_lark: None) -> None:
    golden = frozen._golden()
    actual = frozen._actual()
    compared = [k for k in actual if k in golden and golden[k]["input"] == actual[k]["input"]]
    assert len(compared) >= 100, compared
    assert [k for k in compared if golden[k]["output"] != actual[k]["output"]] == []
