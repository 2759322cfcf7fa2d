"""Published rows found in issue 37's second round (item 5), appended to the second set.

Each case names the public page or repository file it came from, quotes its figures and says
what it assumes; :data:`FOUND` is appended to :data:`core.evidence.cases_2026.SECOND` (keys
D44 onward) and typed as its cases are. The rows were taken by the rule of
:mod:`core.evidence.cases_2026`'s docstring, written down before the engine level was evaluated
on any of them, read for these sources as follows (also written before any evaluation):

- Lambda's vLLM benchmark (LambdaLabsML/vllm-benchmark, its report ``benchmark_v0.md``): the
  table "Tensor Parallel v.s. Data Parallel" gives, for eight models on 1, 2, 4 and 8 A100 or
  H100 cards, output throughput / median time between tokens of one run each, every run the
  same load (320 ShareGPT requests sent at once, vLLM 0.5.4). Its prompt and answer lengths are
  each run's own means (``total_input_tokens`` and ``total_output_tokens`` over ``completed``
  in the run's JSON, ``results_v0/prompt_320/<cards>x<card>/<model>_tp<n>_len2000.json``: the
  files ``compile_sweetspot.py`` compiles the table from, moved to ``results_v0/`` when the
  0.6.0 runs came; each quoted figure is checked against its file). Every request at once is heavy load: output throughput is taken,
  not the time between tokens.
- A row needs its lengths, so its run file: of the table's 48 runs (the eight models in the
  catalog or pasted as their config.json, every run that did not fail), the stored snapshot
  of the repository holds the file of 32; the other 16 state no lengths here and are not
  expressible. The table has more than six such rows, so the cap applies. Its nominal load is
  one for every row, and what varies is how many cards share it: the load a card carries is
  320 requests over the cards. So, per (model, card, engine), the expressible runs on the fewest
  cards (the largest load per card) and on the most cards (the smallest) are taken, 23 rows;
  a model with one expressible run on a card gives that one.
- The report's three tables of vLLM 0.5.4 against 0.6.0 are left out: they name neither the
  card nor the lengths (ShareGPT, 5,000 requests, no run file named), and 0.6.0 with ten
  scheduler steps is multi-step scheduling, which the rule excludes.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase

FOUND: list[PublishedCase] = []
"""The cases found in the second round of issue 37's item 5, in key order."""
