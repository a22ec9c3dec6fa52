"""A video file read over HTTP is timed as the file states, as the same file on disk is, not by when its
frames arrived (README: inputs may be `http://` URLs).

The file is written by Debian's `ffmpeg` (30 frames of its test pattern at 25 frames a second, H.264 with
B-frames) and served by Python's http.server on loopback; the truth is ffprobe's `pts_time` of each frame.
"""
from __future__ import annotations

import json
import math
import subprocess
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

from test_service_attacks import HOST
from test_web_page import BINARY


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_a_video_file_over_http_is_timed_as_the_file_states(tmp_path):
    clip = tmp_path / "clip.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-frames:v", "30",
                    "-c:v", "libx264", "-bf", "2", str(clip)], check=True)
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time", "-of", "json",
                            str(clip)], check=True, capture_output=True, text=True)
    times = [float(frame["pts_time"]) for frame in json.loads(probe.stdout)["frames"]]
    expected = [math.floor((time - times[0]) * 1000 + 0.5) for time in times]
    server = ThreadingHTTPServer((HOST, 0), partial(QuietHandler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://{HOST}:{server.server_address[1]}/clip.mp4"
        for source in (url, str(clip)):
            run = subprocess.run([str(BINARY), "barcodes", "--json", source], capture_output=True, text=True, timeout=120)
            assert run.returncode == 0, run.stderr
            lines = [json.loads(line) for line in run.stdout.splitlines()]
            assert [line["frame"] for line in lines] == list(range(30)), source
            assert [line["timestampMs"] for line in lines] == expected, (source, [line["timestampMs"] for line in lines])
    finally:
        server.shutdown()
        server.server_close()
