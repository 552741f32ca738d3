"""The rules engine: one subpackage per game family, and what the families share.

Shared here: findings, the family protocol and registry, the partie driver and
``validate``. Knows nothing of Lark, SQLite or the terminal.
"""
