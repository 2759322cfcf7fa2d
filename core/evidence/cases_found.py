"""Published measurements from publishers the first two sets did not have (issue 37, item 5).

Each case names the public page or repository file it came from, quotes its row and says what
it assumes; the cases are appended to the second development set
(:data:`core.evidence.cases_2026.SECOND`), keys D34 onward, and typed as its cases are.

How rows were taken, written down before the engine level was evaluated on any of them:

- A source is a page or file whose publisher is not yet in
  :data:`core.evidence.publishers.PUBLISHERS`. AMD's ROCm blogs (rocm.blogs.amd.com) count as
  a publisher of their own, apart from the ROCm performance-results page: other authors, other
  load generators and set-ups.
- From a source, every row of a table (or every run its text states) is taken that the Scenario
  can express: a catalog model or a config.json to paste; a catalog card, one node, prefill and
  decode on the same cards; vLLM, SGLang or TensorRT-LLM with the version stated or datable;
  prompt and answer lengths stated (fixed, or the run's own means); the load as concurrent
  users, every request at once or a request rate; output throughput, time to first token, time
  between tokens or one request's time; weights in a catalog format; no speculative decoding,
  no shared-prefix workload, no LoRA.
- Where one run gives several figures: output throughput under heavy load, time between tokens
  and time to first token at light load, as the table gives them.
- Where one table yields more than six such rows, the rows at the smallest and the largest load
  of each (model, card, engine) are taken, chosen from the table alone.
- No row is chosen, dropped or retyped after its prediction is seen; ``scored=False`` only for a
  reason that is not the model's error, stated on the case.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase

FOUND: list[PublishedCase] = []
"""The cases found for issue 37's item 5, in key order."""
