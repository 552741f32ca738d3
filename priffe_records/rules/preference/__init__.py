"""Austrian Préférence (PREFERENCE.md P1–P14): the second game family."""
