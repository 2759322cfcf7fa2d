"""What one evaluation of a scenario reports."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np


@dataclass(frozen=True)
class Result:
    """Every figure the labs show for one scenario, or arrays of them for a sweep.

    Sizes are in bytes and tokens, times in seconds, money in US dollars a month.
    Scalars are plain Python numbers when the scenario was scalar.
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
    # prompt
    miss_tokens: float
    hit_tokens: float
    prefill_flops: float
    prefill_s: float
    prefix_read_s: float
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
    # serving mode (engine level): the ITL tail, the cache's trip, nodes that only prefill
    itl_p99_s: float
    kv_transfer_s: float
    prefill_nodes: int
    # verdicts
    latency_ok: bool
    capacity_ok: bool
    cost_ok: bool

    @property
    def passes(self):
        """True where all three checks pass."""
        return np.logical_and(np.logical_and(self.latency_ok, self.capacity_ok), self.cost_ok)

    def as_dict(self) -> dict:
        """The fields by name."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


RESULT_FIELDS = [field.name for field in fields(Result)]
