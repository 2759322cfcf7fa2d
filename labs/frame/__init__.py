"""The frame around the labs: the header and navigation, pins, and the A/B comparison."""
