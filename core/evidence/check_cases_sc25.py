"""The fifth check set: Dell's SC '25 DeepSeek-R1 runs on MI300X and MI325X, read whole, kept out
of the score.

Hanindhito and Patel (Dell), "Characterizing Performance, Power, and Energy of AMD CDNA3 GPU
Family" (SC '25, doi:10.1145/3712285.3759768), serve DeepSeek-R1 with SGLang on one node of
eight MI300X and one of eight MI325X, and their artifact keeps every run as SGLang's
bench_serving output (:data:`_SOURCE`; ``bench/sc25_rows.py`` prints the table below from a
checkout). A new publisher, an AMD node and a mixture under SGLang's 0.4 line: the kind of
case the development sets hold fewest of. None of its runs is in them.

The rule, written down before the engine level was evaluated on any run:

- Every run at each card's default power limit is taken: the MI300X at 750 W and the MI325X at
  1,000 W, 8 input lengths (100-12,800) x 5 output lengths (100-1,600) x 9 loads (1-256 users),
  720 runs. The MI325X's runs capped at 750 W are left out (a power cap the Scenario lacks).
- Each run's figure is its output throughput (tok/s): bench_serving's random data set at a
  range ratio of 1.0 (every request exactly its lengths), request rate inf, at most ``users``
  requests in flight, 4 x ``users`` prompts in all; typed as a closed loop of ``users`` users
  that ends after 4 x ``users`` requests (``run_requests``).
- Typed with what the artifact states: ``deepseek-ai/DeepSeek-R1`` (its fp8 checkpoint, blocks
  of 128 x 128) over the node's eight cards. What it does not state, assumed: SGLang's 0.4 line
  (the runs are dated 2025-03-31 to 2025-04-06, when SGLang's ROCm images were of that line; the
  release is not named), laid out TP8 (SGLang's default for DeepSeek without
  --enable-dp-attention), the cache in bf16 (SGLang's ``auto``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from core.evidence.cases import PublishedCase
from core.evidence.configs import DEEPSEEK_FP8

_SOURCE = (
    "https://github.com/hibagus/SC25_AMD_CDNA3_Artifact @06e08111 "
    "data/7_3_Large_Language_Model_LLM_Inference/{folder}/exec/run_{prompt}-{answer}-{users}.out "
    "(Hanindhito and Patel, Dell, SC '25: SGLang bench_serving, random lengths at range ratio 1.0, "
    "'Output token throughput (tok/s)')"
)
_VERSION = "0.4 (ROCm; the release is not named, runs of 2025-03-31 to 2025-04-06)"
_ASSUMED = (
    "SGLang's 0.4 line (the artifact names no release); TP8; KV bf16 (SGLang's auto); "
    "DeepSeek-R1 as the catalog's DeepSeek-R1 shape"
)
SC25_USERS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
# card: (its runs' folder, one row per pair of lengths: output tok/s at each of SC25_USERS)
_TABLE = {
    "MI300X": (
        "MI300X_750W",
        "100/100: 49.29 99.13 179.91 340.07 647.99 967 1619.55 2623.75 1990.8; "
        "100/200: 50.82 101.75 186.85 355.59 679.36 1024.3 1722.59 2859.71 2150.66; "
        "100/400: 51.51 103.92 190.19 362.71 686.21 1048.3 1785.75 2991.48 2244.8; "
        "100/800: 51.75 104.51 191.41 364.85 698.22 1055.35 1792.4 3032.7 2258.98; "
        "100/1600: 51.64 104.31 191.09 363.8 695.9 1047.43 1792.62 3000.17 2178.01; "
        "200/100: 49.08 97.49 178.91 334.19 625.85 905.66 1468.38 2269.61 1791.81; "
        "200/200: 50.69 101.56 186.16 352.01 661.31 984.47 1636.7 2632.3 2004.81; "
        "200/400: 51.46 103.64 189.97 359.62 683.49 1028.25 1734.88 2834.43 2151.88; "
        "200/800: 51.69 104.45 191.18 362.96 691.96 1044.45 1773.77 2951.67 2195.91; "
        "200/1600: 51.6 104.27 191.04 362.7 690.13 1045.53 1779.59 2949.98 2177.64; "
        "400/100: 48.75 96.7 173.56 323.61 557.77 838.01 1241.03 1772.57 1480.24; "
        "400/200: 50.18 100.95 183.19 344.66 624 931.12 1489.28 2255.29 1815.08; "
        "400/400: 51.15 102.99 187.93 355.64 661.47 990.03 1645.13 2590.23 2021.05; "
        "400/800: 51.45 103.88 189.91 359.35 678.81 1022.7 1716.97 2794.53 2133.33; "
        "400/1600: 51.47 104 190.28 360.91 683.15 1032.88 1744.78 2852.38 2101.71; "
        "800/100: 48.22 94.62 167.01 297.66 496.06 682.9 965.52 1236.4 1094.32; "
        "800/200: 50 99.62 178.5 324.24 581.45 833.53 1262.07 1764.97 1485.17; "
        "800/400: 50.74 101.82 184.57 345.5 634.12 936.46 1489.42 2210.57 1792.25; "
        "800/800: 51.15 102.95 187.55 351.23 663 986.76 1618.8 2534.61 1977.83; "
        "800/1600: 51.2 103.27 188.76 356.43 675.24 1012.87 1689.39 2690.73 2050.21; "
        "1600/100: 46.76 90.09 153.38 256.05 386.99 500.2 630.54 730.34 679.7; "
        "1600/200: 49.04 96.48 170.43 296.41 497.66 681.78 930.29 1176.08 1043.14; "
        "1600/400: 50.2 100.28 180.01 325.04 579.27 816.2 1216.94 1667.33 1419.22; "
        "1600/800: 50.72 101.82 184.84 341.5 624.68 907.47 1428 2088.48 1709.37; "
        "1600/1600: 50.97 102.66 187.13 350.01 646.15 960.37 1548.98 2355.09 1868.94; "
        "3200/100: 44.36 80.21 126.72 187.5 259.24 297.68 337.66 364.4 353.03; "
        "3200/200: 47.44 90.16 151.83 245.45 374.87 460.21 562.97 639.8 606.54; "
        "3200/400: 49.18 96.22 168.4 290.34 480.61 632.68 843.28 1030.28 945.49; "
        "3200/800: 50.08 99.47 177.97 319.44 557.15 773.73 1118.28 1474.51 1298.38; "
        "3200/1600: 50.45 101 182.85 335.16 604.27 863.95 1325.25 1858.57 1464.69; "
        "6400/100: 38.79 62.5 87.44 113.61 133.78 144.19 152.65 157.4 150.6; "
        "6400/200: 43.79 77.35 119.13 171 221.75 249.28 277.27 294.57 270.39; "
        "6400/400: 46.82 88.05 145.27 229.19 330.08 395.03 469.04 521.26 474.02; "
        "6400/800: 48.43 94.01 163.03 275.65 435.3 556.57 715.87 846.31 834.24; "
        "6400/1600: 49.24 97.38 173.26 306.09 516.33 697.77 964.19 1219.18 1153.39; "
        "12800/100: 28.27 38.58 45.68 51.12 54.28 55.54 56.31 56.43 56.48; "
        "12800/200: 35.84 55.54 73.12 88.34 99.15 104.24 107.9 107.59 107.73; "
        "12800/400: 41.3 71.23 103.9 139.53 170.29 185.55 199.08 198.76 199.13; "
        "12800/800: 44.7 82.66 131.78 196.65 264.12 304.02 344.34 343.35 346.61; "
        "12800/1600: 46.56 89.88 151.96 246.6 363.73 445.54 540.22 538.33 539.64;",
    ),
    "MI325X": (
        "MI325X_1000W",
        "100/100: 48.29 96.71 191.24 361.63 660.92 1051.46 1736.9 2809.06 2047.96; "
        "100/200: 49.77 101.15 198.86 378.48 693.62 1125.35 1857.02 3069.06 2189.52; "
        "100/400: 50.45 102.6 202.51 386.76 709.1 1158.06 1939.64 3223 2267.22; "
        "100/800: 50.68 103.23 204.02 390.28 714.99 1172.33 1958.64 3286.68 2282.4; "
        "100/1600: 50.57 103 203.51 388.14 711.96 1171.01 1961.3 3254.68 2240.76; "
        "200/100: 48.2 96.21 189.22 354.83 640.55 986.88 1575.65 2399.26 1814.4; "
        "200/200: 49.61 100.74 197.97 374.71 680.95 1084.2 1782.59 2791.28 2057.24; "
        "200/400: 50.32 102.09 202.05 384.05 702.19 1138 1882.61 3050.92 2188.11; "
        "200/800: 50.54 102.99 203.63 387.76 708.99 1162.31 1933.57 3187.18 2241.03; "
        "200/1600: 50.54 102.81 203.28 387.28 709.22 1165.59 1944.69 3195.18 2209.63; "
        "400/100: 47.87 95.59 184.21 342.98 568.6 892.46 1349.98 1871.43 1528.75; "
        "400/200: 49.41 99.69 194.31 366.45 636.84 1026.62 1598.94 2403.36 1864.01; "
        "400/400: 50.14 101.64 199.65 379.15 677.29 1099.48 1773.45 2798.18 2077.38; "
        "400/800: 50.37 102.45 201.77 384.12 694.54 1135.32 1872.16 3021.9 2180.99; "
        "400/1600: 50.32 102.38 202.11 385.29 702.06 1152.3 1907.41 3096.9 2168.72; "
        "800/100: 47.24 93.48 176.19 312.42 507.22 735.23 1020.12 1298.4 1124.61; "
        "800/200: 48.88 98.14 188.92 347.07 594.14 908.59 1350.4 1867.42 1526.84; "
        "800/400: 49.65 100.38 195.76 364.04 648.34 1030.97 1603.19 2375.43 1827.14; "
        "800/800: 50.03 101.5 199.15 375.65 701.88 1095.65 1764.61 2730.9 2023.16; "
        "800/1600: 50.13 102.01 200.66 380.76 691.62 1128.83 1841.16 2919.98 2083.5; "
        "1600/100: 46 87.77 162.54 262.7 400.61 530.46 659.36 765.57 703.41; "
        "1600/200: 48.04 95.49 180.17 312.96 512.73 729.21 986.13 1229.18 1076.81; "
        "1600/400: 49.2 98.93 190.75 345.67 593.49 895.54 1302.44 1762.51 1459.39; "
        "1600/800: 49.68 100.57 196.16 365.25 640.37 1006.17 1548.41 2244.38 1761.98; "
        "1600/1600: 49.91 101.34 198.84 374.27 694.1 1068.44 1697.69 2559.16 1893.06; "
        "3200/100: 43.62 79.84 133.73 196.84 267.95 315.08 356.39 382.75 369.11; "
        "3200/200: 46.53 96.3 160.31 259.69 386.13 492.71 592.63 677.85 630.93; "
        "3200/400: 48.13 94.96 178.15 309 493.3 685.22 901.44 1095.8 977.83; "
        "3200/800: 48.97 98.1 188.66 340.62 574.48 1100.69 1199.37 1579.76 1341.98; "
        "3200/1600: 49.55 99.57 193.92 358.52 622.98 959.49 1434.61 2003.72 1606.23; "
        "6400/100: 38.45 62.79 92.65 119.66 140.17 152.9 161.61 167.23 165.16; "
        "6400/200: 43.19 77.25 126.08 180.94 232.13 266.66 294.4 313.22 306; "
        "6400/400: 45.98 87.16 153.74 242.75 344.14 427.21 500.52 556.23 533.9; "
        "6400/800: 47.52 93.14 173.23 292.67 451.34 602.37 766.59 904.14 848.8; "
        "6400/1600: 48.2 96.26 184.19 325.56 534.37 764.7 1039.98 1312.36 1117.3; "
        "12800/100: 28.73 40.09 49.2 55.07 58.73 60.76 61.65 62.36 62.08; "
        "12800/200: 35.9 56.9 78.24 95.66 107.56 114.19 118.04 119.5 119.53; "
        "12800/400: 40.92 72.08 111.21 150.33 182.78 198.44 213.61 222.53 225.96; "
        "12800/800: 44.03 82.96 140.54 211.12 281.55 333.59 375.49 407.91 402.51; "
        "12800/1600: 45.71 89.67 162.04 263.75 385.46 491.34 590.76 672 650.7;",
    ),
}  # fmt: skip


def _runs() -> list[PublishedCase]:
    cases = []
    for gpu, (folder, rows) in _TABLE.items():
        for row in rows.rstrip(";").split(";"):
            lengths, rates = row.split(":")
            prompt, answer = (int(length) for length in lengths.split("/"))
            for users, rate in zip(SC25_USERS, rates.split(), strict=True):
                cases.append(PublishedCase(
                    f"SC '25, DeepSeek-R1 {gpu} {prompt}/{answer} at {users} user" + "s" * (users > 1),
                    "throughput", "DeepSeek-R1", gpu, 8, "fp8", prompt, answer, "users", users,
                    float(rate),
                    _SOURCE.format(folder=folder, prompt=prompt, answer=answer, users=users),
                    f"Output token throughput (tok/s): {rate}", kv_dtype="bf16",
                    engine="SGLang", engine_version=_VERSION, layout="TP8",
                    weight_formats=DEEPSEEK_FP8, assumed=_ASSUMED, requests=4 * users,
                ))  # fmt: skip
    return cases


CHECK_SC25: list[PublishedCase] = _runs()
"""Every run of the two cards at their default power limits, in table order."""


def medians_by(ratios, key: Callable[[PublishedCase], float]) -> dict[float, float]:
    """The median of ``ratios`` (one per run, in :data:`CHECK_SC25`'s order) over the runs that
    share each value of ``key`` (their users, say), the values in ascending order."""
    keys = np.array([key(case) for case in CHECK_SC25])
    ratios = np.asarray(ratios)
    return {value: float(np.median(ratios[keys == value])) for value in sorted(set(keys))}
