"""Measure ai-edge-litert invoke latency of the built models.

    $CACHE/tools-venv/bin/python -m modelzoo.benchmark [--models DIR] [--runs N]

Prints a Markdown table: median and 90th-percentile invoke time of each model-zoo model for
1 and 2 threads (XNNPACK, the default CPU delegate), after a warm-up.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np


def bench(path: str, threads: int, runs: int, warmup: int = 3):
    from ai_edge_litert.interpreter import Interpreter

    t0 = time.perf_counter()
    it = Interpreter(model_path=path, num_threads=threads)
    it.allocate_tensors()
    load_ms = (time.perf_counter() - t0) * 1e3
    inp = it.get_input_details()[0]
    x = np.random.default_rng(0).random(inp["shape"], dtype=np.float32)
    it.set_tensor(inp["index"], x)
    for _ in range(warmup):
        it.invoke()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        it.invoke()
        times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    return load_ms, statistics.median(times), times[int(0.9 * (len(times) - 1))]


def main(argv=None) -> int:
    cache = os.environ.get("SWIFTVISION_CACHE", os.path.expanduser("~/.cache/swiftvision"))
    p = argparse.ArgumentParser(prog="python -m modelzoo.benchmark")
    p.add_argument("--models", default=os.path.join(cache, "models"))
    p.add_argument("--runs", type=int, default=30)
    args = p.parse_args(argv)
    print("| model | size (bytes) | threads | load+allocate ms | median invoke ms | p90 invoke ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    from .build import MODEL_NAMES

    for name in sorted(f"{n}.tflite" for n in MODEL_NAMES):
        path = os.path.join(args.models, name)
        for threads in (1, 2):
            load_ms, med, p90 = bench(path, threads, args.runs)
            print(f"| {name} | {os.path.getsize(path)} | {threads} | {load_ms:.0f} | {med:.1f} | {p90:.1f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
