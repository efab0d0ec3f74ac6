"""Benchmarks: run each as `python -m benchmarks.NAME` from the repository root."""
