"""The walkthrough's arithmetic: the scenario's knobs, memory, time, queueing, prefix, attention, experts, the result."""
