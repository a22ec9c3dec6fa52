"""Admission under load, against the real server on loopback: a bounded queue, fair between clients.

`swiftvision serve` runs with one inference slot and a short queue (`--max-concurrent 1
--max-queue 3`). One client (127.0.0.1) floods it from 12 connections while another (127.0.0.2, a
second loopback address, which the server counts as another client) sends requests one at a time:
the second client's requests must all be admitted and answered within a bounded time, where a
first-come queue that the flood keeps full would answer them 503. Past the queue a request is refused
at once with 503 and `Retry-After`, and the waits of the admitted ones do not grow with the flood.
Every request loop is bounded in count and time; nothing here is random.
"""
from __future__ import annotations

import statistics
import threading
import time

import pytest

from test_service_attacks import Server, exchange
from test_web_page import HOST, MEDIA

PHOTO = (MEDIA / "zidane.jpg").read_bytes()
QUEUE = 3


def post(port: int, source: str, time_limit: float = 20.0) -> tuple[int | None, dict, float]:
    """POSTs the photo to /v1/labels from the loopback address `source`; (status, headers, seconds)."""
    head = (f"POST /v1/labels HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: image/jpeg\r\n"
            f"Content-Length: {len(PHOTO)}\r\nConnection: close\r\n\r\n").encode()
    status, headers, _, seconds = exchange(port, head + PHOTO, time_limit, source)
    return status, headers, seconds


class Flood:
    """`connections` threads posting from `source` back to back until stopped (at most `seconds`)."""

    def __init__(self, port: int, source: str, connections: int, seconds: float = 30.0):
        self.answers: list[tuple[int | None, dict, float]] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.deadline = time.monotonic() + seconds
        self.threads = [threading.Thread(target=self.loop, args=(port, source)) for _ in range(connections)]

    def loop(self, port: int, source: str) -> None:
        while not self.stopping.is_set() and time.monotonic() < self.deadline:
            try:
                answer = post(port, source)
            except OSError:
                answer = (None, {}, 0.0)
            with self.lock:
                self.answers.append(answer)

    def __enter__(self) -> "Flood":
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)


@pytest.fixture(scope="module")
def server():
    server = Server("--max-concurrent", "1", "--max-queue", str(QUEUE), "--request-timeout", "30")
    yield server
    server.close()


def alone(port: int) -> float:
    """The median seconds of one request with the service otherwise idle (after a warm-up)."""
    times = []
    for _ in range(4):
        status, headers, seconds = post(port, HOST)
        assert status == 200, f"an idle service answered {status}"
        times.append(seconds)
    return statistics.median(times[1:])


def test_one_client_flooding_does_not_starve_another(server):
    single = alone(server.port)
    with Flood(server.port, HOST, connections=12) as flood:
        time.sleep(1.0)
        others = [post(server.port, "127.0.0.2") for _ in range(6)]
    statuses = [status for status, _, _ in others]
    assert statuses == [200] * len(others), f"the second client was answered {statuses} while the first flooded"
    # Round robin: the second client waits for the inference running and its own, not for the flood's queue.
    bound = 4 * single + 1.0
    slowest = max(seconds for _, _, seconds in others)
    assert slowest <= bound, f"the second client waited {slowest:.2f} s (alone {single:.2f} s; bound {bound:.2f} s)"
    flooded = [status for status, _, _ in flood.answers]
    assert 503 in flooded, "the flood never filled the queue: the test did not load the service"


def test_past_the_queue_503_with_retry_after_and_no_growing_wait(server):
    single = alone(server.port)
    with Flood(server.port, HOST, connections=16, seconds=8.0) as flood:
        time.sleep(6.0)
    answers = list(flood.answers)
    assert answers, "the flood sent nothing"
    refused = [(headers, seconds) for status, headers, seconds in answers if status == 503]
    served = [seconds for status, _, seconds in answers if status == 200]
    others = {status for status, _, _ in answers} - {200, 503}
    assert not others, f"statuses other than 200 and 503: {others}"
    assert refused and served, f"{len(served)} answered and {len(refused)} refused: the queue never filled"
    assert all(headers.get("retry-after") for headers, _ in refused), "a 503 without Retry-After"
    # Refused at once, never after a wait.
    assert max(seconds for _, seconds in refused) < 1.0 + single
    # An admitted request waits for at most the queue ahead of it and the one running: never longer as the flood goes on.
    bound = (QUEUE + 2) * single * 2 + 1.0
    assert max(served) <= bound, f"an admitted request took {max(served):.2f} s (alone {single:.2f} s; bound {bound:.2f} s)"
    half = len(served) // 2
    if half >= 3:
        assert statistics.median(served[half:]) <= 2 * statistics.median(served[:half]) + 0.2


def test_an_answer_says_where_its_time_went(server):
    status, headers, seconds = post(server.port, HOST)
    assert status == 200
    stages = dict(part.strip().split(";dur=") for part in headers["server-timing"].split(","))
    assert set(stages) == {"queue", "decode", "inference", "encode"}
    spent = sum(float(value) for value in stages.values()) / 1000
    assert 0 < float(stages["inference"]) and spent <= seconds
