"""The engine level: the physical terms a real serving engine pays, one node and the pool priced with them,
and the serving modes (chunked prefill, prefill/decode disaggregation) in closed form."""
