"""Helpers for the Préférence tests: the PREFERENCE.md example and its three records."""

from __future__ import annotations

from pathlib import Path

from rules_support import set_section, set_tag

DATA = Path(__file__).resolve().parent / "data"
EXAMPLE = (DATA / "preference-graz.ppn").read_text(encoding="utf-8")
BOARDS = ["[Event" + b for b in EXAMPLE.split("\n[Event")[1:]]
BOARD1 = BOARDS[0].split("\n\n")[0] + "\n"
PLAY1 = BOARD1.split('[Play "E"]\n')[1].split("[Score")[0]
TRICKS1 = [line.split() for line in PLAY1.strip().splitlines()]


def example_with(board: int, **tags: str) -> str:
    """The three-deal example with tags of one board replaced."""
    parts = [b.rstrip("\n") + "\n" for b in BOARDS]
    for name, value in tags.items():
        parts[board - 1] = set_tag(parts[board - 1], name, value)
    return "\n".join(parts)


def board1_with(tricks: list[list[str]] | None = None, auction: str | None = None,
                **tags: str) -> str:
    """Board 1 alone, with its play, auction or tags changed."""
    text = BOARD1
    if tricks is not None:
        text = set_section(text, "Play", "E", "\n".join(" ".join(t) for t in tricks))
    if auction is not None:
        text = set_section(text, "Auction", "N", auction)
    for name, value in tags.items():
        text = set_tag(text, name, value)
    return text


def swapped(t1: int, c1: int, t2: int, c2: int) -> list[list[str]]:
    tricks = [list(t) for t in TRICKS1]
    tricks[t1][c1], tricks[t2][c2] = tricks[t2][c2], tricks[t1][c1]
    return tricks
