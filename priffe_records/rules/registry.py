"""The game families, one line each: where each family's vocabulary lives.

Plain data that imports nothing, so both the reader (``format/vocabulary.py``, which
needs a family's call words and ``Scoring`` word) and the engine (``rules/family.py``,
which loads the family object the vocabulary names) read it without climbing a layer.
A new family is a folder ``rules/<family>/`` and one line here; the first line's family
reads the records no family claims.
"""

REGISTRY: tuple[str, ...] = (
    "priffe_records.rules.priffe.words:WORDS",  # first: the default family
    "priffe_records.rules.preference.words:WORDS",
)
