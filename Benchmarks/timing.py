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


def peak_mib():
    """This process's peak resident memory (VmHWM) in MiB. Unlike ru_maxrss, which Linux carries over
    from the parent through fork and exec, it counts only what this program touched."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0
