"""Timing shared by the Python peers of swiftvision-bench."""

import json
import sys
import time


# The settings swiftvision-bench pins on both sides; the peers set them before their first call.
WARM_UP = 1


def pin_threads():
    """One thread for OpenCV's parallel loops (OMP_THREAD_LIMIT=1 comes from the environment the bench
    sets); returns OpenCV's thread count now in use."""
    import cv2

    cv2.setNumThreads(1)
    return cv2.getNumThreads()


def quantile(samples, fraction):
    """The `fraction` quantile of `samples`, linearly interpolated between the closest ranks (NumPy's
    default, R's type 7); swiftvision-bench's `Timing` uses the same definition."""
    ordered = sorted(samples)
    position = (len(ordered) - 1) * fraction
    lower = int(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (position - lower) * (ordered[upper] - ordered[lower])


def samples_ms(body, iterations):
    """Wall times of `iterations` calls of `body` in milliseconds, after WARM_UP calls left out."""
    for _ in range(WARM_UP):
        body()
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        body()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def median_ms(body, iterations):
    """Median wall time of `iterations` calls of `body` in milliseconds, after WARM_UP calls."""
    return quantile(samples_ms(body, iterations), 0.5)


def timed_ms(call, *arguments):
    """The wall time in milliseconds of one `call(*arguments)`, and what it returned."""
    start = time.perf_counter()
    result = call(*arguments)
    return (time.perf_counter() - start) * 1000, result


def serve(greeting, answer):
    """Lets swiftvision-bench alternate its runs with this peer's one by one (its `PeerSession`): prints
    `greeting` as a JSON line, then for each line of standard input, "KIND ARGUMENT", prints
    `answer(KIND, ARGUMENT)` as a JSON line with "peak_mib" (this process's peak so far) added, until the
    end of its input. `answer` times one call (timed_ms) and says what it found."""
    print(json.dumps(greeting), flush=True)
    for line in sys.stdin:
        kind, _, argument = line.rstrip("\n").partition(" ")
        print(json.dumps({**answer(kind, argument), "peak_mib": peak_mib()}), flush=True)


def peak_mib():
    """This process's peak resident memory (VmHWM) in MiB. Unlike ru_maxrss, which Linux carries over
    from the parent through fork and exec, it counts only what this program touched."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def read_rgb_frames(video):
    """Every frame of `video`, decoded by OpenCV and converted to RGB."""
    import cv2

    capture = cv2.VideoCapture(video)
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            return frames
        frames.append(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB))


def live_stream(send, seconds, period, sent_at, delivered, extra=None):
    """Calls `send(index)` every `period` seconds for `seconds`, noting each call's start in `sent_at`
    (the result callback appends its latency to `delivered`); prints a progress line every 25 calls and
    a final summary line, with `extra()`'s fields added."""
    calls = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        before = time.perf_counter()
        sent_at.append(before)
        send(len(calls))
        calls.append((time.perf_counter() - before) * 1000)
        if len(calls) % 25 == 0:
            print(json.dumps({"sent": len(calls), "delivered": len(delivered), "call_ms_max": max(calls)}), flush=True)
        time.sleep(period)
    elapsed = time.perf_counter() - start
    time.sleep(0.5)
    summary = {"sent": len(calls), "delivered": len(delivered), "seconds": elapsed,
               "call_ms_median": quantile(calls, 0.5), "call_ms_max": max(calls),
               "latency_ms_median": quantile(delivered, 0.5), "latency_ms_max": max(delivered), "done": True}
    summary.update(extra() if extra else {})
    print(json.dumps(summary), flush=True)


def stream_median_ms(process, frames, warm_up=5):
    """Median wall time in milliseconds of `process` on each frame in order, leaving out the first `warm_up`."""
    samples = []
    for frame in frames:
        start = time.perf_counter()
        process(frame)
        samples.append((time.perf_counter() - start) * 1000)
    return quantile(samples[warm_up:], 0.5)
