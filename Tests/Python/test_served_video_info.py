"""`swiftvision info` on an MP4 or MOV served over http:// reads the file's own sample tables, with range
requests for its movie box, and on a Matroska or WebM file its blocks and projection, with range requests
for its element headers, as it does for the file on disk: before, FFmpeg's count and average rate gave a
variable-rate MP4 2.3 s instead of its 2.434 s, a MOV no turn, and Matroska FFmpeg's estimate (118 frames of
bframes.mkv's 73).

The files come from Debian's `ffmpeg`, the turned Matroska and WebM ones from FFmpeg 9
(Tests/Python/Reference/video_timing.py), and the truth is what the same command says of the same file on
disk (which VideoTimingTests and CommandLineTests check against ffprobe). The servers are real, on loopback, written here with Python's standard library: one that answers
single byte ranges (RFC 9110 §14) and redirects, one that ignores ranges as Python's http.server does, and
a hostile one whose ranges claim a file of 2⁶² bytes with a movie box of 2⁶¹, which must be refused without
allocating for it (the command runs under prlimit with 4 GB of address space), and one that answers the
reader's ranges after the first 128 bytes at a time, so that a walk over a Matroska file's blocks would need
more than the 16 requests a reader may make. Each server counts the requests of the reader (user agent
`SwiftVision`; FFmpeg's are its own). Nothing is random.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from test_service_attacks import HOST
from test_web_page import BINARY, ROOT

FILES = ["vfr.mp4", "vfr.mov", "turned.mp4", "vfr.mkv", "bframes.mkv", "turned.mkv", "turned.webm"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    made = tmp_path_factory.mktemp("served")
    subprocess.run([sys.executable, str(ROOT / "Tests/Python/Reference/video_timing.py"), str(made)],
                   check=True, capture_output=True)
    return made


def serving(folder: Path, ranges: str):
    """A server of `folder` on loopback: `ranges` is "honest" (single byte ranges as asked), "ignored" (the
    whole file, 200), or answers a range with an end, as the reader of the tables asks (FFmpeg's open-ended
    ones honestly), "hostile" (a 16-byte box header claiming 2⁶¹ bytes of movie box in a file of 2⁶² bytes),
    "looping" (a redirect to itself), "chattering" (a header of 100,000 fields, 7 MB) or "trickling" (the
    reader's ranges but the first answered with their first 128 bytes, FFmpeg's honestly). `/moved/NAME` redirects (302)
    to `/NAME`. The server's `reader_requests` counts the reader's requests by file name."""
    reader_requests: dict[str, int] = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):  # noqa: N802 (http.server's name)
            reader = self.headers.get("User-Agent") == "SwiftVision"
            if reader:
                name = self.path.rsplit("/", 1)[-1]
                reader_requests[name] = reader_requests.get(name, 0) + 1
            if self.path.startswith("/moved/"):
                self.send_response(302)
                self.send_header("Location", self.path[len("/moved"):])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            path = folder / self.path.lstrip("/")
            if not path.is_file():
                self.send_error(404)
                return
            data = path.read_bytes()
            asked = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
            if asked is None or ranges == "ignored":
                self.send_response(200)
                body = data
            elif ranges == "looping" and asked.group(2):
                self.send_response(302)
                self.send_header("Location", self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            elif ranges == "chattering" and asked.group(2):
                self.send_response(206)
                for index in range(100_000):
                    self.send_header(f"X-Filler-{index}", "x" * 64)
                self.end_headers()
                return
            elif ranges == "hostile" and asked.group(2):
                self.send_response(206)
                body = (1).to_bytes(4, "big") + b"moov" + (1 << 61).to_bytes(8, "big")
                self.send_header("Content-Range", f"bytes 0-15/{1 << 62}")
            else:
                first = int(asked.group(1))
                last = min(int(asked.group(2) or len(data) - 1), len(data) - 1)
                if ranges == "trickling" and reader and first > 0:
                    last = min(last, first + 127)
                if first >= len(data):
                    self.send_error(416)
                    return
                self.send_response(206)
                body = data[first:last + 1]
                self.send_header("Content-Range", f"bytes {first}-{last}/{len(data)}")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Accept-Ranges", "bytes")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer((HOST, 0), Handler)
    server.reader_requests = reader_requests
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def info(*sources: str) -> list[dict]:
    run = subprocess.run(["prlimit", "--as=4000000000", "--cpu=60", str(BINARY), "info", "--json", *sources],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def figures(line: dict) -> dict:
    return {key: line.get(key) for key in ("width", "height", "frames", "framesPerSecond", "duration", "rotation")}


@pytest.mark.parametrize("moved", [False, True])
def test_a_served_mp4_is_described_from_its_sample_tables(folder, moved):
    server = serving(folder, "honest")
    try:
        base = f"http://{HOST}:{server.server_address[1]}/" + ("moved/" if moved else "")
        local = info(*(str(folder / name) for name in FILES))
        served = info(*(base + name for name in FILES))
        assert [figures(line) for line in served] == [figures(line) for line in local], served
        assert served[0]["duration"] == 2.434 and served[1]["rotation"] == 0 and served[2]["rotation"] == 90, served
        assert served[4]["frames"] == 73 and served[5]["rotation"] == 90 and served[6]["rotation"] == 180, served
        assert all(line["format"] == "http" for line in served)
        # At most 16 range requests for each file, besides a redirect.
        limit = 16 + (1 if moved else 0)
        assert all(1 <= server.reader_requests.get(name, 0) <= limit for name in FILES), server.reader_requests
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("ranges", ["ignored", "hostile", "looping", "chattering"])
def test_a_server_without_honest_ranges_leaves_ffmpegs_figures(folder, ranges):
    # Without the tables: FFmpeg's frame count and average rate, their quotient the duration (2.3 s), no turn;
    # redirects and the header are given up on at their bounds (3 redirects, 16 KiB).
    server = serving(folder, ranges)
    try:
        served = info(f"http://{HOST}:{server.server_address[1]}/vfr.mp4")
        assert figures(served[0]) == {"width": 160, "height": 120, "frames": 45, "framesPerSecond": 19.565,
                                      "duration": 2.3, "rotation": None}, served
    finally:
        server.shutdown()
        server.server_close()


def test_a_matroska_walk_stops_at_the_request_limit(folder):
    # bframes.mkv's blocks, 6 KB of them past the first 4 KB, answered 128 bytes at a time, would take some 40
    # requests: the reader stops at its 16th, and the figures are FFmpeg's, as from a server that ignores ranges.
    trickling, ignoring = serving(folder, "trickling"), serving(folder, "ignored")
    try:
        slow = info(f"http://{HOST}:{trickling.server_address[1]}/bframes.mkv")
        plain = info(f"http://{HOST}:{ignoring.server_address[1]}/bframes.mkv")
        assert figures(slow[0]) == figures(plain[0]) and slow[0]["frames"] != 73, (slow, plain)
        assert trickling.reader_requests == {"bframes.mkv": 16}, trickling.reader_requests
    finally:
        for server in (trickling, ignoring):
            server.shutdown()
            server.server_close()
