"""Replay: a view model built from the engine's analysis, drawn in the terminal and as HTML."""
