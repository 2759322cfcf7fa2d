"""Widgets the labs share: knobs, the node picker, the memory ledger, charts, presets, exports."""
