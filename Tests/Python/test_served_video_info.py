"""`swiftvision info` on an MP4 or MOV served over http:// reads the file's own sample tables, with range
requests for its movie box, as it does for the file on disk: before, FFmpeg's count and average rate gave a
variable-rate MP4 2.3 s instead of its 2.434 s, and a MOV no turn.

The files come from Debian's `ffmpeg` (Tests/Python/Reference/video_timing.py) and the truth is what the
same command says of the same file on disk (which VideoTimingTests and CommandLineTests check against
ffprobe). The servers are real, on loopback, written here with Python's standard library: one that answers
single byte ranges (RFC 9110 §14) and redirects, one that ignores ranges as Python's http.server does, and
a hostile one whose ranges claim a file of 2⁶² bytes with a movie box of 2⁶¹, which must be refused without
allocating for it (the command runs under prlimit with 4 GB of address space). Nothing is random.
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

FILES = ["vfr.mp4", "vfr.mov", "turned.mp4"]


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
    "looping" (a redirect to itself) or "chattering" (a header of 100,000 fields, 7 MB).
    `/moved/NAME` redirects (302) to `/NAME`."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):  # noqa: N802 (http.server's name)
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
        assert all(line["format"] == "http" for line in served)
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
