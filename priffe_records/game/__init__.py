"""The table and the deck: cards, seats, calls and their words, shared by every game family.

The lowest layer: it imports nothing else of the package.
"""
