"""Benchmark results files: each tool's reader, format detection, bad files, matching, points."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from core.evidence.measured.explain import explain
from core.evidence.measured.matching import Choice, match_model, match_setup
from core.evidence.measured.read import MAX_BYTES, read_file, read_path
from core.evidence.measured.record import Stat
from tests.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "benchmarks"


def runs_of(name: str):
    return read_path(FIXTURES / name)


def test_vllm_detailed_file_keeps_each_requests_lengths():
    """vLLM's --save-detailed file is read with per-request lengths summarised and its settings."""
    (run,) = runs_of("vllm_llama31_8b_c16_detailed.json")
    data = json.loads((FIXTURES / "vllm_llama31_8b_c16_detailed.json").read_text())
    assert run.tool == "vLLM bench serve" and run.per_request
    assert run.model == "meta-llama/Llama-3.1-8B-Instruct" and run.engine == "vllm"
    assert run.concurrency == 16 and math.isinf(run.request_rate) and run.requests == 32
    assert run.prompt_tokens.mean == pytest.approx(np.mean(data["input_lens"]))
    assert run.metrics["ttft_s"].median == pytest.approx(data["median_ttft_ms"] / 1000)
    assert run.metrics["output_tokens_per_s"].mean == pytest.approx(data["output_throughput"])


def test_vllm_summary_file_has_means_from_totals():
    """A vLLM file without per-request records takes its mean lengths from the totals."""
    (run,) = runs_of("vllm_llama31_8b_saturated_summary.json")
    assert not run.per_request and run.concurrency is None
    assert run.prompt_tokens.mean == 1024 and run.answer_tokens.mean == 256
    assert run.metrics["itl_s"].p99 == pytest.approx(0.3446)


def test_sglang_jsonl_gives_one_run_per_line():
    """SGLang's bench_serving JSONL is one run per line, told apart from vLLM by its fields."""
    runs = runs_of("sglang_random_1024_256.jsonl")
    assert [run.tool for run in runs] == ["SGLang bench_serving"] * 2
    assert [run.concurrency for run in runs] == [8, 64] and runs[1].label.endswith("#2")
    assert runs[0].metrics["e2e_s"].mean == pytest.approx((61.2 + 7.9 * 255) / 1000)
    assert runs[0].model == ""


def test_guidellm_report_reads_every_benchmark_and_its_strategy():
    """GuideLLM's report gives a run per benchmark, synchronous as one user, streams as users."""
    runs = runs_of("guidellm_qwen25_7b_benchmarks.json")
    assert [run.concurrency for run in runs] == [1.0, 16.0]
    assert all(run.per_request and run.model == "Qwen/Qwen2.5-7B-Instruct" for run in runs)
    assert runs[1].metrics["ttft_s"].median == pytest.approx(0.05699, rel=1e-3)
    assert runs[0].prompt_tokens.mean == 512 and runs[0].requests == 40


def test_aiperf_json_csv_and_records_agree():
    """AIPerf's real JSON, CSV and per-request exports of one run give the same figures."""
    (summary,) = runs_of("aiperf_run1_profile_export_aiperf.json")
    (table,) = runs_of("aiperf_run1_profile_export_aiperf.csv")
    (records,) = runs_of("aiperf_run1_profile_export.jsonl")
    assert summary.model == "openai/gpt-oss-20b" and summary.concurrency == 100
    assert records.per_request and not summary.per_request and records.requests == 89
    for key in ("ttft_s", "itl_s", "output_tokens_per_s"):
        figure = summary.metrics[key].pick(("median", "mean"))[0]
        assert table.metrics[key].pick(("median", "mean"))[0] == pytest.approx(figure, rel=2e-3)
        assert records.metrics[key].pick(("median", "mean"))[0] == pytest.approx(figure, rel=2e-3)


def test_genai_perf_json_and_csv():
    """GenAI-Perf's JSON names model and users; its CSV, like AIPerf's, names neither."""
    (json_run,) = runs_of("genai_perf_llama3_70b_c4.json")
    (csv_run,) = runs_of("genai_perf_llama3_70b_c4.csv")
    assert json_run.tool == csv_run.tool == "GenAI-Perf"
    assert json_run.model.endswith("Meta-Llama-3-70B-Instruct") and json_run.concurrency == 4
    assert csv_run.metrics["ttft_s"].mean == pytest.approx(0.2125)
    assert csv_run.metrics["output_tokens_per_s"].mean == pytest.approx(156.2)


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("cut.json", (FIXTURES / "broken_truncated.json").read_bytes(), "not JSON"),
        ("notes.txt", b"hello there", "not JSON or a CSV export"),
        ("other.json", b'{"accuracy": 0.9}', "unknown format"),
        ("binary.json", b"\xff\xfe{\x00", "not text"),
        ("empty.json", b"", "empty"),
        ("noout.json", json.dumps({"model_id": "m", "mean_ttft_ms": 5.0, "completed": 3,
                                    "total_input_tokens": 30}).encode(), "missing field"),
        ("neg.json", json.dumps({"model_id": "m", "mean_ttft_ms": -5.0, "completed": 3,
                                  "total_input_tokens": 30, "total_output_tokens": 30}).encode(),
         "absurd"),
        ("huge.json", json.dumps({"model_id": "m", "output_throughput": 1e12, "completed": 3,
                                   "total_input_tokens": 30, "total_output_tokens": 30}).encode(),
         "absurd"),
        ("nan.json", b'{"model_id": "m", "mean_ttft_ms": NaN, "completed": 3, '
                     b'"total_input_tokens": 30, "total_output_tokens": 30}', "absurd"),
    ],
)  # fmt: skip
def test_bad_files_name_the_file_and_the_fault(name, content, words):
    """A bad file raises a ValueError that starts with its name and says what is wrong."""
    with pytest.raises(ValueError, match=words) as error:
        read_file(name, content)
    assert str(error.value).startswith(name)


def test_a_file_over_the_cap_is_refused_by_its_size():
    """A file over 20 MB is refused with its size before any byte is decoded."""
    big = b"\xff" * (MAX_BYTES + 1)  # not even text: the size check comes first
    with pytest.raises(ValueError, match="over the 20 MB limit"):
        read_file("big.json", big)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("meta-llama/Llama-3.1-8B-Instruct", "Llama-3-8B"),
        ("meta-llama/Meta-Llama-3-70B-Instruct", "Llama-3-70B"),
        ("Qwen/Qwen2.5-7B-Instruct", "Qwen2-7B"),
        ("openai/gpt-oss-20b", "gpt-oss-20b"),
        ("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "Llama-3-8B"),
        ("mistralai/Mistral-7B-Instruct-v0.3", "Mistral-7B"),
        ("my-org/secret-model", None),
    ],
)
def test_model_names_match_catalog_shapes(name, key):
    """A served model's name maps to the catalog model of its shape, or to none."""
    assert match_model(name) == key


def test_setup_marks_what_was_guessed_or_chosen():
    """The card is the student's, the storage a guess, the model matched from the file's name."""
    (run,) = runs_of("vllm_llama31_8b_c16_detailed.json")
    setup = match_setup(run, Choice(gpu="H200"))
    assert (setup.model, setup.gpu, setup.cards, setup.engine) == ("Llama-3-8B", "H200", 1, "vllm")
    assert setup.origin["model"] == "matched by name" and setup.origin["gpu"] == "chosen"
    assert {"weights", "cache", "cards", "gpu"} <= set(setup.guessed)
    assert setup.origin["engine"] == "from the file"


def test_unknown_model_asks_for_a_choice():
    """A run whose model the catalog lacks is held until the student names one."""
    (run,) = runs_of("genai_perf_llama3_70b_c4.csv")
    (held,) = explain([run], Choice())
    assert held.setup is None and "config.json" in held.problem and not held.points
    (chosen,) = explain([run], Choice(model="Llama-3-70B", cards=2))
    assert chosen.setup.origin["model"] == "chosen" and chosen.points


def test_points_carry_both_levels_and_a_waterfall():
    """Each measured figure gets finite, positive whiteboard and engine figures and its steps."""
    runs = runs_of("vllm_llama31_8b_c16_detailed.json") + runs_of(
        "guidellm_qwen25_7b_benchmarks.json"
    )
    found = explain(runs, Choice(gpu="H100 SXM"))
    points = [point for item in found for point in item.points]
    assert {point.metric for point in points} == {"throughput", "ttft", "itl"}
    for point in points:
        assert point.whiteboard > 0 and point.engine > 0 and np.all(np.isfinite(point.steps))
        assert point.steps[0] == pytest.approx(point.whiteboard / point.measured)
        assert point.steps[-1] == pytest.approx(point.engine / point.measured)
    assert found[0].user_tokens_per_s == pytest.approx(1 / runs[0].metrics["itl_s"].median)


def test_a_node_too_small_says_so():
    """A model that does not fit the chosen node gives a reason, not a NaN point."""
    (run,) = runs_of("genai_perf_llama3_70b_c4.json")
    (item,) = explain([run], Choice(gpu="L4", cards=1))
    assert not item.points and "does not fit" in item.problem


def test_a_run_of_equal_answers_is_priced_as_a_run_of_its_requests():
    """Every answer 128 tokens (the file lists each): 40 requests at 16 users are a run of 40,
    two whole waves and 8 alone, which the engine level prices below an endless loop's rate;
    a run whose answers' spread the file does not show is priced as an endless loop."""
    (run,) = runs_of("vllm_llama31_8b_c16_detailed.json")
    assert run.answer_tokens.uniform
    forty = replace(run, requests=40)
    unknown = replace(forty, answer_tokens=Stat(mean=128.0))

    def throughput(of):
        (found,) = explain([of], Choice(gpu="H100 SXM"))
        return next(point for point in found.points if point.metric == "throughput")

    counted, endless = throughput(forty), throughput(unknown)
    assert counted.case.requests == 40 and counted.case.scenario().run_requests == 40
    assert endless.case.requests == 0 and endless.case.scenario().run_requests is None
    assert counted.engine < endless.engine
