"""The root of every error the package raises on purpose, so callers can catch one class."""

from __future__ import annotations


class PriffeError(Exception):
    """Base of all priffe-records errors; anything else escaping is a bug."""
