"""The lab's vocabulary below every model: knob validation, scalar-or-array helpers, units and
significant figures, and the one number vocabulary (numbers: how each quantity is written)."""
