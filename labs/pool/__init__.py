"""The pool lab: workload, SLO and knobs to seats, first-token time, the bill and the memory ledger."""

from labs.pool.lab import PoolLab

__all__ = ["PoolLab"]
