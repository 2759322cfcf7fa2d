"""The pool's story of a benchmark's closed loop, and of a run that ends in a partial wave."""

from __future__ import annotations

from core import Scenario, evaluate
from labs.page import format as fmt
from labs.pool.details import details_for
from labs.pool.story import explanations

RUN = dict(
    realism="engine", model="Llama-3-70B", gpu="H100 SXM", cards=8, weight_dtype="fp8",
    kv_dtype="fp8", prompt_tokens=128, answer_tokens=2048, concurrency=896, seats=4096,
)  # fmt: skip


def story(**knobs) -> list[str]:
    scenario = Scenario(**{**RUN, **knobs})
    result = evaluate(scenario)
    return explanations(scenario, result, details_for(scenario, result).steady)


def benchmark_line(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("Driven as a benchmark"))


def test_a_closed_loop_says_what_the_benchmark_measures():
    """896 users: the engine runs 896 at once and the line quotes core's throughput."""
    result = evaluate(Scenario(**RUN))
    line = benchmark_line(story())
    assert "896 closed-loop users" in line and "runs 896 requests at once" in line
    assert fmt.rate(result.throughput_tokens_per_s) in line
    assert "wave" not in line


def test_a_run_with_a_partial_wave_names_its_waves_and_the_endless_loops_rate():
    """1,000 requests at 896: one full wave, 104 alone, and the steady state's rate beside."""
    steady = evaluate(Scenario(**RUN))
    line = benchmark_line(story(run_requests=1000))
    assert "1 full wave of 896, then a last one of 104 alone" in line
    assert fmt.rate(steady.throughput_tokens_per_s) in line
    assert fmt.rate(evaluate(Scenario(**RUN, run_requests=1000)).throughput_tokens_per_s) in line


def test_whole_waves_say_they_keep_the_steady_rate():
    """1,792 requests at 896: two whole waves, the steady state's rate."""
    assert "2 whole waves of 896: the steady state's rate" in benchmark_line(
        story(run_requests=1792)
    )


def test_open_loop_arrivals_tell_no_benchmark_story():
    """Without closed-loop users there is no benchmark line, whatever the run length says."""
    lines = story(concurrency=None, run_requests=1000)
    assert not any(line.startswith("Driven as a benchmark") for line in lines)


def test_a_benchmark_above_the_seats_dial_says_it_runs_the_engines_own_limit():
    """896 users on a pool dialled to 256 seats: the engine runs 896, its own limit, and says so."""
    line = benchmark_line(story(seats=256))
    assert "runs 896 requests at once (its own batch limit, not the seats dial)" in line
    assert "seats dial" not in benchmark_line(story())


def test_a_benchmark_whose_command_sets_its_batch_names_that_limit():
    """896 users, a command's limit of 512 on a pool dialled to 256 seats: 512 run, the
    command's limit."""
    line = benchmark_line(story(seats=256, batch_limit=512))
    assert "runs 512 requests at once (its command's batch limit, not the seats dial)" in line


def test_a_run_names_its_opening_burst_beside_the_endless_loops_first_token():
    """640 requests at 64 users of 2,048-token prompts: every first prompt arrives at once,
    and the line quotes the run's first token (mean and p95) and the endless loop's."""
    knobs = dict(concurrency=64, prompt_tokens=2048, answer_tokens=256)
    run, steady = (evaluate(Scenario(**{**RUN, **knobs}), run_requests=n) for n in (640, None))
    line = benchmark_line(story(**knobs, run_requests=640))
    assert "Every user's first prompt arrives at once" in line
    for figure in (run.ttft_p50_s, run.ttft_p95_s, steady.ttft_p50_s, steady.ttft_p95_s):
        assert fmt.duration(figure) in line
    assert "first prompt" not in benchmark_line(story(concurrency=1, run_requests=10))


def test_a_queued_closed_loop_names_its_users_not_the_peaks_seats():
    """93 users sending long prompts to three H20s queue behind each other's prefills: the
    binding sentence quotes core's p95 wait and the users, not the peak's arrivals and seats;
    the same node under arrivals keeps the seats' sentence."""
    from labs.pool.story import binding_sentence

    knobs = dict(
        model="Mistral-7B", gpu="H20", cards=3, weight_dtype="int4", prompt_tokens=1650,
        answer_tokens=1, realism="engine", prefix_hit_rate=0.3,
    )  # fmt: skip
    result = evaluate(Scenario(**knobs, concurrency=93))
    assert not result.latency_ok and result.queue_wait_p95_s > result.prefill_s
    line = binding_sentence(result, 93)
    assert line.startswith("Queueing binds: with 93 closed-loop users")
    assert fmt.duration(result.queue_wait_p95_s) in line and "seats busy" not in line
    assert "seats busy" in binding_sentence(result)


def test_a_benchmark_keeps_its_request_time_apart_from_the_arrivals_seats():
    """Under a closed loop the story quotes the loop's request time in the benchmark's line and
    sizes the pool for the arrivals without it (its seats are held for another time); arrivals
    alone keep the seat sentence with its offered load."""
    scenario = Scenario(**RUN)
    result = evaluate(scenario)
    lines = story()
    assert not any(line.startswith("A request holds its seat") for line in lines)
    assert any(line.startswith("Sized for the peak minute's") for line in lines)
    assert f"each request takes {fmt.duration(result.request_s)}" in benchmark_line(lines)
    arrivals = Scenario(**{**RUN, "concurrency": None})
    open_lines = explanations(arrivals, evaluate(arrivals))
    seat = next(line for line in open_lines if line.startswith("A request holds its seat"))
    assert f"{evaluate(arrivals).offered_load:,.1f} seats busy" in seat
