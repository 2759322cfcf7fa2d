"""A slow, obvious engine with the same rules as core.simulator, one step at a time.

Used only by the tests, to check that the fast engine's event jumps change no token's time.
"""

from __future__ import annotations

import math

# A dense model, and a mixture whose steps read only the experts their tokens touch.
REFERENCE_NODES = [
    {"model": "Llama-2-13B", "gpu": "L40S"},
    {"model": "Mixtral-8x7B", "gpu": "H100 SXM", "cards": 2},
]


def reference_token_times(costs, requests, policy, layout, batch, wait_cap, chunk=0):
    """Every request's token times, simulated step by step with explicit per-seat state.

    ``chunk`` > 0 is chunked prefill: a step holds one token per writing seat and up to the
    rest of ``chunk`` prompt tokens, in admission order, and lasts max(read, arithmetic).
    """
    n = len(requests)
    arrival = requests.arrival_s.tolist()
    prompt = requests.prompt_tokens.tolist()
    answer = requests.answer_tokens.tolist()
    reserve = (requests.prompt_tokens + requests.max_answer_tokens).tolist()
    block = costs.block_tokens
    paged, static = layout == "paged", policy == "static"
    capacity = costs.kv_budget_blocks if paged else costs.kv_budget_tokens
    generated = [0] * n
    tokens: list[list[float]] = [[] for _ in range(n)]
    queue: list[tuple[float, int]] = []
    upcoming, running, t, done = 0, [], 0.0, 0
    left = [0] * n  # prompt tokens still to prefill (chunked)

    def cost(request):
        if paged:
            ahead = 0 if left[request] else 1
            return -(-(prompt[request] + generated[request] + ahead) // block)
        return reserve[request]

    while done < n:
        while upcoming < n and arrival[upcoming] <= t:
            queue.append((arrival[upcoming], upcoming))
            upcoming += 1
        queue.sort()
        while paged and running and sum(cost(r) for r in running) > capacity:
            victim = running.pop()
            left[victim] = 0
            queue.append((arrival[victim], victim))
            queue.sort()
        new = []
        room = capacity - (sum(cost(r) for r in running) if running else 0)
        if static and not running:
            if not queue:
                t = arrival[upcoming]
                continue
            blocked = False
            for _, request in queue[:batch]:
                if cost(request) > room:
                    blocked = True
                    break
                room -= cost(request)
                new.append(request)
            if len(new) < batch and not blocked and t < queue[0][0] + wait_cap:
                later = arrival[upcoming] if upcoming < n else math.inf
                t = min(later, queue[0][0] + wait_cap)
                continue
        elif not static:
            for _, request in queue:
                if len(running) + len(new) >= batch or cost(request) > room:
                    break
                room -= cost(request)
                new.append(request)
            if not running and not new:
                t = max(t, arrival[upcoming])
                continue
        for request in new:
            queue.remove((arrival[request], request))
        if chunk:
            for request in new:
                left[request] = prompt[request] + generated[request]
            running = running + new
            writers = [r for r in running if not left[r]]
            budget, fresh, ready = chunk - len(writers), 0, []
            for request in running:
                if left[request] and budget - fresh > 0:
                    take = min(left[request], budget - fresh)
                    left[request] -= take
                    fresh += take
                    if not left[request]:
                        ready.append(request)
            read = sum(prompt[r] + generated[r] for r in writers)
            step_tokens = len(writers) + fresh  # a mixture reads the experts these tokens touch
            t += max(float(costs.read_s(read, step_tokens)), float(costs.compute_s(step_tokens)))
            for request in writers + ready:
                generated[request] += 1
                tokens[request].append(t)
            done += sum(generated[r] == answer[r] for r in writers + ready)
            running = [r for r in running if left[r] or generated[r] < answer[r]]
            continue
        old_tokens = sum(prompt[r] + generated[r] for r in running)
        step = float(costs.decode_s(len(running), old_tokens)) if running else 0.0
        if new:
            step += float(costs.prefill_s(sum(prompt[r] + generated[r] for r in new)))
        running = running + new
        t += step
        for request in running:
            generated[request] += 1
            tokens[request].append(t)
        done += sum(generated[r] == answer[r] for r in running)
        running = [r for r in running if generated[r] < answer[r]]
    return tokens
