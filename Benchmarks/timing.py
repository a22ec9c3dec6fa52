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


def rgb_frames(video):
    """Every frame of the video file `video`, as RGB arrays."""
    import cv2

    capture = cv2.VideoCapture(video)
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            return frames
        frames.append(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB))


def stream_median_ms(process, frames, warm_up=5):
    """Median wall time in milliseconds of `process` on each frame in order, leaving out the first `warm_up`."""
    samples = []
    for frame in frames:
        start = time.perf_counter()
        process(frame)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples[warm_up:])
