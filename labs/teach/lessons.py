"""Three ready lessons of about fifty minutes: links into the lab, poll questions, what to say.

A lesson is plain data: steps, each a link (the lab and the values its link keeps), the minutes
it takes, what to say there and, at some steps, a poll question (a practice challenge and seed
of :mod:`core.practice.poll`, whose traps are the common wrong answers). What to say is a
template: its figures are filled in from :func:`core.evaluate` when the page is built
(:mod:`labs.teach.page`), never typed in. ``{now.x}`` is field ``x`` of the step's own
configuration, ``{before.x}`` of the step before.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Poll:
    """A poll question: practice challenge ``challenge`` drawn with ``seed``."""

    challenge: str
    seed: int = 1


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a link, how long, what to say, and an optional poll question."""

    title: str
    minutes: int
    lab: str
    link: dict = field(default_factory=dict)  # the link's values beyond the lab, as it writes them
    say: str = ""
    poll: Poll | None = None


@dataclass(frozen=True)
class Lesson:
    """A lesson: its name, what the class should leave knowing, and its steps in order."""

    key: str
    title: str
    goal: str
    steps: tuple[Step, ...]

    @property
    def minutes(self) -> int:
        return sum(step.minutes for step in self.steps)


MEMORY = Lesson(
    "memory",
    "Memory decides the batch",
    "A node serves as many requests at once as its memory holds caches for, once the weights "
    "are in; the cache's bytes per token set that number, not the cards' FLOPs.",
    (
        Step("Bytes per cached token", 8, "kv", {},
             "Every layer keeps a key and a value for every token: {now.kv_bytes_per_token} a "
             "token for the small model, so one seat of {now.seat_tokens} tokens holds "
             "{now.seat_kv_bytes}. Ask the poll before showing the derivation.",
             Poll("kv_bytes")),
        Step("The ledger: weights first, then the cache", 12, "pool", {},
             "One {now.gpu} holds {now.node_memory_bytes}: the weights take "
             "{now.weight_bytes}, a safety margin {now.margin_bytes}, and {now.kv_budget_bytes} "
             "is left for the cache. Memory grants {now.seats_granted} of the "
             "{now.seats_requested} seats asked. Point at the ledger, then poll.",
             Poll("seat_budget")),
        Step("Halve the bytes: an fp8 cache", 10, "pool", {"kv_dtype": "fp8"},
             "Only the cache's storage changes: {before.kv_bytes_per_token} becomes "
             "{now.kv_bytes_per_token} a token, and each seat costs half the memory. Ask what "
             "happens to the seats before anyone moves a knob.",
             Poll("fp8_seats")),
        Step("A bigger model eats the room", 10, "pool", {"tier": "large", "seats": "64"},
             "The large model's weights take {now.weight_bytes} across {now.cards} cards and "
             "leave {now.kv_budget_bytes} for the cache: of {now.seats_requested} seats asked, "
             "memory grants {now.seats_granted}. The FLOPs did not change the answer; the bytes "
             "did."),
        Step("Wrap-up: the same node, the cache in fp8", 10, "pool",
             {"tier": "large", "seats": "64", "kv_dtype": "fp8"},
             "With an fp8 cache the large model is granted {now.seats_granted} seats instead of "
             "{before.seats_granted}. Ask the class to write one sentence: what decides the "
             "batch, and which knob moved it most today."),
    ),
)  # fmt: skip

TAIL = Lesson(
    "tail",
    "The tail and the queue",
    "A pool that is busy on average makes its slowest requests wait: the p95 first token is "
    "set by the queue, and the queue by how full and how bursty the pool runs.",
    (
        Step("Prefill: the first token's own time", 10, "pool", {},
             "With nobody waiting, the first token takes the prefill: {now.prefill_s} for "
             "{now.prompt_tokens} prompt tokens on the small model. Poll before opening the "
             "derivation.",
             Poll("prefill_time")),
        Step("A busy pool: the median and the tail part ways", 10, "pool", {"tier": "large"},
             "The large model runs its {now.servers} seats {now.utilization} busy. The median "
             "first token is {now.ttft_p50_s}, the p95 {now.ttft_p95_s}: the tail is the queue "
             "(a p95 wait of {now.queue_wait_p95_s}), not the model."),
        Step("Bursts make the tail worse", 8, "pool",
             {"tier": "large", "traffic": "bursty", "burstiness": "3"},
             "Same mean load, arrivals in bursts: the p95 first token goes from "
             "{before.ttft_p95_s} to {now.ttft_p95_s}; the bill is {now.monthly_usd} (it was "
             "{before.monthly_usd}). Ask: what would you change first?"),
        Step("Buy headroom: more seats per node", 10, "pool", {"tier": "large", "seats": "24"},
             "{now.seats_granted} seats a node and {now.nodes} nodes: {now.servers} seats run "
             "{now.utilization} busy and the p95 first token is {now.ttft_p95_s}, for "
             "{now.monthly_usd} a month.",
             Poll("pd_split")),
        Step("Wrap-up: the single-stream ceiling", 10, "batching", {},
             "However idle the pool, one request streams no faster than the weights can be read "
             "once per token. Poll, then let the class find the ceiling on the chart.",
             Poll("stream_ceiling")),
    ),
)  # fmt: skip

PREFIX = Lesson(
    "prefix",
    "The prefix cache and the bill",
    "A prompt's shared preamble, kept in the cache, is read instead of recomputed: the first "
    "token comes sooner, and a router that sends a session back to its cache keeps the saving "
    "when the pool grows.",
    (
        Step("Cached or edited: one preamble, two first tokens", 10, "prefix", {},
             "The preamble every request shares is read from the cache; edit one token near "
             "its start and everything after it is recomputed. Switch between the two states."),
        Step("The hit rate and the first token", 10, "pool", {"prefix_hit_rate": "0"},
             "With no prefix cache every prompt token is computed: the p95 first token is "
             "{now.ttft_p95_s}. Move the hit rate up and watch it fall, and the bill: "
             "{now.monthly_usd} at no hits.",
             Poll("kv_room")),
        Step("Three replicas, round robin", 10, "pool",
             {"replicas": "3", "prefix_source": "derived"},
             "Three nodes, each session sent anywhere: a prompt finds its prefix cached "
             "{now.hit_rate} of the time, and the bill is {now.monthly_usd}."),
        Step("Three replicas, prefix-affinity routing", 10, "pool",
             {"replicas": "3", "router": "prefix-affinity", "prefix_source": "derived"},
             "Send each session back to the node that holds its cache: the hit rate goes from "
             "{before.hit_rate} to {now.hit_rate} and the p95 first token from "
             "{before.ttft_p95_s} to {now.ttft_p95_s}, for {now.monthly_usd} a month (round "
             "robin: {before.monthly_usd})."),
        Step("Wrap-up: what the bill pays for", 10, "pool", {"replicas": "3"},
             "Three nodes bill {now.monthly_usd} a month, {now.usd_per_million_output_tokens} "
             "per million output tokens. Poll, then ask which of today's knobs moved the bill "
             "and which only moved the first token.",
             Poll("monthly_bill")),
    ),
)  # fmt: skip

LESSONS = (MEMORY, TAIL, PREFIX)
