"""The lab's vocabulary below every model: knob validation, scalar-or-array helpers, units."""
