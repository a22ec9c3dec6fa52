"""A network stream that cannot be opened is reported with what happened, at the command line and in a
source's status, instead of FFmpeg's "no video stream in it".

Every server is real and on loopback: a port nothing listens on (refused), Python's http.server answering
404 for a file it does not have, GStreamer's RTSP server (Tests/Python/rtsp_server.py) asked for a path
it does not serve (RTSP 404, RFC 2326 §7.1.1), and a socket that accepts and never answers. The truth is
what each server was made to do. Every wait is bounded; nothing here is random.
"""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from test_service_attacks import HOST
from test_sources import RTSPServer, add, media, service, source, wait_for  # noqa: F401 (media: a fixture)
from test_web_page import BINARY, MEDIA, free_port


def has_rtsp_server() -> bool:
    return subprocess.run(["/usr/bin/python3", "-c", "import gi; gi.require_version('GstRtspServer', '1.0')"],
                          capture_output=True).returncode == 0


def started_camera() -> RTSPServer:
    """GStreamer's RTSP server serving zidane.jpg, started; the test is skipped where it is not installed."""
    if not has_rtsp_server():
        pytest.skip("GStreamer's RTSP server is not installed: scripts/install-system-packages.sh --tests")
    camera = RTSPServer(free_port(), MEDIA / "zidane.jpg")
    camera.start()
    return camera


def open_error(url: str, timeout: float = 90) -> str:
    """What `swiftvision labels URL` says on standard error within `timeout` seconds (and as much processor
    time, under prlimit); it must fail with status 1 and one line."""
    limit = ["prlimit", f"--cpu={int(timeout)}"]
    run = subprocess.run(limit + [str(BINARY), "labels", url], capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 1, (run.returncode, run.stdout, run.stderr)
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "FFmpeg" not in run.stderr, run.stderr
    return lines[0]


class NotFoundServer:
    """Python's http.server answering every GET with 404."""

    def __enter__(self):
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                self.send_error(404)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((HOST, 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self.server.server_address[1]

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def test_the_command_line_says_why_a_stream_does_not_open():
    closed = free_port()
    url = f"rtsp://{HOST}:{closed}/camera"
    assert open_error(url) == f"{url}: cannot open the video: the connection to {HOST}:{closed} was refused: nothing listens there"
    with NotFoundServer() as port:
        url = f"http://{HOST}:{port}/clip.mp4"
        assert open_error(url) == f"{url}: cannot open the video: the server answers 404 not found"
    camera = started_camera()
    try:
        url = f"rtsp://{HOST}:{camera.port}/nothing"
        assert open_error(url) == f"{url}: cannot open the video: the server answers 404 not found"
    finally:
        camera.stop()


def silence_in(message: str, opening: str, port: int) -> int:
    """The seconds that `message`, `opening` then "the server at HOST:PORT did not answer within N s", says
    the silent server at `port` was waited on."""
    said = re.fullmatch(re.escape(f"{opening}the server at {HOST}:{port} did not answer within ") + r"(\d+) s", message)
    assert said, message
    return int(said.group(1))


def test_a_silent_server_is_given_up_within_the_open_time_out():
    # A socket that accepts (the kernel completes the handshake) and never answers: FFmpeg's open is stopped
    # after VideoReader.openTimeout (10 s; OpenCV's own 30 s came first before, then the diagnosis's 5 s:
    # 36 s), and the diagnosis says the server did not answer, waiting for its own request only what is
    # left of the time-out, at least 1 s (before, 5 s more: 16.0-16.5 s in all, and "within 5 s"). The
    # message gives the whole wait, open and diagnosis. Only a generous bound is asserted: under 15 s, the
    # open and the old diagnosis's 5 s, which the old code cannot beat; 30 s at most, 3x the time-out.
    silent = socket.socket()
    silent.bind((HOST, 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    try:
        for url in (f"rtsp://{HOST}:{port}/camera", f"http://{HOST}:{port}/camera.mjpg"):
            started = time.monotonic()
            message = open_error(url, timeout=30)
            took = time.monotonic() - started
            print(f"{url}: {took:.1f} s")
            assert 11 <= silence_in(message, f"{url}: cannot open the video: ", port) <= took, message
            assert took < 15, took
    finally:
        silent.close()


# Run inside a network namespace of its own: a name server on 127.0.0.1:53 that reads every query and answers
# none, then `labels` on a stream of a host it is asked about, timed; prints the command's status, standard
# error and seconds as JSON.
SILENT_NAME_SERVER = """
import json, socket, subprocess, sys, threading, time
server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
server.bind(("127.0.0.1", 53))
threading.Thread(target=lambda: [server.recvfrom(4096) for _ in iter(int, 1)], daemon=True).start()
started = time.monotonic()
run = subprocess.run([sys.argv[1], "labels", sys.argv[2]], capture_output=True, text=True, timeout=120)
print(json.dumps({"status": run.returncode, "errors": run.stderr, "seconds": time.monotonic() - started}))
"""


def test_the_lookup_of_a_silent_name_server_is_given_up_within_the_open_time_out(tmp_path):
    # The name server is real, and silent: the command runs in a network and mount namespace of its own
    # (`unshare`, as root), whose /etc/resolv.conf (bind-mounted over the machine's there only) names it with
    # an 8 s time-out and one try. FFmpeg's own lookup cannot be cut short and takes those 8 s; the diagnosis
    # looks the name up again and waits what is left of the open's 10 s, 2 s (before, the C resolver's 8 s
    # again, 16 s in all, and "the host is not found"). Bound: under 14 s, which the old code cannot beat.
    if os.geteuid() != 0:
        pytest.skip("a network and mount namespace of the test's own needs root")
    if subprocess.run(["unshare", "--net", "--mount", "true"], capture_output=True, timeout=30).returncode != 0:
        pytest.skip("this machine refuses a network and mount namespace (unshare --net --mount)")
    resolv = tmp_path / "resolv.conf"
    resolv.write_text("nameserver 127.0.0.1\noptions timeout:8 attempts:1\n")
    inside = tmp_path / "silent_name_server.py"
    inside.write_text(SILENT_NAME_SERVER)
    url = "http://camera.invalid:8080/stream"
    run = subprocess.run(["unshare", "--net", "--mount", "sh", "-c",
                          f'ip link set lo up && mount --bind "{resolv}" /etc/resolv.conf && exec "$0" "$@"',
                          sys.executable, str(inside), str(BINARY), url], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    print(f"{url}: {result['seconds']:.1f} s")
    said = re.fullmatch(re.escape(f"{url}: cannot open the video: the host name camera.invalid was not resolved within ")
                        + r"(\d+) s: the name server is slow or silent\n", result["errors"])
    assert result["status"] == 1 and said, result
    assert 8 <= result["seconds"] < 14 and 9 <= int(said.group(1)) <= result["seconds"] + 1, result


def test_a_source_status_says_why_its_stream_does_not_open(tmp_path, media):  # noqa: F811 (the fixture)
    closed = free_port()
    silent = socket.socket()
    silent.bind((HOST, 0))
    silent.listen(8)  # accepts (the kernel completes the handshake) and never answers
    quiet = f"rtsp://{HOST}:{silent.getsockname()[1]}/camera"
    cases = {f"rtsp://admin:hunter2@{HOST}:{closed}/camera": f"the connection to {HOST}:{closed} was refused: nothing listens there",
             quiet: None}
    camera = None
    if has_rtsp_server():
        port = free_port()
        camera = RTSPServer(port, MEDIA / "zidane.jpg")
        camera.start()
        cases[f"rtsp://{HOST}:{port}/nothing"] = "the server answers 404 not found"
    try:
        with service(tmp_path, media) as (server, _):
            idents = {add(server, {"url": url, "task": "objects"}): (url, reason) for url, reason in cases.items()}
            for ident, (url, reason) in idents.items():
                wait_for(lambda: source(server, ident).get("lastError") is not None, 40, lambda: source(server, ident))
                state = source(server, ident)
                shown = url.replace("hunter2", "***")
                if reason is None:
                    # The server's sources give up after their own 5 s socket time-out; the diagnosis then
                    # waits what is left of the open's 10 s: the message gives the whole wait.
                    assert 5 <= silence_in(state["lastError"], f"cannot open video {shown}: ", silent.getsockname()[1]) <= 11, state
                else:
                    assert state["lastError"] == f"cannot open video {shown}: {reason}", state
                assert state["state"] in ("reconnecting", "starting") and "hunter2" not in json.dumps(state), state
    finally:
        silent.close()
        if camera:
            camera.stop()
