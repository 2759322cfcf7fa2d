"""The pool opens on the seed's walkthrough; what lies beyond it folds, is summarised, is built late."""

import panel as pn

from core import Scenario
from labs.frame.routes import lab_bindings
from labs.page.links import restore
from labs.pool.fleet import derived_line
from labs.pool.lab import PoolLab
from labs.widgets.beyond import AS_THE_WALKTHROUGH, BEYOND_KNOBS, beyond_summary


def texts(viewable) -> str:
    """Every HTML pane's text under ``viewable`` (what the page would show), joined."""
    return " ".join(str(pane.object) for pane in pn.panel(viewable).select(pn.pane.HTML))


def test_defaults_fold_everything_beyond_and_build_none_of_it():
    """At the defaults the area is closed, reads 'as the walkthrough', and its widgets do not exist."""
    lab = PoolLab(Scenario())
    assert not lab.beyond.toggle.value and not lab.beyond.built
    assert lab.node is None and lab.sessions is None
    assert lab.hour is None and lab.fleet is None and lab.moe_chart is None
    assert AS_THE_WALKTHROUGH in lab.beyond.summary.object
    assert "data-idle-knob" not in texts(lab) and "Off: the whiteboard" not in texts(lab)


def test_the_summary_names_what_differs_in_the_walkthroughs_order():
    """Engine level, vLLM, three replicas and the Azure code hour read as the issue writes them."""
    scenario = Scenario(realism="engine", engine="vllm", replicas=3, traffic="azure-code")
    assert (
        beyond_summary(scenario)
        == "real engine \u00b7 vLLM \u00b7 3 replicas \u00b7 Azure code hour"
    )
    assert beyond_summary(Scenario(seats=64, tier="large")) == AS_THE_WALKTHROUGH


def test_an_engine_knob_at_the_whiteboard_level_is_not_summarised():
    """vLLM chosen while the whiteboard computes changes no figure, so the line leaves it out."""
    assert beyond_summary(Scenario(engine="vllm")) == AS_THE_WALKTHROUGH


def test_a_run_length_is_summarised_only_where_a_closed_loop_runs():
    """run_requests ends a benchmark's closed loop; with open-loop arrivals it changes nothing."""
    engine = {"realism": "engine", "run_requests": 1000}
    assert "1,000 requests a run" in beyond_summary(Scenario(concurrency=8, **engine))
    assert "requests a run" not in beyond_summary(Scenario(**engine))


def test_every_knob_beyond_has_words():
    """No knob beyond the walkthrough falls back to its raw name in the summary."""
    moved = {
        "model": "Llama-3-70B", "gpu": "H200", "cards": 4, "weight_dtype": "fp8",
        "realism": "engine", "serving_mode": "chunked", "kv_link": "infiniband",
        "engine": "sglang", "layout": "ep", "concurrency": 8, "usd_per_gpu_hour": 3.0,
        "traffic": "bursty", "burstiness": 2.0, "tpot_slo_s": 0.05, "replicas": 2,
        "router": "least-outstanding", "prefix_source": "derived", "kv_offload": "host-pcie",
        "session_turns": 4, "think_time_s": 10.0, "turn_growth_tokens": 500,
        "answer_tokens": 300, "arrivals_per_min": 90.0, "run_requests": 1000,
    }  # fmt: skip
    line = beyond_summary(Scenario(**moved))
    assert "_" not in line and line.count("\u00b7") == len(moved) - 1
    assert set(moved) <= set(BEYOND_KNOBS)


def test_a_link_beyond_the_walkthrough_opens_and_builds_the_area():
    """A link with three replicas opens the area, builds its rows and the fleet's table."""
    scenario = Scenario()
    lab = PoolLab(scenario)
    restore(lab_bindings(lab, scenario), "?replicas=3&router=prefix-affinity")
    lab._refresh_details()
    assert lab.beyond.toggle.value and lab.beyond.built and lab.node is not None
    assert "3 replicas" in lab.beyond.summary.object
    assert lab.fleet_slot.objects == [lab.fleet_section]
    assert lab.hour is None  # Poisson traffic: no hour to replay


def test_opening_the_area_by_hand_fills_its_figures():
    """Opened after the page is drawn, the sessions' line and the fleet's line are written at once."""
    lab = PoolLab(Scenario())
    lab.beyond.toggle.value = True
    assert lab.sessions is not None and "data-derived-hit" in lab.sessions.sentence.object
    assert lab.derived.object == derived_line(lab.scenario, lab.result)


def test_engine_level_rows_appear_only_at_the_engine_level():
    """Serving mode, engine and layout rows exist under the area only once the level is real."""
    lab = PoolLab(Scenario())
    lab.beyond.toggle.value = True
    assert "The engine behind the figures" not in texts(lab.beyond)
    lab.scenario.realism = "engine"
    assert "The engine behind the figures" in texts(lab.beyond)


def test_a_dense_model_folds_the_read_chart_and_a_mixture_builds_it():
    """The 8B's flat read curve is one line; gpt-oss builds the chart, and back to dense folds it."""
    lab = PoolLab(Scenario())
    lab._refresh_details()
    assert lab.moe_chart is None and "is dense" in lab.moe.line.object
    lab.scenario.param.update(model="gpt-oss-120b", weight_dtype="mxfp4")
    lab._refresh_details()
    assert lab.moe_chart is not None and "of 128" in lab.moe_chart.caption.object
    lab.scenario.param.update(model=None, weight_dtype="bf16")
    lab._refresh_details()
    assert lab.moe.__panel__().objects[0] is not lab.moe._section


def test_a_trace_replaces_the_prompt_knob_with_a_line():
    """On a recorded hour the prompt knob is not shown (the trace brings prompts); the hour is."""
    lab = PoolLab(Scenario(traffic="azure-code"))
    lab._refresh_details()
    assert lab.prompt_slot.objects == [lab.trace_prompts]
    assert lab.hour is not None and lab.hour_slot.objects == [lab.hour_section]
    lab.scenario.traffic = "poisson"
    lab._refresh_details()
    assert lab.prompt_slot.objects == [lab.widgets["prompt_tokens"].__panel__()]
    assert lab.hour_slot.objects == []
