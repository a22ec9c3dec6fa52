"""A video file read over HTTP is timed as the file states, as the same file on disk is, not by when its
frames arrived (README: inputs may be `http://` URLs); a live stream by when they arrived, from the first,
and its drawing keeps those times.

The file is written by Debian's `ffmpeg` (30 frames of its test pattern at 25 frames a second, H.264 with
B-frames) and served by Python's http.server on loopback; the truth is ffprobe's `pts_time` of each frame.
"""
from __future__ import annotations

import json
import math
import signal
import subprocess
import threading
import time
from fractions import Fraction
from functools import partial
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer

from test_service_attacks import HOST
from test_stream_errors import started_camera
from test_web_page import BINARY, MEDIA


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


def test_a_live_stream_is_timed_from_its_first_frame():
    # GStreamer's RTSP server (rtsp_server.py) sends a photo as live MJPEG at 10 frames a second. A live
    # source's frames are timed by arrival from the first frame's, which is 0 as a file's first frame is (and
    # as ffprobe's first pts_time of the stream is); the time FFmpeg took to open the stream (some 3 s here,
    # which the first frame's time was) is not counted.
    camera = started_camera()
    try:
        run = subprocess.Popen([str(BINARY), "barcodes", "--json", f"rtsp://{HOST}:{camera.port}/camera"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        try:
            lines = [run.stdout.readline() for _ in range(5)]  # the reader's 10 s time-out ends a silent stream
        finally:
            run.terminate()
            run.communicate(timeout=30)
    finally:
        camera.stop()
    times = [json.loads(line)["timestampMs"] for line in lines]
    assert times[0] == 0 and times == sorted(set(times)), times


class CameraHandler(BaseHTTPRequestHandler):
    """A camera's MJPEG over HTTP (multipart/x-mixed-replace, no length): zidane.jpg every 200 ms, 5 a second."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        photo = (MEDIA / "zidane.jpg").read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        try:
            for _ in range(100):
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n%s\r\n" % (len(photo), photo))
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:
            pass

    def log_message(self, *args):
        pass


def test_a_live_streams_drawing_keeps_its_frames_times(tmp_path):
    # FFmpeg announces such a stream at 25 frames a second, its guess (ffprobe's r_frame_rate 25/1, no
    # average); the frames come 5 a second. The drawing, written at 25, repeats each frame until the next is
    # due by its arrival time, as a variable-rate file's is: it lasts as long as the frames it shows, where each
    # frame once (the old drawing) played the stream five times too fast.
    server = ThreadingHTTPServer((HOST, 0), CameraHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    drawn = tmp_path / "drawn.mp4"
    try:
        run = subprocess.Popen([str(BINARY), "barcodes", "--json", "--draw", str(drawn), f"http://{HOST}:{server.server_address[1]}/cam"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            lines = [json.loads(run.stdout.readline()) for _ in range(10)]
        finally:
            run.send_signal(signal.SIGINT)
            run.communicate(timeout=30)
    finally:
        server.shutdown()
        server.server_close()
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,r_frame_rate", "-of", "json",
                            str(drawn)], check=True, capture_output=True, text=True)
    stream = json.loads(probe.stdout)["streams"][0]
    rate = Fraction(stream["r_frame_rate"])
    # Every frame printed was drawn (Ctrl-C stops after the frame in hand), each at its time at the drawing's rate.
    last = max(line["timestampMs"] for line in lines)
    assert int(stream["nb_read_frames"]) >= round(last * rate / 1000) + 1, (stream, [line["timestampMs"] for line in lines])
