"""``--step``: walk a replay one trick at a time, driven by single key presses.

The position logic (:func:`move`) is pure so it can be tested without a
terminal; :func:`read_key` is the only part that touches the tty.

>>> move("right", 0, 3), move("b", 0, 3), move("q", 1, 3), move("right", 3, 3)
(1, 0, None, None)
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable
from typing import TextIO

NEXT_KEYS = frozenset({"enter", "space", "right", "n", "j", "pagedown", "down"})
BACK_KEYS = frozenset({"left", "b", "p", "k", "pageup", "up", "backspace"})
QUIT_KEYS = frozenset({"q", "escape", "ctrl-c", "ctrl-d", ""})  # "" is end of input

_ESCAPES = {"[A": "up", "[B": "down", "[C": "right", "[D": "left", "[5~": "pageup",
            "[6~": "pagedown", "OA": "up", "OB": "down", "OC": "right", "OD": "left"}
_SINGLE = {"\r": "enter", "\n": "enter", " ": "space", "\x7f": "backspace", "\x08": "backspace",
           "\x03": "ctrl-c", "\x04": "ctrl-d"}


def move(key: str, pos: int, last: int) -> int | None:
    """The position after ``key`` on position ``pos`` of ``0..last``; ``None`` means stop.

    Next on the last position ends the replay, Back on the first stays put,
    and any other key redraws where we are.
    """
    if key in QUIT_KEYS:
        return None
    if key in NEXT_KEYS:
        return pos + 1 if pos < last else None
    if key in BACK_KEYS:
        return max(0, pos - 1)
    return pos


def decode(chars: str) -> str:
    """A key name from the characters one key press sent (``\\x1b[C`` → ``right``)."""
    if chars.startswith("\x1b"):
        return _ESCAPES.get(chars[1:], "escape")
    if chars in _SINGLE:
        return _SINGLE[chars]
    return chars.lower()


def read_key(stream: TextIO | None = None) -> str:
    """Wait for one key press on a terminal, in raw mode, and name it."""
    import termios
    import tty

    stream = stream or sys.stdin
    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setraw(fd)
        first = os.read(fd, 1).decode("utf-8", "replace")
        chars = first
        if first == "\x1b":
            # An arrow key sends ESC [ C within a few milliseconds; a lone ESC does not.
            while select.select([fd], [], [], 0.05)[0] and len(chars) < 4:
                chars += os.read(fd, 1).decode("utf-8", "replace")
                if chars[-1].isalpha() or chars[-1] == "~":
                    break
        return decode(chars)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def walk(count: int, show: Callable[[int], None], key: Callable[[], str]) -> int:
    """Show positions ``0..count-1`` as the keys say; returns the last position shown."""
    pos = 0
    while True:
        show(pos)
        nxt = move(key(), pos, count - 1)
        if nxt is None:
            return pos
        pos = nxt
