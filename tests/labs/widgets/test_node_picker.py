"""The node picker, the attention comparison and the MoE read curve at the param level."""

import numpy as np
import pytest

from core import MODELS, TIERS, Scenario, evaluate
from core.catalog.config_json import compact_config
from labs.frame.shell import lab_bindings
from labs.kv.attention_table import AttentionComparison
from labs.kv.lab import KvLab
from labs.page.links import query_for, restore
from labs.pool.lab import PoolLab
from labs.widgets.moe_chart import MoeReadChart
from labs.widgets.node_picker import TYPED, NodePicker
from tests.paths import FIXTURES_DIR

CONFIGS = FIXTURES_DIR / "configs"


def test_pasting_a_config_runs_the_pasted_model():
    """A pasted gpt-oss config.json becomes the scenario's model, with its shape shown."""
    scenario = Scenario()
    picker = NodePicker(scenario)
    picker.config_text.value = (CONFIGS / "gpt-oss-120b.json").read_text()
    picker._paste()
    assert scenario.model == "custom"
    assert picker.model.value == "pasted config.json"
    html = picker.config_status.object
    assert "116.79B total" in html and "gpt-oss-120b" in html and "128 tokens on 18" in html


def test_a_bad_config_shows_the_error_and_keeps_the_model():
    """Broken JSON leaves the scenario alone and says what is wrong."""
    scenario = Scenario(model="Llama-3-8B")
    picker = NodePicker(scenario)
    picker.config_text.value = '{"num_hidden_layers": 2}'
    picker._paste()
    assert scenario.model == "Llama-3-8B"
    assert "data-config-error" in picker.config_status.object
    assert "hidden_size" in picker.config_status.object


def test_picker_sets_card_cards_and_weights():
    """Card, card count and weight storage go to the shared scenario; 0 cards means usual."""
    scenario = Scenario()
    picker = NodePicker(scenario)
    picker.gpu.value = TYPED
    picker.cards.value = 4
    assert (scenario.gpu, scenario.cards) == ("custom", 4)
    picker.cards.value = 0
    assert scenario.cards is None
    scenario.weight_dtype = "nvfp4"
    assert picker.weights.value == "nvfp4"


def test_a_link_carries_the_pasted_model_and_the_typed_card():
    """The compact config and the card form survive a link round trip."""
    text = compact_config((CONFIGS / "deepseek-v3.json").read_text())
    source = Scenario(model_config=text, model="custom", gpu="custom", card_memory_gb=192,
                      card_tb_per_s=5.3, card_tflops=2615, cards=8, weight_dtype="fp8")  # fmt: skip
    lab = PoolLab(source)
    query = query_for(lab_bindings(lab, source))
    target = Scenario()
    notices = restore(lab_bindings(PoolLab(target), target), query)
    assert notices == []
    assert target.knobs() == source.knobs()
    assert evaluate(target) == evaluate(source)


def test_attention_comparison_shows_each_variant_and_its_derivation():
    """The KV lab's row lists MHA, GQA and MLA with a derivation ending on core's figure."""
    lab = KvLab(Scenario(model="DeepSeek-V3", gpu="H200", weight_dtype="fp8", cards=8))
    lab._refresh_details()
    html = lab.attention._pane.object
    for name in ("MHA", "GQA", "MLA"):
        assert f'data-variant="{name}"' in html
    assert "= <b>70,272 B</b>" in html and "= <b>3,997,696 B</b>" in html
    assert "512 latent + 64 rotary key" in lab.derivation.object


def test_moe_chart_bends_for_a_mixture_and_stays_flat_for_a_dense_model():
    """The read curve rises from one token's share to all weights; a dense model's is flat."""
    lab = PoolLab(Scenario(model="gpt-oss-120b", weight_dtype="mxfp4"))
    lab._refresh_details()
    data = lab.moe_chart.source.data
    assert data["moe"][0] < 0.1 * data["dense"][0]
    assert data["moe"][-1] == pytest.approx(data["dense"][-1], rel=1e-3)
    assert np.all(np.diff(data["moe"]) >= 0)
    assert "of 128" in lab.moe_chart.caption.object
    chart = MoeReadChart()
    chart.update(TIERS["small"], "bf16", 2, 16, 1, 80e9)
    assert np.all(chart.source.data["moe"] == chart.source.data["dense"])
    assert "is dense" in chart.caption.object


def test_moe_chart_scale_follows_the_model():
    """Switching from the 8B to the 70B rescales the read chart so the new curve is on it."""
    chart = MoeReadChart()
    for tier in ("small", "large"):
        chart.update(TIERS[tier], "bf16", 2, 16, 1, 80e9)
        top = float(np.max(chart.source.data["dense"]))
        assert top < chart.plot.y_range.end < 1.2 * top


def test_attention_comparison_notes_a_windowed_model():
    """gpt-oss's 128-token window is named with the average its own cache pays."""
    view = AttentionComparison()
    view.update(MODELS["gpt-oss-120b"], "bf16", 2, 4000, 17e9, 38044.0)
    assert "last 128" in view._pane.object and "38,044 B" in view._pane.object


def test_the_bring_your_own_forms_are_built_on_first_opening():
    """The picker starts without its forms; the toggle builds them once, then shows or hides them."""
    picker = NodePicker(Scenario(), show_model=False)
    assert picker.own is None and picker.card_inputs == {}
    picker.own_toggle.value = True
    forms = picker.own
    assert picker.config_text in forms.select(type(picker.config_text))
    assert set(picker.card_inputs) == {"card_memory_gb", "card_tb_per_s", "card_tflops",
                                       "usd_per_gpu_hour"}  # fmt: skip
    picker.own_toggle.value = False
    assert not forms.visible and picker.own is forms
    picker.own_toggle.value = True
    assert forms.visible and picker.__panel__().objects.count(forms) == 1


def test_a_named_model_opens_in_its_checkpoints_format():
    """Picking gpt-oss-120b stores its weights as MXFP4, DeepSeek-R1 as fp8, Llama-3-8B as bf16."""
    from core.catalog import MODELS
    from labs.widgets.knobs import model_select

    scenario = Scenario()
    select = model_select(scenario)
    for model in ("gpt-oss-120b", "DeepSeek-R1", "Llama-3-8B"):
        select.value = model
        assert scenario.model == model
        assert scenario.weight_dtype == MODELS[model].checkpoint_dtype
    assert MODELS["gpt-oss-120b"].checkpoint_dtype == "mxfp4"
    assert MODELS["DeepSeek-R1"].checkpoint_dtype == "fp8"


def test_the_batch_marker_is_drawn_unlike_every_legend_line():
    """The 'your B' line has its own legend entry, a colour-and-dash pair no curve uses, and a label."""
    from labs.widgets.moe_chart import LINES, MARKER

    chart = MoeReadChart()
    chart.update(MODELS["gpt-oss-120b"], "mxfp4", 0.53, 16, 1, 80e9)
    drawn = (chart.marker.line_color, tuple(chart.marker.line_dash))
    curves = {(r.glyph.line_color, tuple(r.glyph.line_dash)) for r in chart.plot.renderers}
    assert drawn not in curves
    assert all(style != MARKER[2] or colour != MARKER[0] for colour, _, style in LINES)
    assert MARKER[1] in chart._layout[0].object
    assert chart.marker_label.text == "your B = 16" and chart.marker_label.x == 16


def test_a_pasted_hybrid_shows_its_layer_split_on_the_model_card():
    """A pasted Nemotron-H's card splits its layers by kind, as core counts them, heads on the attending ones."""
    from core.catalog.config_json import parse_config
    from core.whiteboard.layer_kinds import kv_layers, layer_kind_rows

    scenario = Scenario()
    picker = NodePicker(scenario)
    text = (CONFIGS / "nemotron-h-8b.json").read_text()
    picker.config_text.value = text
    picker._paste()
    shape = parse_config(compact_config(text)).shape
    rows = layer_kind_rows(shape, 1.0, 1.0)
    assert len(rows) == 3  # full attention, state-space, MLP only
    split = ", ".join(f"{row.layers} {row.kind}" for row in rows)
    html = picker.config_status.object
    assert f"<td>{shape.layers}: {split}</td>" in html
    assert f"on its {kv_layers(shape)} attention layers" in html
    picker.config_text.value = (CONFIGS / "llama-3.1-8b.json").read_text()
    picker._paste()
    assert "<th>layers</th><td>32</td>" in picker.config_status.object  # one kind: no split
