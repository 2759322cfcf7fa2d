"""How unevenly a real router spreads a step's tokens over the cards holding the experts.

A real router favours some experts, so under expert parallelism the card holding the busiest
experts multiplies more tokens than its share and sets the step's pace. Fitted by
``bench/moe_kernel_fit.py`` to the ratio of NVIDIA aiconfigurator's power-law-routed MoE kernel
rows (alpha 1.2, aiconfigurator's default for mixtures) to their balanced twins at 2,048 tokens
and more: ``1 + floor + spread * sqrt(2 ln(EP) / experts per card)``, mean error 13 % over 2,695
rows of 10 kernels (28 % if ignored).
"""

from __future__ import annotations

ROUTING_IMBALANCE_FLOOR = 0.08
ROUTING_IMBALANCE_SPREAD = 0.90
ROUTING_IMBALANCE_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured MoE kernel tables, power_law_1.2 over "
    "balanced rows, TP x EP up to 8, 2,048-16,384 tokens; fitted by bench/moe_kernel_fit.py "
    "(mean error 13 %, 28 % if ignored)"
)
