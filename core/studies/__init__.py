"""Studies over many evaluations: the throughput-latency frontier and which knobs mattered."""
