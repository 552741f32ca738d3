"""Contract bridge: the third game family (docs/bridge.md, PBN 2.1 §3)."""
