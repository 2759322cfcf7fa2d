"""More published measurements, kept apart from the development set to check that the physics
generalises: the rest of TensorRT-LLM's v0.17 throughput table (H200, H100 and A100 columns), its
v0.14 online-serving table (points where the engine kept up with the offered rate) and the L40S
column of its v0.14 throughput table (cards linked over PCIe only). No constant was chosen by
looking at these: the L40S 70B rows showed that PCIe all-reduces were priced at NVLink's share,
and the share PCIe reaches comes from a published nccl-tests run (NVIDIA/nccl issue #1639).
"""

from __future__ import annotations

from core.evidence.cases import (
    _TRT_ONLINE,
    _TRT_V017,
    DEVELOPMENT,
    PERF_OVERVIEW_REQUESTS,
    PublishedCase,
)
from core.evidence.cases_2026 import _TRT_014, SECOND

_NAMES = {"8B": "Llama-3-8B", "70B": "Llama-3-70B", "Mix": "Mixtral-8x7B", "M7B": "Mistral-7B"}
# model | cards | prompt,answer | H200 fp8 | H100 fp8 | A100 80GB fp16 ('-': not measured)
_THROUGHPUT = """
8B|1|128,128|29526.04|28836.77|6627.27
8B|1|128,2048|25398.86|21109.38|5255.99
8B|1|128,4096|17370.8|13593.65|3453.79
8B|1|500,2000|21020.81|16500.69|4276.58
8B|1|1000,1000|17537.96|15244.78|3786.83
8B|1|2048,128|3794.14|3556.73|799.61
8B|1|2048,2048|11968.5|9488.42|2424.16
8B|1|5000,500|3987.79|3559.36|825.13
8B|1|20000,2000|1804.1|1401.31|330.04
70B|1|128,128|4020.75|3378.03|-
70B|1|128,2048|4165.68|911.62|-
70B|1|128,4096|2651.75|426.32|-
70B|1|500,2000|3018.39|775.57|-
70B|1|1000,1000|2823.45|839.97|-
70B|1|2048,128|465.99|343.29|-
70B|1|2048,2048|1913.8|-|-
70B|1|5000,500|560.16|245.34|-
70B|1|20000,2000|279.52|-|-
70B|2|128,128|6823.01|6645.12|1313.96
70B|2|128,2048|8290.35|6169.58|531.26
70B|2|128,4096|6526.67|3897.06|-
70B|2|500,2000|6848.02|4972.57|439.41
70B|2|1000,1000|5164.76|4390.53|472.94
70B|2|2048,128|809|772.66|148.96
70B|2|2048,2048|4183.88|2898.16|261.1
70B|2|5000,500|1025.38|919.73|121.47
70B|2|20000,2000|640.62|443.01|-
70B|4|128,128|11098.63|11127.53|2733.48
70B|4|128,2048|14156|11511.93|2811.27
70B|4|128,4096|10574.06|7439.41|1976.49
70B|4|500,2000|12452.79|9836.7|2275.79
70B|4|1000,1000|8911.29|7430.99|1921.77
70B|4|2048,128|1358.06|1302.6|325.15
70B|4|2048,2048|7130.44|5480.03|1393.64
70B|4|5000,500|1811.55|1602.78|392.62
70B|4|20000,2000|1199.68|920.19|212.08
70B|8|128,128|15355.84|14730.69|4717.62
70B|8|128,2048|21195.88|17061.82|5241.5
70B|8|128,4096|16941.52|14171.43|3724.67
70B|8|500,2000|17278.4|14679.33|4445.37
70B|8|1000,1000|13181.24|11451.16|3320.41
70B|8|2048,128|1983.03|1923.41|542.38
70B|8|2048,2048|11142.47|8801.95|2553.71
70B|8|5000,500|2717.83|2457.42|696.34
70B|8|20000,2000|1920.45|1512.6|413.38
M7B|1|128,128|31938.12|31674.49|6982.53
M7B|1|128,2048|27409.3|23496.42|5630.62
M7B|1|128,4096|18505.03|14350.99|3591.22
M7B|1|500,2000|22354.67|18026.27|4400.48
M7B|1|1000,1000|18426.16|16035.66|3896.58
M7B|1|2048,128|3834.43|3642.48|808.58
M7B|1|2048,2048|12347.37|9958.17|2489.77
M7B|1|5000,500|4041.59|3591.33|844.64
M7B|1|20000,2000|1822.69|1373.24|332.3
Mix|1|128,128|17157.72|15962.49|-
Mix|1|128,2048|15095.21|8290.13|-
Mix|1|128,4096|9534.62|4784.86|-
Mix|1|500,2000|12105.27|6800.6|-
Mix|1|1000,1000|10371.36|6868.52|-
Mix|1|2048,128|2009.67|1892.81|-
Mix|1|2048,2048|6940.32|3983.1|-
Mix|1|5000,500|2309.1|1764.7|-
Mix|1|20000,2000|1151.78|673.7|-
Mix|2|128,128|27825.34|27451.13|5541.47
Mix|2|128,2048|29584.05|22830.08|4169.78
Mix|2|128,4096|21564.68|14237.01|2608.05
Mix|2|500,2000|23410.63|17036.04|3446.37
Mix|2|1000,1000|19151.19|15770.89|3154.52
Mix|2|2048,128|3383.16|3333.68|649
Mix|2|2048,2048|14007.29|10685.85|2056.58
Mix|2|5000,500|4223.68|3646.09|724.44
Mix|2|20000,2000|2299.21|1757.45|337.51
Mix|4|128,128|42551.59|41068.23|10324.28
Mix|4|128,2048|52291.78|41164.73|10911.86
Mix|4|128,4096|39513.73|27912.48|7666.51
Mix|4|500,2000|43818.99|34489.34|8456.21
Mix|4|1000,1000|33580.9|27784.74|7122.84
Mix|4|2048,128|5467.62|5234.98|1237.62
Mix|4|2048,2048|24980.93|19432.08|5222.98
Mix|4|5000,500|7084.94|6401.56|1500.55
Mix|4|20000,2000|4236.84|3303.83|829.59
Mix|8|128,128|53212.55|50849.55|17043.54
Mix|8|128,2048|68608.45|61607.7|20277.88
Mix|8|128,4096|54827.78|48280.37|15282.89
Mix|8|500,2000|58706.39|52583.65|17184.24
Mix|8|1000,1000|44705.48|40631.71|12851.44
Mix|8|2048,128|7554.38|6988.18|2165.52
Mix|8|2048,2048|36193.64|30983.35|9809.76
Mix|8|5000,500|10271.8|9210.11|2761.28
Mix|8|20000,2000|6835.53|5602.43|1592.53
"""
# model | cards | prompt | answer | requests/s, mean TTFT ms, mean ITL ms; ...
_ONLINE = """
70B|H100 SXM|4|467|256|2 62 21;4 68 24;8 92 32
70B|H100 SXM|4|467|16|2 53 18;4 58 20;8 71 24;16 109 38
70B|H100 SXM|4|202|214|2 48 20;4 51 22;8 57 25
8B|H100 SXM|1|467|256|2 23 8;4 24 9;8 26 9;16 30 11
8B|H100 SXM|1|467|16|2 19 7;4 20 7;8 22 7;16 24 8;32 29 10
8B|H100 SXM|1|202|214|2 19 7;4 20 8;8 21 9
70B|H200|4|467|256|2 58 18;4 63 20;8 84 27
8B|H200|1|467|256|2 21 6;4 23 7;8 24 7;16 27 9
8B|H200|1|202|214|2 17 6;4 18 6;8 19 7
"""
_COLUMNS = (("H200", "fp8"), ("H100 SXM", "fp8"), ("A100 80GB SXM", "bf16"))
# The v0.14 table's L40S FP8 column: model | cards | prompt,answer | output tokens/s
_L40S = """
70B|4|1000,1000|1159.357
70B|4|128,128|1427.9115
70B|4|128,2048|1771.4437
70B|4|128,4096|1279.2496
70B|4|2048,128|168.7886
70B|4|2048,2048|876.6085
70B|4|500,2000|1468.7827
70B|4|5000,500|234.7343
70B|8|1000,1000|1173.3517
70B|8|128,128|1377.473
70B|8|128,2048|1953.7918
70B|8|128,4096|1494.0776
70B|8|2048,128|160.2741
70B|8|2048,2048|994.94
70B|8|500,2000|1636.4588
70B|8|5000,500|231.9027
8B|1|1000,1000|3726.7552
8B|1|128,128|8639.7933
8B|1|128,2048|5101.6652
8B|1|128,4096|2774.5363
8B|1|20000,2000|270.5404
8B|1|2048,128|986.9134
8B|1|2048,2048|2018.303
8B|1|500,2000|4065.3921
8B|1|5000,500|855.9822
M7B|1|1000,1000|3981.4799
M7B|1|128,128|9127.5052
M7B|1|128,2048|5357.3405
M7B|1|128,4096|2879.9833
M7B|1|20000,2000|286.353
M7B|1|2048,128|1019.75
M7B|1|2048,2048|2184.3861
M7B|1|500,2000|4286.3867
M7B|1|5000,500|881.7336
Mix|4|1000,1000|5060.8399
Mix|4|128,128|6769.9441
Mix|4|128,2048|7506.7612
Mix|4|128,4096|4958.7004
Mix|4|20000,2000|587.1759
Mix|4|2048,128|812.0143
Mix|4|2048,2048|3453.8076
Mix|4|500,2000|6434.9178
Mix|4|5000,500|1047.3212
Mix|8|1000,1000|5725.9638
Mix|8|128,128|6422.4308
Mix|8|128,2048|9907.6896
Mix|8|128,4096|8271.7938
Mix|8|20000,2000|828.8471
Mix|8|2048,128|771.3656
Mix|8|2048,2048|4929.7228
Mix|8|500,2000|8130.8026
Mix|8|5000,500|1098.3081
"""


def _throughput_cases() -> list[PublishedCase]:
    cases = []
    for line in _THROUGHPUT.strip().splitlines():
        model, cards, lengths, *columns = line.split("|")
        prompt, answer = (int(n) for n in lengths.split(","))
        for (gpu, dtype), value in zip(_COLUMNS, columns, strict=True):
            if value == "-":
                continue
            key = f"{model} {gpu} x{cards} {prompt}/{answer}"
            cases.append(
                PublishedCase(key, "throughput", _NAMES[model], gpu, int(cards), dtype, prompt,
                              answer, "saturated", 0, float(value), _TRT_V017,
                              requests=PERF_OVERVIEW_REQUESTS[prompt, answer])
            )  # fmt: skip
    return cases


def _l40s_cases() -> list[PublishedCase]:
    cases = []
    for line in _L40S.strip().splitlines():
        model, cards, lengths, value = line.split("|")
        prompt, answer = (int(n) for n in lengths.split(","))
        cases.append(
            PublishedCase(f"{model} L40S x{cards} {prompt}/{answer}", "throughput", _NAMES[model],
                          "L40S", int(cards), "fp8", prompt, answer, "saturated", 0, float(value),
                          _TRT_014, engine_version="0.14",
                          requests=PERF_OVERVIEW_REQUESTS[prompt, answer])
        )  # fmt: skip
    return cases


def _online_cases() -> list[PublishedCase]:
    cases = []
    for line in _ONLINE.strip().splitlines():
        model, gpu, cards, prompt, answer, points = line.split("|")
        for point in points.split(";"):
            rate, ttft_ms, itl_ms = (float(n) for n in point.split())
            for metric, value in (("ttft", ttft_ms), ("itl", itl_ms)):
                key = f"{model} {gpu} x{cards} {prompt}/{answer} at {rate:g}/s {metric}"
                cases.append(
                    PublishedCase(key, metric, _NAMES[model], gpu, int(cards), "bf16",
                                  int(prompt), int(answer), "rate", rate, value / 1e3, _TRT_ONLINE)
                )  # fmt: skip
    return cases


def _not_in_development(case: PublishedCase) -> bool:
    # the same publisher's row of the same set-up; another publisher's run of it is its own
    key = (case.publisher, case.set_up)
    return not any((d.publisher, d.set_up) == key for d in (*DEVELOPMENT, *SECOND))


CHECK: list[PublishedCase] = [
    case
    for case in (*_throughput_cases(), *_l40s_cases(), *_online_cases())
    if _not_in_development(case)
]
