"""The knobs of one serving pool, declared once with their bounds and meaning."""

from __future__ import annotations

import param

from core.catalog import DEFAULT_GPU, GPUS, MODELS, TIERS, WEIGHT_FORMATS
from core.catalog.custom import CUSTOM, parsed_config
from core.catalog.engine_versions import ENGINE_VERSIONS, versions_of
from core.catalog.engines import DEFAULT_ENGINE, ENGINES
from core.catalog.release_names import release_key
from core.catalog.tiers import OFFLOADS
from core.catalog.traces import TRACES
from core.catalog.workloads import DEFAULT_WORKLOAD, WORKLOADS
from core.foundation.validation import Amount, Choice, Count, knob_error

DTYPES = ["bf16", "fp8"]  # cache storage
WEIGHT_DTYPES = list(WEIGHT_FORMATS)
REALISMS = ["whiteboard", "engine"]
SERVING_MODES = ["aggregated", "chunked", "disaggregated"]
KV_LINKS = ["nvlink", "infiniband"]
SERVING_ENGINES = list(ENGINES)
# Every release any engine has in the catalog; resolve checks the one chosen is the engine's.
ENGINE_RELEASES = sorted(
    {entry.version for entry in sum(ENGINE_VERSIONS.values(), ())},
    key=release_key,
)
TRAFFICS = ["poisson", "bursty", *TRACES]
# How a fleet of replicas hands out arrivals (core.cache.routing implements each).
ROUTERS = ("round-robin", "least-outstanding", "prefix-affinity")


class ConfigText(param.String):
    """A pasted config.json: empty, or one :func:`core.catalog.config_json.parse_config` reads."""

    def _validate_value(self, val, allow_None):
        if not isinstance(val, str) and not (allow_None and val is None):
            raise knob_error(self.name, val, "the text of a config.json")
        if val:
            parsed_config(val)


class NamedChoice(param.Selector):
    """A choice that also takes its names as people write them: any case, and known aliases."""

    __slots__ = ["aliases"]

    def __init__(self, aliases=None, **params):
        self.aliases = dict(aliases or {})
        super().__init__(**params)

    def __set__(self, obj, val):
        super().__set__(obj, canonical_choice(val, self.objects, self.aliases))


def canonical_choice(value, choices, aliases):
    """``value`` as the choice it names (``"vLLM"`` is ``"vllm"``), or unchanged if it names none."""
    if not isinstance(value, str) or value in choices:
        return value
    folded = value.strip().lower()
    return aliases.get(folded, folded if folded in choices else value)


LAYOUTS = ["tp", "ep", "dep"]
LAYOUT_ALIASES = {"tp+ep": "ep", "tep": "ep", "dp+ep": "dep", "dp attention": "dep",
                  "attention-dp": "dep"}  # fmt: skip
ENGINE_ALIASES = {"trtllm": "tensorrt-llm", "trt-llm": "tensorrt-llm", "tensorrt": "tensorrt-llm",
                  "tensorrt_llm": "tensorrt-llm"}  # fmt: skip


class Scenario(param.Parameterized):
    """A dedicated serving pool and the traffic it must carry.

    Its defaults are the walkthrough's pool: chat traffic, the 8B-class model on one
    H100, 16 seats, 1,200-token prompts with 30 % of prompt tokens found in the prefix
    cache, and a bf16 KV cache. Knobs left as ``None`` are filled in from the workload
    (answer length, arrival rate), the model (cards) or the GPU (price).
    """

    workload = Choice(
        default=DEFAULT_WORKLOAD,
        objects=list(WORKLOADS),
        doc="Traffic shape: peak-minute arrival rate and answer length.",
    )
    tier = Choice(
        default="small",
        objects=list(TIERS),
        doc="Model tier: 'small' is the 8B class on 1 card, 'large' the 70B class on 2.",
    )
    model_config = ConfigText(
        default="",
        doc="A pasted Hugging Face config.json (kept compact), the model when model='custom'.",
    )
    model = Choice(
        default=None,
        objects=[None, *MODELS, CUSTOM],
        allow_None=True,
        doc="A named model from the catalog, or 'custom' for the pasted config.json; when set "
        "it replaces the tier's dimensions.",
    )
    gpu = Choice(
        default=DEFAULT_GPU,
        objects=[*GPUS, CUSTOM],
        doc="The accelerator card, or 'custom' for the card entered by hand.",
    )
    card_memory_gb = Amount(
        default=80.0, bounds=(1.0, 4096.0), doc="The custom card's memory in GB (1e9 bytes)."
    )
    card_tb_per_s = Amount(
        default=3.35, bounds=(0.01, 100.0), doc="The custom card's memory bandwidth in TB/s."
    )
    card_tflops = Amount(
        default=989.0,
        bounds=(1.0, 100_000.0),
        doc="The custom card's dense peak in TFLOP/s, used whatever the weight storage.",
    )
    cards = Count(
        default=None,
        bounds=(1, 64),
        allow_None=True,
        doc="Cards per tensor-parallel node; None takes the model's usual count.",
    )
    weight_dtype = Choice(
        default="bf16",
        objects=WEIGHT_DTYPES,
        doc="Storage of each weight: bf16 (2 bytes), fp8 (1), int4 with group scales (4.25 "
        "bits), MXFP4 (4.25 bits) or NVFP4 (4.5 bits).",
    )
    kv_dtype = Choice(
        default="bf16",
        objects=DTYPES,
        doc="Storage of each cached number: bf16 (2 bytes) or fp8 (1).",
    )
    seats = Count(
        default=16,
        bounds=(1, 4096),
        doc="Batch size: the most requests the scheduler runs at once on one node.",
    )
    prompt_tokens = Count(
        default=1200,
        bounds=(1, 4_000_000),
        doc="Tokens in every request's prompt, shared preamble included.",
    )
    answer_tokens = Count(
        default=None,
        bounds=(0, 1_000_000),
        allow_None=True,
        doc="Tokens in every answer; None takes the workload's.",
    )
    prefix_hit_rate = Amount(
        default=0.30,
        bounds=(0.0, 1.0),
        doc="Share of prompt tokens found in the prefix cache (vLLM's definition).",
    )
    # A pool sized for a peak of under one request every 100 minutes sits idle: its bill over
    # next to no tokens prices a million of them past any figure a page can print (and past
    # a float's range below ~1e-300), so the knob stops there.
    arrivals_per_min = Amount(
        default=None,
        bounds=(0.01, 1_000_000.0),
        allow_None=True,
        doc="Peak-minute arrivals per minute, 0.01 (one every 100 minutes) to 1,000,000; None "
        "takes the workload's.",
    )
    realism = Choice(
        default="whiteboard",
        objects=REALISMS,
        doc="Level of detail: the whiteboard's arithmetic, or what a real engine would measure.",
    )
    serving_mode = Choice(
        default="aggregated",
        objects=SERVING_MODES,
        doc="Engine level: prompts prefilled whole between decode steps, in chunks inside them, "
        "or on nodes of their own that ship the cache to decode nodes.",
    )
    kv_link = Choice(
        default="nvlink",
        objects=KV_LINKS,
        doc="Disaggregated: the link the cache crosses, NVLink inside a server or one 400 Gb/s "
        "InfiniBand port per card between servers.",
    )
    engine = NamedChoice(
        default=DEFAULT_ENGINE,
        aliases=ENGINE_ALIASES,
        objects=SERVING_ENGINES,
        doc="Engine level: the serving engine a benchmark ran, TensorRT-LLM, vLLM or SGLang, "
        "each with its own server and dispatch costs.",
    )
    engine_version = Choice(
        default=None,
        objects=[None, *ENGINE_RELEASES],
        allow_None=True,
        doc="Engine level: the engine's release (core/catalog/engine_versions.py), whose "
        "defaults and host costs the node takes; None is the newest the catalog knows.",
    )
    layout = NamedChoice(
        default="tp",
        objects=LAYOUTS,
        aliases=LAYOUT_ALIASES,
        doc="Engine level: how a node spreads the model, tensor parallel (TP), tensor-parallel "
        "attention with experts whole on each card (EP), or attention data-parallel with "
        "experts spread (DEP: every card keeps the shared weights and its own requests' cache).",
    )
    concurrency = Count(
        default=None,
        bounds=(1, 1_000_000),
        allow_None=True,
        doc="Closed-loop users, each sending a request when its last answer ends (a benchmark's "
        "load); None is open-loop arrivals at the peak-minute rate.",
    )
    run_requests = Count(
        default=None,
        bounds=(1, 10_000_000),
        allow_None=True,
        doc="Engine level, closed loop: the requests a benchmark sends in all before it stops "
        "(None: it never stops). Requests of fixed lengths finish in waves of the running "
        "batch, and the last wave runs only what is left, so the run's throughput is below the "
        "steady state's; no more run at once than the run sends.",
    )
    batch_limit = Count(
        default=None,
        bounds=(1, 1_000_000),
        allow_None=True,
        doc="Engine level, closed loop: the most requests a benchmark's command lets the engine "
        "run at once on one node (vLLM's --max-num-seqs, SGLang's --max-running-requests, "
        "TensorRT-LLM's --max_batch_size times its attention data-parallel ranks); None: the "
        "release's default, or the batch trtllm-bench sizes for itself.",
    )
    memory_share = Amount(
        default=None,
        bounds=(0.05, 1.0),
        allow_None=True,
        doc="Engine level: the share of each card's memory a benchmark's command lets the engine "
        "keep, each engine by its own flag: vLLM's --gpu-memory-utilization and SGLang's "
        "--mem-fraction-static (a share of the whole card, weights included), TensorRT-LLM's "
        "free_gpu_memory_fraction (a share of what weights, activations and the runtime "
        "leave); None: the release's own (0.9; SGLang's reserve by its own rule).",
    )
    recv_interval = Count(
        default=None,
        bounds=(1, 1000),
        allow_None=True,
        doc="Engine level, SGLang: the decode steps between the scheduler's polls for new "
        "requests (its --scheduler-recv-interval; a prefill step polls at once), so a new "
        "prompt waits for the next poll; None: every step, its default. Other engines poll "
        "every step.",
    )
    usd_per_gpu_hour = Amount(
        default=None,
        bounds=(0.0, 1000.0),
        allow_None=True,
        doc="Rental price of one card for one hour; None takes the catalog's assumption.",
    )
    traffic = Choice(
        default="poisson",
        objects=TRAFFICS,
        doc="Arrivals: Poisson at the peak-minute rate, a bursty stream at that mean rate, or "
        "one of Azure's production hours (2023), whose prompt and answer lengths replace the "
        "knobs' and whose peak minute is the rate unless arrivals_per_min is set.",
    )
    burstiness = Amount(
        default=1.0,
        bounds=(0.1, 10.0),
        doc="Bursty traffic: the coefficient of variation of the gaps between arrivals (1 is "
        "Poisson, above 1 arrivals bunch up).",
    )
    tpot_slo_s = Amount(
        default=0.1,
        bounds=(0.001, 10.0),
        doc="Time-per-output-token target in seconds: a request counts toward goodput when its "
        "first token meets the TTFT target and its answer streams at least this fast.",
    )
    replicas = Count(
        default=None,
        bounds=(1, 64),
        allow_None=True,
        doc="Nodes in the pool, each a replica behind the router; None sizes them for the "
        "peak minute.",
    )
    router = Choice(
        default="round-robin",
        objects=list(ROUTERS),
        doc="How the fleet's router picks a replica: in turn, the one with the fewest requests "
        "in flight, or the one that served the session before (prefix affinity).",
    )
    prefix_source = Choice(
        default="knob",
        objects=["knob", "derived"],
        doc="Where the prefix hit rate comes from: the knob, or derived from the router and each "
        "replica's finite prefix cache (the knob then sets the reusable share of a prompt).",
    )
    kv_offload = Choice(
        default="off",
        objects=OFFLOADS,
        doc="Where cached prefixes go when HBM lets them go: nowhere (off), host memory over "
        "PCIe Gen5 or NVLink-C2C (Grace), or host memory then local NVMe; a reuse copies the "
        "prefix back at that tier's bandwidth.",
    )
    session_turns = Count(
        default=None,
        bounds=(1, 10_000),
        allow_None=True,
        doc="Turns in one multi-turn session, each resending the history before it; None: no "
        "sessions, the prefix hit rate is the knob's.",
    )
    think_time_s = Amount(
        default=30.0,
        bounds=(0.0, 86_400.0),
        doc="Seconds between a session's answer and its next turn (a person reading, a tool "
        "running).",
    )
    turn_growth_tokens = Count(
        default=1000,
        bounds=(0, 1_000_000),
        doc="Tokens each turn adds to the session's context: the last answer and the new message.",
    )

    def __init__(self, **params):
        # A named model opens in its published checkpoint's format, as the lab's picker opens
        # it; a weight storage named alongside it is kept.
        if "model" in params and "weight_dtype" not in params:
            params = {**opening_knobs(params["model"]), **params}
        super().__init__(**params)
        # A plain-dict copy of the knobs, kept current by a watcher: reading param
        # attributes one by one costs more than the whole capacity model.
        self._knob_values = {name: getattr(self, name) for name in KNOBS}
        self.param.watch(self._remember, KNOBS)
        self._keep_custom_model_whole()

    def _remember(self, *events):
        for event in events:
            self._knob_values[event.name] = event.new
        if any(event.name in ("model", "model_config") for event in events):
            self._keep_custom_model_whole()
        if any(event.name in ("engine", "engine_version") for event in events):
            self._keep_release_of_engine()

    def _keep_release_of_engine(self):
        # A release names one engine's: another engine opens at its newest, and a release of
        # another engine (a hand-made link's) is not taken.
        engine, release = self.engine, self.engine_version
        if isinstance(engine, str) and release is not None and release not in versions_of(engine):
            self.engine_version = None

    def _keep_custom_model_whole(self):
        # A pasted model needs its config: without one the scenario falls back to the tier.
        if self.model == CUSTOM and not self.model_config:
            self.param.warning("model='custom' needs a pasted config.json; using the tier")
            self.model = None

    def knobs(self) -> dict:
        """The current value of every knob, by name."""
        return dict(self._knob_values)

    def runs_a_benchmark(self) -> bool:
        """Whether the engine level drives one node as a benchmark does (closed-loop users)."""
        return self.realism == "engine" and self.concurrency is not None

    def ends_a_run(self) -> bool:
        """Whether that benchmark stops after a set number of requests (``run_requests``), so
        the engine level prices its run's waves rather than its steady state."""
        return self.runs_a_benchmark() and self.run_requests is not None

    def moved_knobs(self) -> dict:
        """The knobs whose value differs from their default, by name (what a link or pin keeps)."""
        return {
            name: value
            for name, value in self._knob_values.items()
            if value != type(self).param[name].default
        }


KNOBS = [name for name in Scenario.param if name != "name"]


def opening_knobs(model) -> dict:
    """The knobs a model opens with: itself and, for a named model, its checkpoint's format.

    gpt-oss opens in MXFP4 and DeepSeek-V3 in fp8, the formats their published checkpoints
    ship; every other named model (the seed's 8B and 70B among them) in bf16. A pasted
    config.json, the tier (None) or an unknown name opens with the storage already set.

    >>> opening_knobs("gpt-oss-120b")
    {'model': 'gpt-oss-120b', 'weight_dtype': 'mxfp4'}
    >>> opening_knobs(None)
    {'model': None}
    """
    shape = MODELS.get(model) if isinstance(model, str) else None
    return {"model": model, **({"weight_dtype": shape.checkpoint_dtype} if shape else {})}
