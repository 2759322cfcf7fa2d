"""One entry point for every results file: refuse it if too big, tell its format, read its runs.

:func:`read_file` takes a file's name and bytes (an upload), :func:`read_path` a file on disk;
both check the size before anything is decoded and raise a ValueError whose message starts
with the file's name and says what is wrong: too big, not text, not JSON, a format this lab
does not know, a missing field, or an absurd value.
"""

from __future__ import annotations

import json
import os

from core.evidence.measured.aiperf_records import is_aiperf_records, read_aiperf_records
from core.evidence.measured.guidellm import is_guidellm, read_guidellm
from core.evidence.measured.nvidia import (
    is_nvidia_csv,
    is_nvidia_json,
    read_nvidia_csv,
    read_nvidia_json,
)
from core.evidence.measured.openai_bench import is_sglang, is_vllm, read_openai_run
from core.evidence.measured.record import BenchmarkRun, bad_file

MAX_BYTES = 20 * 1024 * 1024  # the largest file read (20 MB)
MAX_RUNS = 200  # runs kept from one file (a JSONL file can append forever)
FORMATS = (
    "vLLM bench serve --save-result JSON, SGLang bench_serving JSONL, GuideLLM's report JSON, "
    "AIPerf or GenAI-Perf profile export (JSON or CSV)"
)


def check_size(name: str, size: int) -> None:
    """Refuse a file over :data:`MAX_BYTES` by its size alone, before it is read."""
    if size > MAX_BYTES:
        raise bad_file(
            name,
            f"{size / 1e6:,.1f} MB is over the {MAX_BYTES // (1024 * 1024)} MB limit: not read",
        )
    if size == 0:
        raise bad_file(name, "the file is empty")


def _object_runs(name: str, data, run: int) -> list[BenchmarkRun]:
    """The runs of one JSON value, by the format its fields show."""
    if not isinstance(data, dict):
        raise bad_file(name, f"unknown format: a JSON {type(data).__name__}, not one of {FORMATS}")
    if is_guidellm(data):
        return read_guidellm(name, data)
    if is_nvidia_json(data):
        return [read_nvidia_json(name, data)]
    if is_sglang(data):
        return [read_openai_run(name, data, run, sglang=True)]
    if is_vllm(data):
        return [read_openai_run(name, data, run, sglang=False)]
    keys = ", ".join(list(data)[:6]) or "none"
    raise bad_file(name, f"unknown format (its fields: {keys}); this lab reads {FORMATS}")


def _json_lines(name: str, text: str) -> list:
    values = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            values.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise bad_file(name, f"not JSON: line {number}, {error.msg}") from error
    return values


def read_text(name: str, text: str) -> list[BenchmarkRun]:
    """Every run in a results file's text."""
    body = text.lstrip("\ufeff \t\r\n")
    if is_nvidia_csv(body):
        return [read_nvidia_csv(name, body)]
    if not body.startswith(("{", "[")):
        raise bad_file(
            name, f"not JSON or a CSV export: it starts {body[:20]!r}; this lab reads {FORMATS}"
        )
    try:
        values = [json.loads(body)]
    except RecursionError:
        raise bad_file(name, "nested too deep to be a results file: not read") from None
    except json.JSONDecodeError as error:
        if "\n" not in body.strip():
            where = f"{error.msg.removesuffix(' at')} at character {error.pos:,}"
            raise bad_file(name, f"not JSON (cut short or damaged): {where}") from error
        values = _json_lines(name, body)  # JSON Lines: one run per line
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    if not values:
        raise bad_file(name, "no runs in it")
    if is_aiperf_records(values):  # one run told request by request
        return [read_aiperf_records(name, values)]
    runs = []
    for index, value in enumerate(values[:MAX_RUNS]):
        runs.extend(_object_runs(name, value, index))
    return runs


def read_file(name: str, content: bytes | str) -> list[BenchmarkRun]:
    """Every run in an uploaded file, refused before decoding if it is over the size limit."""
    name = os.path.basename(str(name))[:120] or "the file"
    size = len(content.encode("utf-8")) if isinstance(content, str) else len(content)
    check_size(name, size)
    if isinstance(content, bytes | bytearray):
        try:
            content = bytes(content).decode("utf-8")
        except UnicodeDecodeError as error:
            raise bad_file(name, "not text (not UTF-8): not a results file") from error
    try:
        return read_text(name, content)
    except ValueError as error:
        if str(error).startswith(f"{name}: "):
            raise
        # Python's own refusals (a number of thousands of digits) name no file: this one does.
        raise bad_file(name, f"not a results file: {_short(error)}") from None
    except RecursionError:
        raise bad_file(name, "nested too deep to be a results file: not read") from None
    except (TypeError, OverflowError, KeyError, IndexError, AttributeError, ZeroDivisionError):
        # A field of the wrong kind the readers' own checks did not name: refuse the file whole.
        raise bad_file(
            name,
            "a field holds text, a list or a number too large where a figure belongs: not read",
        ) from None


def _short(error: Exception) -> str:
    """An error's message in one short line."""
    text = " ".join(str(error).split())
    return text if len(text) <= 120 else text[:119] + "\u2026"


def read_path(path: str | os.PathLike) -> list[BenchmarkRun]:
    """Every run in a file on disk, its size checked before it is opened."""
    name = os.path.basename(os.fspath(path))
    check_size(name, os.path.getsize(path))
    with open(path, "rb") as handle:
        return read_file(name, handle.read())
