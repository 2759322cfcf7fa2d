"""Panel views of the capacity model: one Viewer per lab plus the pieces they share."""
