"""Timing shared by the Python peers of swiftvision-bench."""

import statistics
import time


def median_ms(body, iterations):
    """Median wall time of `iterations` calls of `body` in milliseconds, after one warm-up call."""
    body()
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        body()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)
