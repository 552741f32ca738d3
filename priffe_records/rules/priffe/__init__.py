"""Priffe, the Swedish four-player game of RULES.md (R1–R30): auction, play, scoring, rubbers."""
