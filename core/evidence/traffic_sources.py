"""The sources table's rows for real traffic: the Azure traces, the TPOT target, the burst queue."""

from __future__ import annotations

from core.catalog.traces import TRACES, load_trace
from core.evidence.source_groups import Source
from core.scenario.knobs import Scenario
from core.traffic.autoscale import BOOT_S, STORAGE_BYTES_PER_S

AZURE_TRACE_SOURCE = (
    "Azure LLM inference trace 2023 (Azure/AzurePublicDataset, CC-BY 4.0), published with "
    "Patel et al., 'Splitwise: Efficient generative LLM inference using phase splitting', "
    "ISCA 2024: https://github.com/Azure/AzurePublicDataset"
)


def traffic_rows() -> list[Source]:
    """Each trace's hour, the default time-per-token target, and the burst queue's factor."""
    rows = []
    for name in TRACES:
        trace = load_trace(name)
        rows.append(
            Source(
                f"{name}: requests, mean and peak minute, peak second",
                f"{trace.requests:,} / {trace.mean_per_min:,.0f} / {trace.peak_minute:,} / "
                f"{trace.peak_second:,}",
                "arrivals in one hour",
                AZURE_TRACE_SOURCE,
                kind="whiteboard",
            )
        )
    rows += [
        Source(
            "time-per-output-token target (default)",
            f"{Scenario.param.tpot_slo_s.default:g}",
            "s per token",
            "DistServe's chatbot SLO, TPOT 0.1 s (Zhong et al., 'DistServe', OSDI 2024): "
            "https://arxiv.org/abs/2401.09670",
            kind="whiteboard",
        ),
        Source(
            "wait under bursty arrivals, over M/M/c's",
            "(c_a\u00b2 + c_s\u00b2) / 2",
            "factor",
            "the Allen-Cunneen approximation for G/G/c (A. O. Allen, 'Probability, Statistics, "
            "and Queueing Theory', 2nd ed., 1990)",
            kind="whiteboard",
        ),
        Source(
            "booting a node before it loads weights",
            f"{BOOT_S:g}",
            "s",
            "an assumption of this lab: no published figure covers every cloud and image",
            kind="whiteboard",
        ),
        Source(
            "storage the weights load from",
            f"{STORAGE_BYTES_PER_S / 2**20:,.0f}",
            "MiB/s",
            "AWS EBS gp3's most throughput per volume (AWS, 'Amazon EBS volume types'): "
            "https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html",
            kind="whiteboard",
        ),
    ]
    return rows
