"""The prefix cache in one place: sessions, routing, prefix blocks, tiers and the LRU rule.

One session model (:mod:`core.cache.sessions`, the session knobs), one LRU survival rule
(:mod:`core.cache.lru`) and one hit-rate derivation (:mod:`core.cache.hit_rate`), from which
the fleet's derived hit rate (:mod:`core.cache.fleet`, routed by :mod:`core.cache.routing`),
one session's turn table (:mod:`core.cache.session_table`) and the offloaded share
(:func:`core.cache.tiers.offloaded_hits`) all follow. The prefix lab's block arithmetic is
:mod:`core.cache.prefix`.
"""
