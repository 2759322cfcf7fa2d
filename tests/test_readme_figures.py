"""Every figure the README quotes is read from the README and checked against the code that makes it."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from core import Scenario
from core.catalog import (
    BANDWIDTH_EFFICIENCY,
    MEMORY_MARGIN,
    PREFILL_EFFICIENCY,
)
from core.catalog.config_fields import MOST_PARAMS, SPANS
from core.evidence.cases_azure import AZURE
from core.evidence.cases_vllm_prs import VLLM_PRS
from core.evidence.check_cases_argonne import CHECK_ARGONNE
from core.evidence.crossval import RESAMPLE_SHARE, RESAMPLES
from core.evidence.fidelity import peers as peer_indices
from core.evidence.fidelity import report, score
from core.evidence.scores import summarise
from labs.frame.shell import LabShell, lab_bindings
from labs.page.links import restore
from labs.server import build_budget
from labs.server.login_limit import EVERY_ADDRESS, PER_ADDRESS
from tests.readme_rounds import (
    fiftieth_round_figures,
    fiftieth_round_rule_figures,
    fifty_eighth_round_figures,
    fifty_fifth_round_figures,
    fifty_first_round_figures,
    fifty_fourth_round_figures,
    fifty_ninth_round_figures,
    fifty_second_round_figures,
    fifty_seventh_round_figures,
    fifty_sixth_round_figures,
    fifty_third_round_figures,
    fortieth_round_figures,
    forty_eighth_round_figures,
    forty_eighth_round_marlin_figures,
    forty_first_round_figures,
    forty_fourth_round_figures,
    forty_ninth_round_figures,
    forty_seventh_round_figures,
    forty_sixth_round_figures,
    forty_third_round_figures,
    forty_third_round_share_figures,
    h20_skinny_figures,
    h20_stream_figures,
    sixtieth_round_figures,
    sixty_fifth_round_figures,
    sixty_first_round_figures,
    sixty_fourth_round_figures,
    sixty_second_round_figures,
    sixty_sixth_round_figures,
    sixty_third_round_figures,
    thirty_eighth_round_attention_figures,
    thirty_eighth_round_figures,
    thirty_eighth_round_passes_figures,
    thirty_fifth_round_figures,
    thirty_first_round_figures,
    thirty_fourth_round_figures,
    thirty_ninth_round_figures,
    thirty_second_round_figures,
    thirty_seventh_round_figures,
    thirty_sixth_round_figures,
    twenty_eighth_round_figures,
    twenty_fifth_round_figures,
    twenty_ninth_round_figures,
    twenty_seventh_round_figures,
    twenty_sixth_round_figures,
    twenty_third_round_figures,
)

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
    "thirty-ninth round": (
        r"Dell's SC '25 runs, which did, move from 49\.2 % to ([\d.]+) % but with fewer within "
        r"\((\d+) of (\d+), 197 before\): at one to four users they read x([\d.]+)-([\d.]+) "
        r"\(medians by load\), at 16 to 128 users now x([\d.]+)-([\d.]+) \(x1\.10-1\.23\), "
        r"where a step touches every expert and the Triton rows stream them at ([\d.]+) of the "
        r"card's bandwidth \(fitted on AMD's benchmark of one configuration at 64-4,096 tokens; "
        r"AITER's row, ([\d.]+)\)",
        thirty_ninth_round_figures,
    ),
    "fortieth round": (
        r"sizing the engine from its own estimate of the memory, which would have held ([\d,]+), "
        r"([\d,]+) and ([\d,]+) requests; .*? the rows read x([\d.]+)-([\d.]+) \(priced at the "
        r"tool's own sizing they read x([\d.]+)-([\d.]+)\)\. .*? They read x([\d.]+)-([\d.]+), "
        r"(\d+) of (\d+) within .*? AMD's cards then stood at (\d+) % \((\d+) of (\d+)\), both "
        r"sets at ([\d.]+) % \((\d+) of (\d+), ([\d.]+) % within\)",
        fortieth_round_figures,
    ),
    "forty-first round": (
        r"at 29\.97 ms to the first token with the prefill eager and 19\.66 ms with its piecewise "
        r"CUDA graph, .*?: 10\.31 ms over (\d+) launches is ([\d.]+) µs a kernel launched, and "
        r"what the graphed first token keeps beyond the prefill the engine level prices "
        r"\(([\d.]+) ms\) and the (\d+) launches still eager is the server's own path, ([\d.]+) "
        r"ms, .*? 82\.64 ms eager and 23\.10 ms as a graph, is ([\d.]+) µs over its ([\d,]+) "
        r"launches \(.*? \(Llama-3-70B ([\d.]+) ms on eight H100, ([\d.]+) before\), .*? "
        r"\(gpt-oss-120b ([\d.]+) ms, ([\d.]+) before; Qwen3-235B-A22B ([\d.]+), ([\d.]+)\), "
        r".*? more \(([\d.]+) ms, ([\d.]+)\)\. SGLang 0\.3's saturated rows \(S3-S4\) now read "
        r"x([\d.]+) and x([\d.]+) \(x0\.80 and x0\.72\), so the first set stands at ([\d.]+) % "
        r"\((\d+) of (\d+)\), D23's first token x([\d.]+), Dell's SC '25 runs ([\d.]+) % "
        r"\((\d+) of (\d+)\), AMD's cards (\d+) % \((\d+) of (\d+); (\d+) % held out\), and both "
        r"sets at ([\d.]+) % \((\d+) of (\d+), ([\d.]+) % within\)",
        forty_first_round_figures,
    ),
    "twenty-third round": (
        r"Qwen3-32B-FP8 at one user now reads x([\d.]+) \(it read x0\.63\) and "
        r"Qwen3-235B-A22B-FP8 on four cards x([\d.]+) \(x0\.85\), while Qwen3-30B-A3B in bf16 "
        r"on one H20 still reads x([\d.]+),",
        twenty_third_round_figures,
    ),
    "twenty-fifth round": (
        r"vLLM's costs about ([\d.]+) µs a layer beyond its weights and cache where its kernels "
        r"and GEMM floors were counted at \d+\s+\((\d+) since the thirty-sixth round[^)]*\),\s+"
        r"TensorRT-LLM's about (\d+)\. .*? \(D108\) now "
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
        r"They read \d+ % off when scored \(\d+ of \d+ within\), (\d+) % \((\d+) of (\d+)\)\s+now, "
        r".*? the dense models' FP8 "
        r"checkpoints read x([\d.]+)-([\d.]+) .*?, bf16 x([\d.]+)-([\d.]+) and AWQ "
        r"x([\d.]+)-([\d.]+)[,:] .*? slow, read x0\.11-0\.13 \(x([\d.]+)-([\d.]+)\s+since the "
        r"thirty-second round\)\. Both sets then stood at "
        r".*? where the engine level "
        r"prices (\d+)-(\d+) ms, (\d+)-(\d+) µs and ([\d.]+) ns",
        twenty_eighth_round_figures,
    ),
    "forty-third round": (
        r"vLLM's profile of Llama-3-8B on an H100 printed it, ([\d.]+) GiB on one card and "
        r"([\d.]+) GiB on each of two \(vLLM PR #10511\).*? TensorRT-LLM 1\.0's own table, never "
        r"used to set a figure, goes from ([\d.]+) % \((\d+) of (\d+)\) to ([\d.]+) % \((\d+) of "
        r"(\d+)\), its mixtures on Hopper under DEP from x([\d.]+) to x([\d.]+) \(median\), and "
        r"both sets from ([\d.]+) % to ([\d.]+) % \((\d+) of (\d+), ([\d.]+) % within\)",
        forty_third_round_figures,
    ),
    "forty-third round, memory shares": (
        r"InferenceX's sweep; (\d+) cases\): D328 now reads x([\d.]+), and no other moves by "
        r"as much as (0\.01) %",
        forty_third_round_share_figures,
    ),
    "forty-sixth round": (
        r"forty-sixth round one rule, .*? timed the quantiser alone at ([\d.]+)-([\d.]+) µs, .*?"
        r"on a B200 runs a step ([\d.]+) ms shorter .*? moves from ([\d.]+) % to ([\d.]+) % held "
        r"out, and both sets from ([\d.]+) % to ([\d.]+) % \((\d+) of (\d+)\), (\d+) % held out "
        r"\((\d+) % within\)\. .*? now runs ([\d,]+) at once",
        forty_sixth_round_figures,
    ),
    "forty-eighth round": (
        r"forty-eighth round 44 rows .*? misses them by (\d+) % \((\d+) of (\d+) within\).*? "
        r"read x([\d.]+)-([\d.]+) where Qwen's dense models on one A100 read x([\d.]+)-([\d.]+): "
        r"Qwen3-14B's three take ([\d.]+)-([\d.]+) times .*? prices ([\d.]+)-([\d.]+) times,"
        r".*? at 32,000 tokens reads x([\d.]+)-([\d.]+): .*? 128 tokens read x([\d.]+)-([\d.]+), "
        r".*? Both sets then stood at ([\d.]+) % \((\d+) of (\d+)\), over the 15 % target, and "
        r"(\d+) % held out",
        forty_eighth_round_figures,
    ),
    "forty-eighth round, Marlin on Ampere": (
        r"fitted at a compute share of ([\d.]+) where Hopper's Triton W4A16 row has ([\d.]+)\) "
        r"priced gpt-oss's one-A100 rows at 4,000 and 2,000 tokens x([\d.]+)-([\d.]+), where "
        r"they read x([\d.]+)-([\d.]+), and both sets at ([\d.]+) % \((\d+) of (\d+)\): "
        r"reverted",
        forty_eighth_round_marlin_figures,
    ),
    "forty-ninth round": (
        r"where it reaches ([\d.]+) of FlashAttention 2's share of the bf16 rate and pays (\d+) "
        r"extra keys a token .*? at 32,000 tokens, x([\d.]+)-([\d.]+) before the round, read "
        r"x([\d.]+)-([\d.]+) after it \(with the sixth rule\), those at 2,000-4,000 tokens "
        r"x([\d.]+)-([\d.]+)\. .*? A "
        r"lone 32,000-token prompt under vLLM on an A100 now takes (\d+) passes, not (\d+); of "
        r"the scored rows only D377 moves \(x([\d.]+) to x([\d.]+)\).*? a compute share of "
        r"([\d.]+) with (\d+) padding rows, where Hopper's borrowed CUTLASS row has ([\d.]+) and "
        r"(\d+); vLLM 0\.14's own A100 table times the same rows at x([\d.]+)\)\..*? "
        r"Qwen3-235B-A22B on eight A100 goes from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+) at "
        r"2,000-32,000 tokens \(x([\d.]+) to x([\d.]+) on the 128-token burst\)\. .*? SGLang's "
        r"H100 bf16 row goes from a compute share of ([\d.]+) to ([\d.]+) .*? its block-fp8 row "
        r"from ([\d.]+) to ([\d.]+) .*? on eight H200 move from x([\d.]+)-([\d.]+) to "
        r"x([\d.]+)-([\d.]+), .*? read faster \(x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+)\)\. "
        r"Fifth, .*? \(a compute share of ([\d.]+) to ([\d.]+), .*? at 129,024 tokens read "
        r"x([\d.]+)-([\d.]+) where they read x([\d.]+)-([\d.]+)\. .*? now at a compute share of "
        r"([\d.]+) of the bf16 rate \(([\d.]+) fitted on every layout's rows\), where they "
        r"borrowed Hopper's W4A16 row \(([\d.]+)\)\. Both sets go from ([\d.]+) % to ([\d.]+) % \((\d+) of (\d+)\); held out, ([\d.]+) % "
        r"to ([\d.]+) % \(both (\d+) %; ([\d.]+) % to ([\d.]+) % within\)",
        forty_ninth_round_figures,
    ),
    "fiftieth round, AITER's prompt attention": (
        r"bf16, head size 128: MI300X (\d+)-(\d+) TFLOP/s and MI355X ([\d,]+)-([\d,]+) at "
        r"1,024-16,384 tokens\)\..*? a share of ([\d.]+) of the MI300X's measured bf16 rate "
        r"with (\d+) extra keys and ([\d.]+) of the MI355X's with (\d+), where both borrowed "
        r"Hopper's and Blackwell's engine rows \(([\d.]+)-([\d.]+)\);.*? moves "
        r"\(x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+)\); both sets go from ([\d.]+) % to "
        r"([\d.]+) %, the second from ([\d.]+) % to ([\d.]+) %",
        fiftieth_round_rule_figures,
    ),
    "fifty-first round": (
        r"a 1,024-token\s+prompt of DeepSeek-R1 on eight H200 under vLLM read (\d+) ms at one user "
        r"and (\d+) at two \((\d+) now\),\s+gpt-oss-120b on one H100 (\d+) and (\d+) \((\d+) "
        r"now\) \(`bench/riding_prompts\.py`\)\. (\d+) scored rows move\s+by 1 % or more: "
        r"DeepSeek-R1's 128-token burst on eight H200 goes from x([\d.]+) to x([\d.]+) and\s+"
        r"TensorRT-LLM's DeepSeek-R1 at 1,024 users on eight H200 from x([\d.]+) to x([\d.]+), "
        r"into the band;\s+TensorRT-LLM 1\.x's DeepSeek-R1 on four B200 at 8,192 tokens from "
        r"x([\d.]+) to x([\d.]+), out of it, and\s+GPUStack's gpt-oss-120b burst on one H100 from "
        r"x([\d.]+) to x([\d.]+)\. Both sets go from ([\d.]+) % to\s+([\d.]+) % \((\d+) to "
        r"(\d+) of (\d+), ([\d.]+) % within\), held out from ([\d.]+) % to ([\d.]+) %; the two\s+"
        r"TensorRT-LLM check sets from ([\d.]+) % to ([\d.]+) % \((\d+) to (\d+) of (\d+)\) and "
        r"from ([\d.]+) % to ([\d.]+) % \((\d+)\s+to (\d+) of (\d+)\), and ATOM's first tokens "
        r"on eight MI355X \(shown, not scored\) from x([\d.]+)-([\d.]+) to\s+x([\d.]+)-([\d.]+)\.",
        fifty_first_round_figures,
    ),
    "fifty-second round": (
        r"Llama-3-70B on eight H100\s+under TensorRT-LLM read (\d+) ms at one user and (\d+) at "
        r"two \((\d+) now\), DeepSeek-R1 on eight H200\s+(\d+) and (\d+) \((\d+) now\) "
        r"\(`bench/riding_prompts\.py`\)\. (\d+) scored rows move by 1 % or more:\s+GPUStack's "
        r"Qwen3-235B-A22B on eight A100 at 32,000 tokens from x([\d.]+) to x([\d.]+), "
        r"TensorRT-LLM\s+0\.20's Llama-4-Maverick on eight H100 \(D08\) from x([\d.]+) to "
        r"x([\d.]+) and Microsoft Azure's 36 rows\s+from ([\d.]+) % to ([\d.]+) %, while the same "
        r"page's runs on eight H100 at 2,000-4,000 and 128 tokens go from\s+x([\d.]+)-([\d.]+) to "
        r"x([\d.]+)-([\d.]+)\. Both sets go from ([\d.]+) % to ([\d.]+) % \((\d+) of (\d+)\), "
        r"held out from\s+([\d.]+) % to ([\d.]+) %; the check set from ([\d.]+) % to ([\d.]+) % "
        r"\((\d+) to (\d+) of (\d+)\), the two\s+TensorRT-LLM check sets from ([\d.]+) % to "
        r"([\d.]+) % and from ([\d.]+) % to ([\d.]+) %\.",
        fifty_second_round_figures,
    ),
    "fifty-third round": (
        r"An\s+8,192-token prompt of Llama-2-7B on eight B200 under vLLM 0\.8 read (\d+) ms at one "
        r"user and (\d+) at\s+two \((\d+) now\), gpt-oss-120b on one A100 ([\d,]+) and ([\d,]+) "
        r"\(([\d,]+) now\)\. (\d+) scored rows move, the\s+most by ([\d.]+) %; both sets stay at "
        r"([\d.]+) % \((\d+) of (\d+)\) and held out at ([\d.]+) %",
        fifty_third_round_figures,
    ),
    "fifty-fourth round": (
        r"A lone 32,768-token prompt of Qwen3-235B-A22B on eight A100 under vLLM \(2,048-token\s+"
        r"passes\) reaches its first token in ([\d,]+) ms where it read ([\d,]+), DeepSeek-R1's on "
        r"eight H200\s+\(8,192-token passes\) in ([\d,]+) ms where ([\d,]+)\. (\d+) scored rows "
        r"move by half a per cent or more,\s+Qwen's 129,024-token mixtures on the H20 under SGLang "
        r"from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+); both sets\s+go from ([\d.]+) % to "
        r"([\d.]+) % \((\d+) of (\d+)\), held out from ([\d.]+) % to ([\d.]+) %, Dell's SC '25\s+"
        r"runs from ([\d.]+) % to ([\d.]+) %",
        fifty_fourth_round_figures,
    ),
    "fifty-fifth round": (
        r"Qwen3-32B's 64 rows take ([\d.]+) ms a step at the card's bf16\s+rate, where its dense "
        r"weights stream in ([\d.]+) \(`bench/cublas_tiles\.py`\)\..*? (\d+) scored rows move "
        r"by half a per cent or more, Qwen's dense bf16 rows at a one-token\s+prompt from "
        r"x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+): the engine level now splits their steps into "
        r"([\d.]+) ms and\s+weights at ([\d.]+) TB/s, where they measure ([\d.]+) ms and "
        r"([\d.]+) TB/s \(it priced ([\d.]+)\)\. Both sets go\s+from ([\d.]+) % to ([\d.]+) % "
        r"\((\d+) of (\d+)\), held out from ([\d.]+) % to ([\d.]+) %\.",
        fifty_fifth_round_figures,
    ),
    "fifty-sixth round": (
        r"Qwen3-0\.6B's weights: its head's 64 rows take ([\d.]+) ms\s+a step on one H20 where "
        r"streaming it takes ([\d.]+) \(`bench/cublas_tiles\.py`\)\. (\d+) scored rows move "
        r"by\s+half a per cent or more, all of them Qwen's H20 rows; at a one-token prompt the "
        r"dense models' bf16\s+rows go from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+), their "
        r"FP8 rows from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+) and their\s+AWQ rows from "
        r"x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+)\. Both sets go from ([\d.]+) % to "
        r"([\d.]+) % \((\d+) to (\d+) of\s+(\d+)\), held out from ([\d.]+) % to ([\d.]+) %\.",
        fifty_sixth_round_figures,
    ),
    "fifty-eighth round": (
        r"Its best large GEMM runs at (\d+)\s+TFLOP/s, where the H100's share gave (\d+);.*? "
        r"at (\d+) TFLOP/s as 64 rows of arithmetic.*? Qwen3-14B-FP8's\s+64 rows take ([\d.]+) ms "
        r"a step on one H20 where they took ([\d.]+) \(`bench/cublas_tiles\.py`\)\..*? (\d+) "
        r"scored rows move.*? Qwen's FP8 rows at a one-token prompt go from x([\d.]+)-([\d.]+) to "
        r"x([\d.]+)-([\d.]+), the SGLang contributors'\s+DeepSeek-V3 on eight H20 from "
        r"x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+)\. Both sets go from ([\d.]+) % to "
        r"([\d.]+) %\s+\((\d+) of (\d+)\), held out from ([\d.]+) % to ([\d.]+) %; no check "
        r"set moves\.",
        fifty_eighth_round_figures,
    ),
    "fifty-ninth round": (
        r"D413-D442, `core/evidence/cases_atom_dashboard\.py`\): each of its (\d+) points'.*? on\s+"
        r"1k prompts x([\d.]+)-([\d.]+) at four users and as low as x([\d.]+) at 64, on 8k prompts "
        r"x([\d.]+)-([\d.]+) at every\s+load \(DeepSeek-R1's (\d+) read x([\d.]+)-([\d.]+)\)\..*? "
        r"at ([\d.]+) and ([\d.]+) ms, ([\d.]+) and ([\d.]+) times what.*? already read low "
        r"\(x([\d.]+)-([\d.]+)\)\..*? now counts (\d+)\s+and stays x([\d.]+)-([\d.]+); no "
        r"scored figure moves\.",
        fifty_ninth_round_figures,
    ),
    "sixtieth round": (
        r"D443-D452, `core/evidence/cases_inferencex_b200\.py`\):.*? The throughputs read "
        r"x([\d.]+)-([\d.]+) at 4 and 8 users and x([\d.]+)-([\d.]+) at 16 and 32 \((\d+) of "
        r"(\d+) within\); the first tokens at 4 to 32 users read x([\d.]+)-([\d.]+),.*? Both sets "
        r"go from ([\d.]+) % to ([\d.]+) % \((\d+) of (\d+)\), held out from ([\d.]+) % to "
        r"([\d.]+) %; the first-token band counts (\d+) and stays x([\d.]+)-([\d.]+)\.",
        sixtieth_round_figures,
    ),
    "sixty-first round": (
        r"Their first tokens go from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+) at 4 and 8 users "
        r"and from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+) at 16 and 32,.*? No scored "
        r"throughput moves by more than ([\d.]+) %\. Both sets go from ([\d.]+) % to ([\d.]+) % "
        r"\((\d+) of (\d+)\), held out from ([\d.]+) % to ([\d.]+) %; the first-token band "
        r"counts (\d+) and stays x([\d.]+)-([\d.]+)\.",
        sixty_first_round_figures,
    ),
    "sixty-second round": (
        r"D453-D469, `core/evidence/cases_sglang_cookbook\.py`\):.*? DeepSeek-R1's times between "
        r"tokens read\s+x([\d.]+)-([\d.]+) and its throughputs x([\d.]+)-([\d.]+); Llama's times "
        r"between tokens read x([\d.]+)-([\d.]+) and its\s+throughputs x([\d.]+)-([\d.]+) \((\d+) "
        r"of (\d+) within\)\. DeepSeek-R1's one-user step is priced at ([\d.]+) ms where\s+the page "
        r"measures 9\.2-9\.3; ([\d.]+) ms of it is .*? ([\d.]+) µs a block-scaled fp8 GEMM .*? "
        r"Both sets go from ([\d.]+) % to ([\d.]+) %\s+\((\d+) of (\d+)\), held out from ([\d.]+) "
        r"% to ([\d.]+) %; the one-user first tokens read x([\d.]+)-([\d.]+)\s+\(DeepSeek-R1\) and "
        r"x([\d.]+)-([\d.]+) \(Llama\), and the first-token band counts (\d+) and reads "
        r"x([\d.]+)-([\d.]+)\.",
        sixty_second_round_figures,
    ),
    "sixty-third round": (
        r"D470-D479,\s+`core/evidence/cases_sglang_cookbook_mi300x\.py`.*? the one-user times between "
        r"tokens read x([\d.]+)-([\d.]+) \(a step priced at ([\d.]+)\s+ms where the page measures "
        r"([\d.]+)-([\d.]+)\), the throughputs at 64 and 100 users x([\d.]+)-([\d.]+), the DEP8\s+"
        r"run x([\d.]+)\..*? Both sets go from ([\d.]+) % to ([\d.]+) % \((\d+) of (\d+)\), over "
        r"the 15 % target, and\s+held out from ([\d.]+) % to ([\d.]+) %; the AMD family reads (\d+) "
        r"%; the one-user first tokens \(shown\)\s+read x([\d.]+)-([\d.]+) and the first-token band "
        r"counts (\d+) and reads x([\d.]+)-([\d.]+)\.",
        sixty_third_round_figures,
    ),
    "sixty-fourth round": (
        r"each walking all its inputs \((\d+) workgroups on 304 CUs for DeepSeek's 2,112 x 7,168\s+"
        r"attention GEMM\); AITER timed that tile at ([\d.]+) µs on that shape \(PR #1232\), "
        r"([\d.]+) ns an input,\s+where the tuned row .*? costs ([\d.]+) ns\..*? the rule\s+prices "
        r"what the tuning saved at x([\d.]+) \(([\d.]+) ms a step, ([\d.]+) ms measured\)\. The "
        r"cookbook's one-user\s+times between tokens go from x([\d.]+)-([\d.]+) to "
        r"x([\d.]+)-([\d.]+), its throughputs at 64 and 100 users\s+from x([\d.]+)-([\d.]+) to "
        r"x([\d.]+)-([\d.]+), the DEP8 run from x([\d.]+) to x([\d.]+) \((\d+) of (\d+) within "
        r"the band\); both\s+sets from ([\d.]+) % to ([\d.]+) % \((\d+) of (\d+)\), still over the "
        r"15 % target, and held out from\s+([\d.]+) % to ([\d.]+) %; the AMD family reads (\d+) %\.",
        sixty_fourth_round_figures,
    ),
    "sixty-fifth round": (
        r"Fitted, the corrected table's floor is ([\d.]+) µs, where the two it replaces read "
        r"([\d.]+) µs\s+\(0\.5\.14's earlier\) and ([\d.]+) µs \(0\.5\.9's\).*? "
        r"DeepSeek-R1's one-user steps on eight B200 \(the cookbook's\) go\s+from "
        r"x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+), its throughputs at 64 and 100 users from "
        r"x([\d.]+)-([\d.]+) to\s+x([\d.]+)-([\d.]+); the same table moves Qwen3-Coder's three "
        r"B200 rows from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+)\s+and the 0\.4 line's run "
        r"of DeepSeek-V3 \(FlashInfer's GEMMs, no table\) from x([\d.]+) to x([\d.]+), and\s+"
        r"InferenceX's MI325X rows go from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+)\. Both "
        r"sets go from ([\d.]+) % to\s+([\d.]+) % \((\d+) of (\d+)\), further over the 15 % "
        r"target, and held out from ([\d.]+) % to ([\d.]+) %",
        sixty_fifth_round_figures,
    ),
    "sixty-sixth round": (
        r"July 2025 \(the 0\.10 line\)\. At batch 1 they read x([\d.]+)-([\d.]+); at 4 to 16 "
        r"x([\d.]+)-([\d.]+), the engine\s+level.*? the whiteboard reads the eight "
        r"x([\d.]+)-([\d.]+)\.\s+Both sets go from ([\d.]+) % to ([\d.]+) % \((\d+) of "
        r"(\d+)\) and held out from ([\d.]+) % to ([\d.]+) %, the\s+new publisher's own "
        r"error (\d+) %",
        sixty_sixth_round_figures,
    ),
    "fifty-seventh round": (
        r"runs at ([\d.]+)-([\d.]+) of the card's bf16 peak in (\d+) of its (\d+) shapes,\s+"
        r"the median at ([\d.]+) of the achieved rate\..*? ([\d.]+) rows at the card's rate "
        r"\(.*?Qwen3-32B's 64 rows take ([\d.]+) ms a step on one H20 where they took ([\d.]+)"
        r"\s+\(`bench/cublas_tiles\.py`\)\..*? (\d+) scored rows move by half a per\s+cent or "
        r"more,.*? bf16 rows go\s+from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+) and their FP8 "
        r"rows.*? from\s+x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+); the engine level now splits "
        r"the bf16 steps into ([\d.]+) ms and weights at\s+([\d.]+) TB/s,.*? Both sets go from "
        r"([\d.]+) % to ([\d.]+) % \((\d+)\s+to (\d+) of (\d+)\), held out from ([\d.]+) % "
        r"to ([\d.]+) %; no check set moves\.",
        fifty_seventh_round_figures,
    ),
    "fiftieth round": (
        r"A100's 128-token bursts go from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+), but the "
        r"H100's and the H200's go from x([\d.]+)-([\d.]+) to x([\d.]+)-([\d.]+), and both "
        r"sets from ([\d.]+) % to ([\d.]+) % \((\d+) to (\d+) of (\d+)\) while held out goes "
        r"from ([\d.]+) % to ([\d.]+) %\..*? at 128 tokens move from x([\d.]+)-([\d.]+) to "
        r"x([\d.]+)-([\d.]+) and SGLang 0\.3's saturated rows from x([\d.]+)-([\d.]+) to "
        r"x([\d.]+)-([\d.]+): ([\d.]+) % \((\d+)\), held out ([\d.]+) %\..*? at 4-8 users "
        r"from x([\d.]+)-([\d.]+) to x([\d.]+),.*? its A100 rows read x([\d.]+)-([\d.]+): "
        r"([\d.]+) % \((\d+)\)\. .*? on one H100 run their prompts at ([\d.]+)-([\d.]+) of "
        r"the card's bf16 peak .*? reach ([\d.]+)-([\d.]+) of theirs, .*? both sets stay at "
        r"([\d.]+) % \((\d+) of (\d+)\), (\d+) % held out",
        fiftieth_round_figures,
    ),
    "forty-seventh round": (
        r"forty-seventh round one reading .*? Both\s+sets stay at ([\d.]+) % \((\d+) of (\d+)\), "
        r"(\d+) % held out",
        forty_seventh_round_figures,
    ),
    "forty-fourth round": (
        r"TensorRT-LLM's block-fp8 GEMM on an H100 pays ([\d.]+) µs and ([\d.]+) ns an input, its "
        r"nvfp4 GEMM on a B200 ([\d.]+) µs and ([\d.]+) ns, bf16 ([\d.]+)-([\d.]+) ns, AITER's "
        r"block-fp8 GEMM ([\d.]+) ns on CDNA3 and ([\d.]+) on CDNA4.*? the Triton fused-MoE "
        r"kernels vLLM and SGLang run pay ([\d.]+)-([\d.]+) ns an input \(SGLang's block-fp8 "
        r"experts on an H100 (\d+) µs and ([\d.]+) ns,.*?TensorRT-LLM's bf16 CUTLASS ones "
        r"([\d.]+) ns.*?only the MI355X's block-fp8 experts keep a cost per input, ([\d.]+) ns"
        r".*?Llama-3-70B in fp8 holds ([\d.]+) GB more\).*?\(`streamed_weight_bytes`: "
        r"(\d+) % of what gpt-oss-120b holds outside its experts\)\. Both sets now stand at "
        r"([\d.]+) % \((\d+) of (\d+)\), (\d+) % held out; Qwen2\.5's 0\.5B and 1\.5B int4 rows "
        r"on an A100 read x([\d.]+)-([\d.]+),.*? AMD ATOM's DeepSeek-R1 at four users reads "
        r"x([\d.]+)-([\d.]+), and Llama-3-70B in fp8 on one H100 under TensorRT-LLM 0\.17 \(T7\) "
        r"x([\d.]+), its cache ([\d.]+) GB smaller",
        forty_fourth_round_figures,
    ),
    "twenty-ninth round": (
        r"SGLang's FlashAttention 3 on an H100 reaches ([\d.]+) of the card's bf16 rate and each "
        r"query token pays (\d+) keys' worth of work beyond its own, TensorRT-LLM's kernel "
        r"([\d.]+) and (\d+), vLLM's ([\d.]+) and (\d+), so a 2,048-token prompt's attention "
        r"under SGLang runs at (\d+) % .*? SGLang's FlashAttention 3 on an H100 at ([\d.]+) of the "
        r"bf16 rate and TensorRT-LLM's at ([\d.]+),.*? Qwen's dense rows at a 129,024-token "
        r"prompt now read "
        r"x([\d.]+)-([\d.]+) .*?, its mixtures' bf16 and FP8 rows x([\d.]+)-([\d.]+) .*?, "
        r"Dell's SC '25 runs ([\d.]+) %, and both sets stand at ([\d.]+) % \((\d+) of (\d+)\), "
        r"the (\d+) held before at ([\d.]+) %.*? \(gpt-oss's 64: x([\d.]+) on Hopper, "
        r"x([\d.]+) on Blackwell,",
        twenty_ninth_round_figures,
    ),
    "thirty-first round": (
        r"TensorRT-LLM all-reduces 8 MiB on eight H100 in (\d+) µs where the line's bandwidth "
        r"gave (\d+), and NCCL gathers 32 MiB on eight H200 in (\d+) µs where it gave (\d+)\. Both "
        r"sets moved to [\d.]+ % \(\d+ of \d+\); the check set reads ([\d.]+) % and the two "
        r"TensorRT-LLM check sets ([\d.]+) % and ([\d.]+) % as they stand now\.",
        thirty_first_round_figures,
    ),
    "thirty-second round": (
        r"At one token Qwen3-30B-A3B's (\d+) layers of (\d+) experts pay ([\d.]+) ms in launches "
        r"alone and\s+Qwen3-235B-A22B's (\d+) on four H20 ([\d.]+) ms, where Qwen's GPTQ rows "
        r"measure ([\d.]+) and ([\d.]+) ms a\s+token in all: those rows read x([\d.]+) and "
        r"x([\d.]+) \(they read x0\.11 and x0\.13\), at the longest prompt\s+x([\d.]+) and "
        r"x([\d.]+) \(x0\.59 and x0\.58\), and both sets move to ([\d.]+) % \((\d+) of (\d+)\)",
        thirty_second_round_figures,
    ),
    "thirty-fourth round": (
        r"every one too fast \(x0\.43-0\.99\), and\s+(\d+) % \((\d+) of (\d+)\) since the "
        r"thirty-sixth round \(x([\d.]+)-([\d.]+)\)\. .*? a one-token "
        r"decode step on the A100 costs ([\d.]+) ms and its bf16 weights at ([\d.]+) TB/s,\s+where "
        r"the engine level prices ([\d.]+) ms and ([\d.]+) TB/s .*? AWQ's Marlin GEMMs cost "
        r"([\d.]+) ms and stream at ([\d.]+) TB/s \(priced ([\d.]+) ms and\s+([\d.]+)\)\.",
        thirty_fourth_round_figures,
    ),
    "thirty-fifth round": (
        r"bf16 GEMM at a few tokens pays ([\d.]+) µs before its weights stream under "
        r"TensorRT-LLM,\s+([\d.]+) under vLLM and ([\d.]+) under SGLang, where the H100's pay "
        r"([\d.]+), ([\d.]+) and ([\d.]+) .*? an int4\s+GEMM pays ([\d.]+) µs on the A100 and "
        r"([\d.]+) on Hopper .*? decode\s+attention\s+pays ([\d.]+) µs a layer under "
        r"TensorRT-LLM, ([\d.]+) under vLLM and ([\d.]+) under SGLang.*? one-token prompt now "
        r"read\s+x([\d.]+)-([\d.]+) .*? measured\s+again at ([\d.]+) µs .*? both sets stood "
        r"at ([\d.]+) %\s+\((\d+) of (\d+)\)",
        thirty_fifth_round_figures,
    ),
    "thirty-sixth round": (
        r"multiplies a prompt at ([\d.]+), ([\d.]+) and ([\d.]+) of torch's fp16 GEMM at 1,024, "
        r"2,048\s+and 4,000 tokens .*? at the longest prompt now read x([\d.]+)-([\d.]+) .*? "
        r"pays ([\d.]+) µs in 0\.14\.0's table and ([\d.]+) in 0\.19\.0's \(it paid "
        r"TensorRT-LLM's ([\d.]+)\).*? \(D108\) now reads x([\d.]+) .*? \(an fp8 GEMM on an H100 "
        r"pays ([\d.]+) µs, ([\d.]+) in 1\.3\.0rc20's\).*? \(block fp8 ([\d.]+) µs, ([\d.]+) in "
        r"0\.5\.14's\).*? Both sets then stood at ([\d.]+) % \((\d+) of (\d+)\)",
        thirty_sixth_round_figures,
    ),
    "thirty-seventh round": (
        r"in blocks of (\d+) \(`thread_m_blocks`\), .*? reaches about ([\d.]+) of the tensor "
        r"cores' rate .*?: (\d+) rows at the card's rate .*? with (\d+) TFLOP/s of bf16, cannot: "
        r"Qwen's AWQ rows at a one-token prompt now read x([\d.]+)-([\d.]+) \(x0\.48-0\.65\) and "
        r"both sets then stood at 15\.8 % \(212 of 263, 80\.6 % within\)",
        thirty_seventh_round_figures,
    ),
    "H20 skinny GEMMs": (
        r"Qwen's bf16 rows on the H20 still read x([\d.]+)-([\d.]+): their steps stream the "
        r"weights at ([\d.]+) TB/s, and an H20's fp16 GEMMs at one to four tokens stream at "
        r"([\d.]+) TB/s in another's table too \(the median of (\d+) shapes",
        h20_skinny_figures,
    ),
    "H20 streams": (
        r"its bf16 weights at ([\d.]+) TB/s, its\s+AWQ weights at ([\d.]+) "
        r"\(`bench/h20_batch_one\.py`.*? streams them at ([\d.]+) and ([\d.]+) \(bf16's near "
        r"the ([\d.]+) its (\d+) SMs draw at the H200's rate per SM since the thirty-eighth round, "
        r"([\d.]+) before, the H100's share",
        h20_stream_figures,
    ),
    "thirty-eighth round": (
        r"than the H200's drew here \(its ([\d.]+) TB/s over (\d+) SMs, ([\d.]+) GB/s an "
        r"SM\).*? An H20 has (\d+) SMs behind ([\d.]+) TB/s: its peak would take (\d+) GB/s "
        r"an SM, .*? below "
        r"the ([\d.]+) TB/s the rule gives .*? where the H100's share gave ([\d.]+);.*? "
        r"\(D241-D242\) read x([\d.]+) and x([\d.]+) \(x1\.37 and x1\.16\), an SGLang contributor's "
        r"Qwen3-Next \(D249-D250\) x([\d.]+) and x([\d.]+) \(x1\.19 and x1\.42\), Qwen's bf16 "
        r"rows x([\d.]+)-([\d.]+) \(x0\.42-0\.49\), and both sets then stood at 14\.5 % \(213 "
        r"of 263, 81\.0 % within\)",
        thirty_eighth_round_figures,
    ),
    "thirty-eighth round, prompt attention": (
        r"under SGLang 0\.5\.19 \(D113-D117\) reads x([\d.]+)-([\d.]+) \(x0\.63-1\.46\), the same "
        r"runs' first tokens, shown, x([\d.]+)-([\d.]+) \(x0\.35-0\.64\), Dell's SC '25 runs "
        r"49\.8 % \(55\.6 %\), and both sets then stood at 14\.3 % \(215 of 263, 81\.7 % "
        r"within\)",
        thirty_eighth_round_attention_figures,
    ),
    "thirty-eighth round, prompt passes": (
        r"chunked prefill on at (\d+) tokens a step .*? a lone ([\d,]+)-token prompt runs as "
        r"(\d+) eager forward passes, .*? \(the weights and fixed costs alone gave 14\.2 %\)\. "
        r"Qwen2\.5's "
        r"A100 rows at the longest prompt \(D313-D335\) read x([\d.]+)-([\d.]+) \(x0\.69-0\.98\), "
        r"and both sets then stood at ([\d.]+) % \((\d+) of (\d+), ([\d.]+) % within\)",
        thirty_eighth_round_passes_figures,
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
