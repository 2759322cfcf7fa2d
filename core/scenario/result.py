"""What one evaluation of a scenario reports."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

from core.catalog.workloads import BUDGET_USD_PER_MONTH
from core.foundation.vector import is_array


@dataclass(frozen=True)
class Result:
    """Every figure the labs show for one scenario, or arrays of them for a sweep.

    Sizes are in bytes and tokens, times in seconds, money in US dollars a month.
    Scalars are plain Python numbers when the scenario was scalar. The resolved knobs (price,
    arrivals, answer length, margin) are what the model used, so a lab quotes them instead of
    resolving a default again.
    """

    # model and memory, per node
    cards: int
    kv_bytes_per_token: float
    weight_bytes: float
    weight_bytes_per_card: float
    node_memory_bytes: float
    weights_fit: bool
    cards_needed: int
    kv_budget_bytes: float
    kv_budget_tokens: int
    margin_bytes: float
    seat_tokens: int
    seat_kv_bytes: float
    seats_requested: int
    seats_room: int
    seats_granted: int
    seats_waiting: int
    kv_tokens_in_use: int
    kv_bytes_in_use: float
    free_kv_bytes: float
    kv_share_of_weights: float
    outweigh_tokens: int
    # prompt (its mean over a trace's requests)
    prompt_tokens: float
    miss_tokens: float
    hit_tokens: float
    prefill_flops: float
    prefill_s: float
    prefix_read_s: float
    prefix_offloaded_share: float  # of the hit tokens, copied back from host memory or NVMe
    prefix_hbm_read_s: float  # the cached prefix read in place, were it all in HBM
    # decode
    decode_step_s: float
    decode_tokens_per_s: float
    stream_tokens_per_s: float
    single_stream_tokens_per_s: float
    weight_bytes_read: float  # per decode step: a mixture of experts reads the experts it touches
    # traffic and queue
    arrivals_per_s: float
    answer_tokens: int
    request_s: float
    sizing_request_s: float
    offered_load: float
    nodes: int
    servers: int
    utilization: float
    queue_wait_p95_s: float
    queue_unbounded: bool
    ttft_p95_s: float
    monthly_usd: float
    # the bill per token, at the peak-minute load sustained all month
    usd_per_million_output_tokens: float
    usd_per_million_input_tokens: float
    # the load a benchmark measures (closed-loop users, or the peak's arrivals on one node)
    throughput_tokens_per_s: float
    itl_s: float
    ttft_p50_s: float
    running_requests: float
    # the knobs as the model resolved them (a None knob takes its card's or workload's default)
    usd_per_gpu_hour: float
    arrivals_per_min: float
    hours_per_month: float
    card_memory_bytes: float
    kv_bytes_per_number: float
    weight_bytes_per_number: float
    margin_share: float
    kv_reserve_share: float
    # serving mode (engine level): the ITL tail, the cache's trip, nodes that only prefill
    itl_p99_s: float
    kv_transfer_s: float
    prefill_nodes: int
    # traffic: the share of requests meeting both targets, and how far bursts stretch the wait
    goodput: float
    queue_factor: float
    hit_rate: float  # the prefix hit rate used: the knob's, or the fleet's derived one
    # verdicts
    latency_ok: bool
    capacity_ok: bool
    cost_ok: bool

    @property
    def passes(self):
        """True where all three checks pass."""
        return np.logical_and(np.logical_and(self.latency_ok, self.capacity_ok), self.cost_ok)

    @property
    def prompt_s(self):
        """Seconds a prompt costs before its first token: prefill plus reading cached prefix."""
        return self.prefill_s + self.prefix_read_s

    @property
    def kept_share(self) -> float:
        """Share of the memory the weights leave that the whiteboard keeps for the KV cache."""
        return 1.0 - self.margin_share

    @property
    def kv_share_of_budget(self):
        """KV bytes in use over the KV room (0 when there is no room)."""
        return self.kv_bytes_in_use / np.maximum(self.kv_budget_bytes, 1.0)

    @property
    def bill_share_of_budget(self):
        """The monthly bill over the budget."""
        return self.monthly_usd / BUDGET_USD_PER_MONTH

    @property
    def seat_share_of_weights(self):
        """One seat's KV bytes over the weights' bytes."""
        return self.seat_kv_bytes / self.weight_bytes

    def per_card(self, name: str):
        """Field ``name`` (a node's bytes) split evenly across the node's cards."""
        return getattr(self, name) / self.cards

    def change_from(self, base: Result, name: str):
        """How far field ``name`` moved from ``base``'s: this minus base."""
        return getattr(self, name) - getattr(base, name)

    def as_dict(self) -> dict:
        """The fields by name."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


RESULT_FIELDS = [field.name for field in fields(Result)]

_INTEGER_FIELDS = {
    "prefill_nodes", "cards", "cards_needed", "kv_budget_tokens", "seat_tokens", "seats_requested", "seats_room",
    "seats_granted", "seats_waiting", "kv_tokens_in_use", "outweigh_tokens", "answer_tokens",
    "nodes", "servers",
}  # fmt: skip
_BOOL_FIELDS = {"weights_fit", "queue_unbounded", "latency_ok", "capacity_ok", "cost_ok"}


def package(values: dict) -> Result:
    """A :class:`Result` from every field's value: broadcast to one shape, each field its type.

    Raises
    ------
    ValueError
        Naming the field, where a count (seats, nodes, tokens) is not a finite number: a
        count has no NaN or infinite value to round, and a wrong one must never be shown.
    """
    if not any(map(is_array, values.values())):  # map: no generator's frame per field
        return Result(**{name: _scalar(name, value) for name, value in values.items()})
    arrays = np.broadcast_arrays(*(np.asarray(values[name]) for name in RESULT_FIELDS))
    scalar = arrays[0].ndim == 0
    packed = {}
    for name, array in zip(RESULT_FIELDS, arrays, strict=True):
        kind = bool if name in _BOOL_FIELDS else np.int64 if name in _INTEGER_FIELDS else float
        if kind is np.int64:
            _check_count(name, array)
            array = np.round(array)
        array = array.astype(kind)
        packed[name] = array.item() if scalar else array
    return Result(**packed)


def _check_count(name: str, value) -> None:
    finite = np.isfinite(np.asarray(value, dtype=float))
    if not finite.all():
        bad = np.asarray(value, dtype=float)[~finite].flat[0]
        raise ValueError(f"the capacity model gave {name}={bad}: a count must be a finite number")


def _scalar(name: str, value):
    """One field of a scalar result as a plain Python bool, int or float."""
    if name in _BOOL_FIELDS:
        return bool(value)
    if name in _INTEGER_FIELDS:
        number = float(value)
        if not math.isfinite(number):  # _check_count's test, on one number
            _check_count(name, number)
        return round(number)
    return float(value)
