"""The KV cache calculator: bytes per token, seats per card, and attention variants side by side."""

from labs.kv.lab import KvLab

__all__ = ["KvLab"]
