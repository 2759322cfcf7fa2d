"""Serving the labs: the Panel server, the class password, latency probes, workers and first pages."""
