"""Every figure the README quotes is read from the README and checked against the code that makes it."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bench.h20_batch_one import ANSWER as H20_ANSWER
from bench.h20_batch_one import dense_one_token_rows, stream_split
from bench.sc25_first_token import priced as first_token_priced
from bench.sc25_first_token import split as first_token_split
from core import Scenario, evaluate
from core.catalog import (
    BANDWIDTH_EFFICIENCY,
    GPUS,
    KERNEL_FLOOR_S,
    MEMORY_MARGIN,
    MODELS,
    PREFILL_EFFICIENCY,
)
from core.catalog.attention_kernels import LATENT_BLOCKS
from core.catalog.config_fields import MOST_PARAMS, SPANS
from core.catalog.dense_gemms import dense_gemm_floor
from core.catalog.host_costs import VLLM_V0_HOST_PER_REQUEST_S, VLLM_V1_HOST_PER_REQUEST_S
from core.catalog.layer_kernels import (
    BLOCK_FP8_LATENT_ATTENTION_INPUTS,
    LATENT_ATTENTION_GEMMS,
    LATENT_ATTENTION_KERNELS,
)
from core.evidence.cases_azure import AZURE
from core.evidence.cases_qwen_speed import QWEN_SPEED
from core.evidence.cases_rocm_page import ROCM_PAGE
from core.evidence.cases_vllm_prs import VLLM_PRS
from core.evidence.check_cases_argonne import CHECK_ARGONNE
from core.evidence.crossval import RESAMPLE_SHARE, RESAMPLES
from core.evidence.fidelity import peers as peer_indices
from core.evidence.fidelity import report, score
from core.evidence.scores import summarise
from core.whiteboard.attention import prefill_head_width
from labs.frame.shell import LabShell, lab_bindings
from labs.page.links import restore
from labs.server import build_budget
from labs.server.login_limit import EVERY_ADDRESS, PER_ADDRESS

ROOT = Path(__file__).resolve().parents[1]
README = " ".join((ROOT / "README.md").read_text().split())
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def azure_error(cases) -> float:
    """The engine level's geometric-mean error over ``cases``."""
    return score(cases).geometric_mean_error


def number(text: str) -> float:
    return float(text.replace(",", ""))


def quoted(pattern: str) -> tuple[float, ...]:
    """The numbers ``pattern``'s groups find in the README (its words with single spaces)."""
    found = re.search(pattern, README)
    assert found, f"the README no longer says {pattern!r}"
    return tuple(number(group) for group in found.groups())


def scores():
    found = report()
    first = found.scores["first"]
    return (
        first["whiteboard"].cases,
        round(100 * first["whiteboard"].geometric_mean_error),
        found.check["engine"].cases,
    )


def engine_scores():
    """The engine level's error and cases within the band on each set the README quotes."""
    found = report()
    first, second = found.scores["first"]["engine"], found.scores["second"]["engine"]
    check, check_second = found.check["engine"], found.check_second["engine"]

    def percent(score):
        return round(100 * score.geometric_mean_error, 1)

    return (
        percent(first), first.within_band, first.cases,
        percent(second), second.within_band, second.cases,
        percent(check),
        percent(check_second), check_second.within_band, check_second.cases,
    )  # fmt: skip


def login():
    return (
        PER_ADDRESS.free, EVERY_ADDRESS.free, PER_ADDRESS.first_lock_s,
        PER_ADDRESS.longest_lock_s / 60, EVERY_ADDRESS.first_lock_s,
        EVERY_ADDRESS.longest_lock_s / 60,
    )  # fmt: skip


def config_spans():
    return (
        SPANS["num_hidden_layers"].low, SPANS["num_hidden_layers"].high,
        SPANS["hidden_size"].low, SPANS["hidden_size"].high, SPANS["num_local_experts"].high,
        MOST_PARAMS / 1e12,
    )  # fmt: skip


def page_limits():
    rates = {
        float(rate)
        for rate in re.findall(r"zone=lab_(?:pages|sockets|embeds)\S* rate=(\d+)r/s", NGINX)
    }
    bursts = {
        float(burst)
        for burst in re.findall(r"zone=lab_(?:pages|sockets|embeds) burst=(\d+)", NGINX)
    }
    assert len(rates) == 1 and len(bursts) == 1, (rates, bursts)
    return (*rates, *bursts)


def check_set_figures(field: str) -> tuple:
    """A check set's rows, engine-level error (one decimal) and rows within the band, as the
    README quotes them: its size, the error, then "(within of size)"."""
    found = getattr(report(), field)["engine"]
    return found.cases, round(100 * found.geometric_mean_error, 1), found.within_band, found.cases


def argonne_figures() -> tuple:
    """Argonne's rows, error and rows within the band; its peers' (the same release on the same
    card in the development sets) count, error and within; then AMD's and Oracle's peers' alone."""
    whole = report()
    found, peers = whole.check_argonne["engine"], whole.argonne_peers
    theirs = summarise(
        whole.steps[
            [
                i
                for i in peer_indices(whole.cases, whole.sets["both"], CHECK_ARGONNE)
                if whole.cases[i].publisher not in {case.publisher for case in VLLM_PRS}
            ],
            -1,
        ]
    )
    return (
        found.cases, round(100 * found.geometric_mean_error), found.within_band, found.cases,
        peers.cases, round(100 * peers.geometric_mean_error), peers.within_band, peers.cases,
        theirs.cases, round(100 * theirs.geometric_mean_error), theirs.within_band, theirs.cases,
    )  # fmt: skip


def engine_ratios() -> dict[str, float]:
    """Each development case's engine-level ratio (predicted over measured), by its key."""
    whole = report()
    return {case.key: whole.steps[i, -1] for i, case in enumerate(whole.cases)}


def twenty_third_round_figures() -> tuple:
    """The engine-level ratios of Qwen's H20 rows (D31, D30, D29), two decimals."""
    ratio = engine_ratios()
    return tuple(round(ratio[key], 2) for key in ("D31", "D30", "D29"))


def twenty_sixth_round_figures() -> tuple:
    """vLLM V0's host seconds per running request (µs); the lowest and highest engine-level
    ratio of EmbeddedLLM's MI300X runs (one decimal); Argonne's error now (whole per cent);
    Oracle's and AMD's V0 rows at 128-256 users (throughput, then a request's time: lowest and
    highest, two decimals); V1's host seconds per request (µs, one decimal); the rocm/vllm
    image's V1 throughput rows (lowest and highest); the round's totals are history."""
    ratio, whole = engine_ratios(), report()
    runs = [ratio[case.key] for case in VLLM_PRS if case.gpu == "MI300X"]
    throughput = [ratio[key] for key in ("D35", "D36")]
    request = [ratio[key] for key in ("D85", "D86")]
    page = [ratio[case.key] for case in ROCM_PAGE if case.metric == "throughput"]
    return (
        round(VLLM_V0_HOST_PER_REQUEST_S * 1e6), round(min(runs), 1), round(max(runs), 1),
        round(100 * whole.check_argonne["engine"].geometric_mean_error),
        round(min(throughput), 2), round(max(throughput), 2),
        round(min(request), 2), round(max(request), 2),
        round(VLLM_V1_HOST_PER_REQUEST_S * 1e6, 1), round(min(page), 2), round(max(page), 2),
    )  # fmt: skip


def twenty_seventh_round_figures() -> tuple:
    """DeepSeek-R1's key width a head, its own and rotary parts, its value width, the mean the
    prefill multiplies at; Qwen3-Next's two H20 rows (D249-D250; the round's total is history)."""
    deepseek = MODELS["DeepSeek-R1"]
    keys = deepseek.head_dim + deepseek.qk_rope_head_dim
    ratio = engine_ratios()
    return (
        round(keys), deepseek.head_dim, deepseek.qk_rope_head_dim, deepseek.head_dim,
        round(float(prefill_head_width(deepseek))), round(ratio["D249"], 2),
        round(ratio["D250"], 2),
    )  # fmt: skip


def twenty_eighth_round_figures() -> tuple:
    """Qwen's 41 H20 rows (D251-D291): their error and cases within; the ranges of the dense
    models' ratios at a one-token prompt by format (FP8, bf16, AWQ), the GPTQ-Marlin mixtures';
    both sets now, and the 181 held before; the engine level's own split of the SC '25 one-user
    first tokens (its fixed ms and µs a token, lowest and highest of the two cards; ns a token
    squared)."""
    rows = summarise(np.array([engine_ratios()[case.key] for case in QWEN_SPEED]))
    short = {}
    for case, ratio in zip(QWEN_SPEED, rows.ratios, strict=True):
        name = case.model_label.split(" ")[0]
        fmt = next((tag for tag in ("FP8", "AWQ", "GPTQ") if tag in name), "bf16")
        mixture = "-A3B" in name or "-A22B" in name
        if case.prompt_tokens == 1 and mixture == (fmt == "GPTQ"):  # dense, but GPTQ's mixtures
            short.setdefault(fmt, []).append(ratio)
    spans = [
        round(bound(short[fmt]), 2)
        for fmt in ("FP8", "bf16", "AWQ", "GPTQ")
        for bound in (min, max)
    ]
    whole = report()
    both = whole.scores["both"]["engine"]
    new = {case.key for case in QWEN_SPEED}
    held = summarise(
        whole.steps[[i for i in whole.sets["both"] if whole.cases[i].key not in new], -1]
    )
    prompts = [100, 200, 400, 800, 1600, 3200, 6400, 12800]
    parts = np.array([first_token_split(prompts, first_token_priced(gpu, prompts))
                      for gpu in ("MI300X", "MI325X")])  # fmt: skip
    return (
        round(100 * rows.geometric_mean_error), rows.within_band, rows.cases, *spans,
        round(100 * both.geometric_mean_error, 1), both.within_band, both.cases, held.cases,
        round(100 * held.geometric_mean_error, 1), round(parts[:, 0].min() * 1e3),
        round(parts[:, 0].max() * 1e3), round(parts[:, 1].min() * 1e6),
        round(parts[:, 1].max() * 1e6), round(parts[:, 2].mean() * 1e9, 1),
    )  # fmt: skip


def h20_stream_figures() -> tuple:
    """The rates bf16's and AWQ's dense H20 steps stream their weights at, measured and priced
    (bench/h20_batch_one.py), and the H20's borrowed bandwidth, in TB/s."""
    rows = dense_one_token_rows()
    rates = {}
    for fmt in ("bf16", "AWQ"):
        results = [evaluate(case.scenario()) for case in rows[fmt]]
        weights = [float(result.weight_bytes_read) for result in results]
        measured = [case.measured / H20_ANSWER for case in rows[fmt]]
        priced = [float(result.itl_s) for result in results]
        rates[fmt] = (stream_split(weights, measured)[1], stream_split(weights, priced)[1])
    return (
        round(rates["bf16"][0] / 1e12, 2), round(rates["AWQ"][0] / 1e12, 2),
        round(rates["bf16"][1] / 1e12, 2), round(rates["AWQ"][1] / 1e12, 2),
        round(GPUS["H20"].achieved_hbm_bytes_per_s / 1e12, 2),
    )  # fmt: skip


def twenty_fifth_round_figures() -> tuple:
    """vLLM's and TensorRT-LLM's measured latent-attention block on Hopper (block-fp8
    projections, bf16 cache) and vLLM's counted kernels there (µs), D108's and D245's ratios,
    D243's ratio and D246-D248's (the round's totals are history, quoted as they stood)."""
    vllm, trtllm = (
        LATENT_BLOCKS[("hopper", "bf16", "fp8_block", engine)].floor_s
        for engine in ("vllm", "tensorrt-llm")
    )
    kernels = LATENT_ATTENTION_KERNELS + BLOCK_FP8_LATENT_ATTENTION_INPUTS
    gemm = dense_gemm_floor("H200", "fp8_block", "vllm")
    counted = kernels * KERNEL_FLOOR_S + LATENT_ATTENTION_GEMMS * (gemm - KERNEL_FLOOR_S)
    ratio = engine_ratios()
    return (
        round(vllm * 1e6), round(counted * 1e6), round(trtllm * 1e6),
        round(ratio["D108"], 2), round(ratio["D245"], 2), round(ratio["D243"], 2),
        *(round(ratio[key], 2) for key in ("D246", "D247", "D248")),
    )  # fmt: skip


def held_out_figures() -> tuple:
    """Both sets' publisher-held-out error and share within, the publishers, the redraws and
    the error's spread over them, as the README rounds them."""
    held = report().cross_validated["both"]
    low, high = held.spread
    return (
        round(100 * held.geometric_mean_error), round(100 * held.within_share), held.publishers,
        RESAMPLES, round(100 * low), round(100 * high), round(100 * RESAMPLE_SHARE),
    )  # fmt: skip


# (what the README says, with a group per figure; the figures the code gives, in that order)
FIGURES = {
    "scores": (
        r"first development set \((\d+) measurements of 2024 engines\) the whiteboard misses by "
        r"(\d+) % .*? check set, ([\d,]+) more rows",
        scores,
    ),
    "engine-level scores": (
        r"the engine level by ([\d.]+) % \((\d+) of (\d+) within x0\.80-x1\.25\).*? by \d+ % "
        r"and ([\d.]+) % \((\d+) of (\d+)\); on the check set.*? the engine level misses by "
        r"([\d.]+) %; on the \d+ other cells.*? by ([\d.]+) % \((\d+) of (\d+)\)",
        engine_scores,
    ),
    "third check set": (
        r"on Argonne's MI300X table \(`core/evidence/check_cases_argonne.py`, ([\d,]+) rows of "
        r"its own build of vLLM 0\.6\.1\) by (\d+) % \((\d+) of ([\d,]+)\), where the same "
        r"release's (\d+) MI300X runs in the development sets \(AMD's, Oracle's and "
        r"EmbeddedLLM's\) read within (\d+) % \((\d+) of (\d+)\), AMD's and Oracle's (\d+) of "
        r"them within (\d+) % \((\d+) of (\d+)\)",
        argonne_figures,
    ),
    "fourth check set": (
        r"on the (\d+) cells of TensorRT-LLM 1\.0's own throughput table "
        r"\(`core/evidence/check_cases_trt10.py`, read whole after the rule was committed;[^)]*"
        r"\) by "
        r"([\d.]+) % \((\d+) of (\d+)\)",
        lambda: check_set_figures("check_trt10"),
    ),
    "fifth check set": (
        r"On the (\d+) runs of Dell's SC '25 paper \(`core/evidence/check_cases_sc25.py`,[^)]*"
        r"\) the engine level misses by\s+([\d.]+) % \((\d+) of (\d+)\)",
        lambda: check_set_figures("check_sc25"),
    ),
    "twenty-third round": (
        r"Qwen3-32B-FP8 at one user now reads x([\d.]+) \(it read x0\.63\) and "
        r"Qwen3-235B-A22B-FP8 on four cards x([\d.]+) \(x0\.85\), while Qwen3-30B-A3B in bf16 "
        r"on one H20 still reads x([\d.]+),",
        twenty_third_round_figures,
    ),
    "twenty-fifth round": (
        r"vLLM's costs about ([\d.]+) µs a layer beyond its weights and cache where its kernels "
        r"and GEMM floors were counted at (\d+), TensorRT-LLM's about (\d+)\. .*? \(D108\) now "
        r"reads x([\d.]+) .*? Magpie .*? it reads x([\d.]+), and both sets stood at .*? D243, "
        r".*? reads x([\d.]+) .*? D246-D248\): they read x([\d.]+), x([\d.]+) .*? and "
        r"x([\d.]+) ",
        twenty_fifth_round_figures,
    ),
    "twenty-sixth round": (
        r"measured it \(issue #6801: .*? running requests, (\d+) µs each; .*? EmbeddedLLM's five "
        r"V0 runs now read "
        r"x([\d.]+)-([\d.]+), Argonne's check set (\d+) % .*? \(x([\d.]+)-([\d.]+) on "
        r"throughput, x([\d.]+)-([\d.]+) on a request's time: .*? \(issue #10634: .*? "
        r"requests, ([\d.]+) µs each\), .*? now read x([\d.]+)-([\d.]+), and both sets stood at ",
        twenty_sixth_round_figures,
    ),
    "twenty-seventh round": (
        r"its keys carry (\d+) numbers a head \((\d+) and the (\d+)-wide rotary part\) and its "
        r"values (\d+) \(DeepSeek-V3's config\.json\), (\d+) on average, .*? \(D249-D250\): they "
        r"read x([\d.]+) and x([\d.]+), and both sets stood at ",
        twenty_seventh_round_figures,
    ),
    "twenty-eighth round": (
        r"They read (\d+) % off \((\d+) of (\d+) within\), .*? the dense models' FP8 "
        r"checkpoints read x([\d.]+)-([\d.]+) .*?, bf16 x([\d.]+)-([\d.]+) and AWQ "
        r"x([\d.]+)-([\d.]+)[,:] .*? slow, read x([\d.]+)-([\d.]+)\. Both sets stand at ([\d.]+) % "
        r"\((\d+) of (\d+)\), the (\d+) held before at ([\d.]+) %: .*? where the engine level "
        r"prices (\d+)-(\d+) ms, (\d+)-(\d+) µs and ([\d.]+) ns",
        twenty_eighth_round_figures,
    ),
    "H20 streams": (
        r"its bf16 weights at ([\d.]+) TB/s, its\s+AWQ weights at ([\d.]+) "
        r"\(`bench/h20_batch_one\.py`.*? streams them at ([\d.]+) and ([\d.]+), near the "
        r"([\d.]+) borrowed",
        h20_stream_figures,
    ),
    "publisher held out": (
        r"the engine level misses both sets by (\d+) % \((\d+) % within\); that figure rests on "
        r"(\d+) publishers, and redrawing them at random, ([\d,]+) times with replacement, moves "
        r"it (\d+)-(\d+) % \(the middle (\d+) %\)",
        held_out_figures,
    ),
    "Azure typed as its script ran": (
        r"the engine level reads them within ([\d.]+) % \(([\d.]+) % typed with each pair's own "
        r"build\)",
        lambda: (
            round(100 * azure_error(AZURE), 1),
            round(
                100 * azure_error([replace(case, built_for=(), requests=0) for case in AZURE]), 1
            ),
        ),
    ),
    "model constants": (
        r"and ([\d.]+) % of what is left is KV room.*? at ([\d.]+) % of dense peak.*?"
        r"at ([\d.]+) % of HBM bandwidth",
        lambda: (100 * (1 - MEMORY_MARGIN), 100 * PREFILL_EFFICIENCY, 100 * BANDWIDTH_EFFICIENCY),
    ),
    "login limits": (
        r"client address get (\d+) passwords wrong a minute and all addresses together (\d+), "
        r"then refuses new logins .*? for (\d+) s, doubling .*? \(up to (\d+) minutes; (\d+) s to "
        r"(\d+) minute overall\)",
        login,
    ),
    "session builds": (
        r"--session-builds-per-client` \(default (\d+)\) .*?--session-builds-overall` \((\d+)\) "
        r"in all; a build past that waits up to (\d+) s",
        lambda: (
            build_budget.PER_CLIENT_PER_MINUTE,
            build_budget.OVERALL_PER_MINUTE,
            build_budget.MAX_WAIT_S,
        ),
    ),
    "config ranges": (
        r"layers ([\d,]+) to ([\d,]+), hidden size ([\d,]+) to ([\d,]+), experts up to ([\d,]+), "
        r"at most (\d+) trillion parameters",
        config_spans,
    ),
    "nginx page limit": (
        r"a rate limit on page loads\*: (\d+) a second per client address after a burst of (\d+)",
        page_limits,
    ),
}


@pytest.mark.parametrize("name", FIGURES)
def test_the_readme_quotes_the_codes_figure(name):
    """The README's figures are the ones the code (or bench's report) gives, rounded as quoted."""
    pattern, made = FIGURES[name]
    assert quoted(pattern) == pytest.approx(tuple(float(value) for value in made()))


def test_a_link_value_a_knob_cannot_hold_is_ignored_or_clamped_as_the_readme_says():
    """`tier=huge` leaves the tier and `seats=-3` opens the README's seats, each with a notice."""
    (seats,) = quoted(r"\(`seats=-3` opens (\d+) seat")
    assert "a choice the knob lacks is ignored (`tier=huge` leaves the tier)" in README
    shell = LabShell()
    notices = restore(lab_bindings(shell.view("pool"), shell.scenario), "seats=-3&tier=huge")
    assert (shell.scenario.seats, shell.scenario.tier) == (seats, Scenario().tier)
    assert len(notices) == 2
