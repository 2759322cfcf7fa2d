"""Traffic: the hour's arrivals, the queue they wait in, goodput, autoscaling and the replay.

One home for how requests arrive and what they see, across floors (each module imports only
what lies below it, ``tests/test_layers.py``):

- below the whiteboard's pool, which reads them: :mod:`~core.traffic.arrivals` (a Poisson
  or bursty stream, a production trace's lengths), :mod:`~core.traffic.queueing` (Erlang C
  and how bursts stretch its wait), :mod:`~core.traffic.goodput` (the one goodput predicate
  and its closed form), :mod:`~core.traffic.autoscale` (the fluid autoscaler);
- above the simulator, which it runs: :mod:`~core.traffic.replay` (the hour served by the
  step engine on the sized pool);
- a study of evaluations: :mod:`~core.traffic.rent_or_autoscale` (the hour's bill and goodput
  renting for the mean, for the peak, or autoscaling).

Nothing is re-exported here, so importing the package never pulls in a floor above the one
asked for.
"""
