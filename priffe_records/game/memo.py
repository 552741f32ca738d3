"""A bounded memo: answers kept by key, forgotten all at once when there are too many.

The engine reads the same few texts thousands of times in a file (a contract word, a
``NS 0 EW 40``, a suit's holding), so it keeps each answer; a file of many distinct
texts must not grow the memory without end, so a full memo starts again empty.
Where the key is the function's argument, ``functools.lru_cache`` does the same.

>>> m: Memo[str, int] = Memo(limit=2)
>>> m.keep("a", 1), m.keep("b", 2), m.get("a"), m.keep("c", 3), m.get("a")
(1, 2, 1, 3, None)
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict whose :meth:`keep` empties it first when it holds ``limit`` answers."""

    __slots__ = ("limit",)

    def __init__(self, limit: int = 4096) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` under ``key`` and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
