"""priffe-records: read, validate, archive and replay records of the card game Priffe.

The record format is PPN, a profile of PBN 2.1; see ``docs/format.md``.
"""

from __future__ import annotations

__version__ = "0.1.0"
