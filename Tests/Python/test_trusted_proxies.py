"""Clients behind a trusted reverse proxy, against the real server on loopback.

`swiftvision serve --trusted-proxy 127.0.0.1/32` takes 127.0.0.1 for a reverse proxy: a request from it
counts as the client its `X-Forwarded-For` names (the nearest entry that is not a trusted proxy), which
the access log shows and the admission queue's fairness uses. A request from an address that is not
trusted (127.0.0.2, another loopback address), or with an entry that is not a plain address, counts as
the connection's own address. The same flood as test_service_admission.py's, sent through the "proxy"
for one forwarded client, must not starve another forwarded client. Bounded in count and time; nothing
is random.
"""
from __future__ import annotations

import subprocess
import threading
import time

import pytest

from test_service_admission import PHOTO, QUEUE
from test_service_attacks import Server, exchange
from test_web_page import BINARY, HOST


def post(port: int, forwarded_for: str | None, source: str = HOST, time_limit: float = 20.0) -> tuple[int | None, float]:
    """POSTs the photo to /v1/labels from `source`, with `X-Forwarded-For: forwarded_for` if given."""
    header = f"X-Forwarded-For: {forwarded_for}\r\n" if forwarded_for is not None else ""
    head = (f"POST /v1/labels HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: image/jpeg\r\n{header}"
            f"Content-Length: {len(PHOTO)}\r\nConnection: close\r\n\r\n").encode()
    status, _, _, seconds = exchange(port, head + PHOTO, time_limit, source)
    return status, seconds


@pytest.fixture(scope="module")
def server():
    server = Server("--max-concurrent", "1", "--max-queue", str(QUEUE), "--request-timeout", "30",
                    "--trusted-proxy", "127.0.0.1/32")
    yield server
    server.close()


def logged_clients(server: Server) -> list[str]:
    """The `client=` of every /v1/labels line of the server's access log, in order."""
    lines = server.log.read_text(errors="replace").splitlines()
    return [field.removeprefix("client=") for line in lines if "path=/v1/labels" in line
            for field in line.split() if field.startswith("client=")]


def test_the_forwarded_client_is_believed_only_from_a_trusted_proxy(server):
    cases = [
        (HOST, "203.0.113.9", "203.0.113.9"),
        (HOST, "198.51.100.1, 127.0.0.1", "198.51.100.1"),  # the proxy's own hop is skipped
        (HOST, "192.0.2.1, 198.51.100.7", "198.51.100.7"),  # the nearest untrusted entry, not a spoofed first one
        (HOST, "2001:db8::1", "2001:db8::1"),
        (HOST, "198.51.100.1:4711", "127.0.0.1"),  # not a plain address: nothing beyond it is believed
        (HOST, "not an address", "127.0.0.1"),
        (HOST, None, "127.0.0.1"),
        ("127.0.0.2", "203.0.113.9", "127.0.0.2"),  # not a trusted proxy: the header is ignored
    ]
    before = len(logged_clients(server))
    for source, forwarded_for, _ in cases:
        status, _ = post(server.port, forwarded_for, source)
        assert status == 200, f"{forwarded_for!r} from {source} was answered {status}"
    deadline = time.monotonic() + 5
    while len(logged_clients(server)) < before + len(cases) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert logged_clients(server)[before:] == [expected for _, _, expected in cases]


def test_a_flooding_client_behind_the_proxy_does_not_starve_another(server):
    answers: list[int | None] = []
    lock = threading.Lock()
    stopping = threading.Event()
    deadline = time.monotonic() + 30

    def flood() -> None:
        while not stopping.is_set() and time.monotonic() < deadline:
            try:
                status, _ = post(server.port, "198.51.100.1")
            except OSError:
                status = None
            with lock:
                answers.append(status)

    threads = [threading.Thread(target=flood) for _ in range(12)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(1.0)
        others = [post(server.port, "198.51.100.2") for _ in range(6)]
    finally:
        stopping.set()
        for thread in threads:
            thread.join(timeout=30)
    assert [status for status, _ in others] == [200] * len(others), \
        f"the second forwarded client was answered {others} while the first flooded through the same proxy"
    assert 503 in answers, "the flood never filled the queue: the test did not load the service"


@pytest.mark.parametrize("network", ["10.0.0.0/33", "::1/129", "10.0.0.0/", "example.com", "10.0.0.0/8/8", ""])
def test_a_bad_network_is_refused_with_a_clear_error(network):
    done = subprocess.run([str(BINARY), "serve", "--port", "0", "--trusted-proxy", network],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "trusted-proxy" in done.stderr and "Traceback" not in done.stderr, done.stderr
