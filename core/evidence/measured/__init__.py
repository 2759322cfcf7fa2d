"""Measurements a student brings: benchmark results files read, matched and explained."""
