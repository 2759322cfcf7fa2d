"""Every results-file reader, fed random and hostile JSON, JSONL and CSV: a named refusal or runs."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.evidence.measured.read import read_file
from core.evidence.measured.record import BenchmarkRun
from tests.paths import FIXTURES_DIR
from tests.strategies import hostile_values

FIXTURES = FIXTURES_DIR / "benchmarks"
JSON_FIXTURES = sorted(
    p.name for p in FIXTURES.glob("*.json") if not p.name.startswith("broken")
)  # one per JSON reader: vLLM, GuideLLM, AIPerf, GenAI-Perf
JSONL_FIXTURES = sorted(p.name for p in FIXTURES.glob("*.jsonl"))
CSV_FIXTURES = sorted(p.name for p in FIXTURES.glob("*.csv"))


def read_or_refuse(name: str, content: bytes) -> None:
    """Read ``content``: it gives runs, or a ValueError whose message starts with ``name``."""
    try:
        runs = read_file(name, content)
    except ValueError as error:
        assert str(error).startswith(f"{name}: "), str(error)
        return
    assert runs and all(isinstance(run, BenchmarkRun) for run in runs)


def paths(value, prefix=()):
    """Every place in a JSON value, as a tuple of keys and indexes (lists: their first items)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from paths(item, (*prefix, index))


def replaced(value, path, new):
    """``value`` with the item at ``path`` replaced by ``new``."""
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(copy[path[0]], path[1:], new)
    return copy


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(JSON_FIXTURES + JSONL_FIXTURES),
    pick=st.integers(0, 10**6),
    new=hostile_values,
)
def test_a_hostile_field_in_any_json_reader_is_refused_by_name(name, pick, new):
    """Any field of a real results file replaced by a hostile value: runs, or a named refusal."""
    text = (FIXTURES / name).read_text()
    if name.endswith(".jsonl"):
        document = [json.loads(line) for line in text.splitlines() if line.strip()]
    else:
        document = json.loads(text)
    places = list(paths(document))
    hostile = replaced(document, places[pick % len(places)], new)
    if name.endswith(".jsonl") and isinstance(hostile, list):
        body = "\n".join(json.dumps(line) for line in hostile)
    else:
        body = json.dumps(hostile)
    read_or_refuse("upload.jsonl" if name.endswith(".jsonl") else "upload.json", body.encode())


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(CSV_FIXTURES), pick=st.integers(0, 10**6), cell=st.text(max_size=8))
def test_a_hostile_cell_in_a_csv_export_is_refused_by_name(name, pick, cell):
    """Any cell of a real CSV export replaced by random text: runs, or a named refusal."""
    rows = [line.split(",") for line in (FIXTURES / name).read_text().splitlines()]
    row = rows[pick % len(rows)]
    row[pick % len(row)] = cell.replace(",", " ").replace("\n", " ").replace("\r", " ")
    read_or_refuse("upload.csv", "\n".join(",".join(r) for r in rows).encode())


@settings(max_examples=80)
@given(body=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
def test_random_bytes_are_refused_by_name(body):
    """Random bytes or text in a results file: always a refusal naming the file, never a crash."""
    read_or_refuse("random.json", body)


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000 + b"]" * 100_000,  # RecursionError before
        b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        b'{"model_id": "m", "mean_ttft_ms": ' + b"9" * 4_000 + b"}",  # OverflowError before
        b'{"model_id": "m", "mean_ttft_ms": ' + b"9" * 5_000 + b"}",  # unnamed ValueError before
        b'{"model_id": "m", "mean_ttft_ms": "12", "completed": 3}',  # TypeError before
        b'{"model_id": "m", "output_throughput": 1, "mean_tpot_ms": [1, 2]}',
    ],
    ids=["deep-list", "deep-object", "4000-digits", "5000-digits", "text-number", "list-number"],
)
def test_the_probes_files_are_refused_naming_the_file(body):
    """The probe's files (deep nesting, huge numbers, numbers as text) get a named refusal."""
    name = "probe.json"
    with pytest.raises(ValueError, match=r"^probe\.json: "):
        read_file(name, body)
