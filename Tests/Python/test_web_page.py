"""The web page in a real browser, against the real server.

Starts `.build/debug/swiftvision serve` on a free loopback port and a headless Chromium whose
fake camera plays a .y4m made from a sample photo (a slow pan across zidane.jpg, two faces), opens
`/?task=faces&autostart=1&landmarks=1`, and drives it through the DevTools protocol (a small
WebSocket client written here on the standard library). The page streams the camera's frames over
the live-stream WebSocket and draws the results; the test reads the state the page exposes
(`window.swiftVision`, mirrored in `<pre id="status">`) and asserts that faces with tracking IDs
were drawn on at least 90% of the frames that got results. Screenshots go to out/web-page-*.png.

The other tasks are opened once each on a sample file (or the camera), with a content check and
a screenshot; `track` is seeded by dragging a box on the mirrored preview with real mouse events.

Skipped only when Chromium is not installed (the set-up installs it). Everything binds 127.0.0.1,
every wait has a time limit, and nothing is random.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from make_fake_camera import write_y4m

ROOT = Path(__file__).resolve().parents[2]
# The debug build that `make test` makes; SWIFTVISION_SERVE_BINARY may name another (a release build).
BINARY = Path(os.environ.get("SWIFTVISION_SERVE_BINARY", ROOT / ".build" / "debug" / "swiftvision"))
OUT = ROOT / "out"
CACHE = Path(os.environ.get("SWIFTVISION_CACHE", Path.home() / ".cache" / "swiftvision"))
MEDIA = CACHE / "media"
HOST = "127.0.0.1"

RESULTS_WANTED = 30
FACES_TIME_LIMIT = 90.0
TASK_TIME_LIMIT = 60.0


# ------------------------------------------------------------------------------------------------
# A minimal DevTools-protocol client: RFC 6455 over a plain socket, text frames, client masking.
# ------------------------------------------------------------------------------------------------
def ws_header(first: int, length: int, masked: bool = True) -> bytes:
    """A frame's header: its `first` byte (final bit, reserved bits, opcode), the mask bit and `length`
    in the shortest of RFC 6455's three forms; the masking key, where there is one, follows it."""
    mask = 0x80 if masked else 0
    if length < 126:
        return struct.pack("!BB", first, mask | length)
    if length < 1 << 16:
        return struct.pack("!BBH", first, mask | 126, length)
    return struct.pack("!BBQ", first, mask | 127, length)



class WebSocketClosed(Exception):
    pass


class CDP:
    """One DevTools WebSocket (a page target): `call` sends a command and waits for its answer."""

    GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, url: str, timeout: float = 30.0):
        assert url.startswith("ws://"), url
        hostport, _, path = url[len("ws://"):].partition("/")
        host, _, port = hostport.partition(":")
        assert host in (HOST, "localhost"), f"DevTools must be on loopback, not {host}"
        self.sock = socket.create_connection((HOST, int(port)), timeout=timeout)
        self.rng = random.Random(12)  # masking keys: fixed seed, nothing here is secret
        key = base64.b64encode(hashlib.sha1(b"swiftvision-web-page-test").digest()[:16]).decode()
        request = (
            f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode("ascii"))
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise WebSocketClosed("DevTools closed the connection during the handshake")
            head += chunk
        head, _, self.buffer = head.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        assert " 101 " in lines[0] + " ", f"DevTools refused the WebSocket: {lines[0]}"
        accept = base64.b64encode(hashlib.sha1(key.encode() + self.GUID).digest()).decode()
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        assert headers.get("sec-websocket-accept") == accept, "bad Sec-WebSocket-Accept"
        self.next_id = 0
        self.events: list[dict] = []

    # -- framing
    def _send_frame(self, opcode: int, payload: bytes) -> None:
        mask = bytes(self.rng.getrandbits(8) for _ in range(4))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(ws_header(0x80 | opcode, len(payload)) + mask + masked)

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buffer)))
            if not chunk:
                raise WebSocketClosed("DevTools closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _recv_message(self) -> str:
        parts: list[bytes] = []
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise WebSocketClosed("DevTools sent close")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if b0 & 0x80:
                return b"".join(parts).decode("utf-8")

    # -- protocol
    def call(self, method: str, params: dict | None = None, timeout: float = 30.0) -> dict:
        self.next_id += 1
        msg_id = self.next_id
        self._send_frame(0x1, json.dumps({"id": msg_id, "method": method, "params": params or {}}).encode())
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer to {method} in {timeout} s")
            self.sock.settimeout(left)
            message = json.loads(self._recv_message())
            if message.get("id") == msg_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)
                del self.events[:-500]

    def evaluate(self, expression: str, timeout: float = 30.0):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, timeout)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, time_limit: float, interval: float = 0.25):
        """Polls `expression` until it is truthy; returns its value, or None past the time limit."""
        deadline = time.monotonic() + time_limit
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(interval)
        return None

    def page_errors(self) -> list[str]:
        out = []
        for e in self.events:
            if e["method"] == "Runtime.exceptionThrown":
                d = e["params"]["exceptionDetails"]
                out.append(d.get("exception", {}).get("description") or d.get("text", "?"))
        return out

    def screenshot(self, path: Path) -> Path:
        data = self.call("Page.captureScreenshot", {"format": "png"}, timeout=60)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


# ------------------------------------------------------------------------------------------------
# Processes
# ------------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def http_get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def stop(proc: subprocess.Popen | None) -> None:
    """Ends `proc` and the process group it leads (started with start_new_session)."""
    if proc is None or proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def tail(path: Path, n: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-n:]
    except OSError:
        return ""


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="swiftvision-web-") as d:
        yield Path(d)


@pytest.fixture(scope="module")
def browser_binary() -> str:
    path = chromium_path()
    if not path:
        pytest.skip("chromium is not installed (the set-up installs it: apt-get install chromium)")
    return path


@pytest.fixture(scope="module")
def server(workdir, browser_binary):
    if not BINARY.is_file():
        pytest.fail(f"{BINARY} is missing: build it first (swift build)")
    help_run = subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, timeout=60)
    if help_run.returncode != 0:
        pytest.skip(f"{BINARY.name} has no serve command yet")
    if not (MEDIA / "zidane.jpg").is_file():
        pytest.fail(f"sample photos missing in {MEDIA}: run the project set-up first")
    port = free_port()
    log = workdir / "server.log"
    with open(log, "wb") as f:
        proc = subprocess.Popen(
            [str(BINARY), "serve", "--host", HOST, "--port", str(port)],
            cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the server exited with {proc.returncode}:\n{tail(log)}")
            try:
                if http_get(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"GET /healthz did not answer 200 in 60 s:\n{tail(log)}")
            time.sleep(0.25)
        yield {"base": base, "log": log, "proc": proc}
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def browser(workdir, browser_binary, server):
    camera = write_y4m(MEDIA / "zidane.jpg", workdir / "camera.y4m", frames=90)
    port = free_port()
    log = workdir / "chromium.log"
    profile = workdir / "profile"
    with open(log, "wb") as f:
        proc = subprocess.Popen(
            [browser_binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--mute-audio",
             "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
             f"--use-file-for-fake-video-capture={camera}",
             "--autoplay-policy=no-user-gesture-required",
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             f"--user-data-dir={profile}", f"--remote-debugging-address={HOST}",
             f"--remote-debugging-port={port}", "--window-size=1280,800", "about:blank"],
            stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    cdp = None
    try:
        deadline = time.monotonic() + 60
        target = None
        while target is None:
            if proc.poll() is not None:
                pytest.fail(f"chromium exited with {proc.returncode}:\n{tail(log)}")
            try:
                status, body = http_get(f"http://{HOST}:{port}/json/list")
                if status == 200:
                    target = next((t for t in json.loads(body) if t.get("type") == "page"), None)
            except OSError:
                pass
            if target is None:
                if time.monotonic() > deadline:
                    pytest.fail(f"chromium's DevTools did not list a page in 60 s:\n{tail(log)}")
                time.sleep(0.25)
        cdp = CDP(target["webSocketDebuggerUrl"])
        cdp.call("Page.enable")
        cdp.call("Runtime.enable")
        cdp.call("Emulation.setDeviceMetricsOverride",
                 {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        yield cdp
    finally:
        if cdp is not None:
            cdp.close()
        stop(proc)


def open_page(cdp: CDP, server: dict, query: str) -> None:
    cdp.events.clear()
    cdp.call("Page.navigate", {"url": f"{server['base']}/?{query}"})
    ready = cdp.wait_for("document.readyState === 'complete' && !!window.swiftVision && "
                         "document.querySelectorAll('#task option').length > 0", 30)
    assert ready, f"the page did not load its task list in 30 s; page errors: {cdp.page_errors()}"


def state(cdp: CDP) -> dict:
    return cdp.evaluate("JSON.parse(JSON.stringify(window.swiftVision))")


def overlay_ink(cdp: CDP) -> int:
    """How many pixels of the overlay canvas are drawn on (alpha > 0)."""
    return cdp.evaluate("""(() => {
        const c = document.getElementById('overlay');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()""")


def wait_results(cdp: CDP, server: dict, n: int, time_limit: float) -> dict:
    got = cdp.wait_for(f"window.swiftVision.results >= {n}", time_limit)
    s = state(cdp)
    assert got, (f"only {s['results']} results ({s['framesSent']} frames sent, {s['errors']} errors, "
                 f"last error {s.get('lastError')}) in {time_limit:.0f} s; page errors: {cdp.page_errors()}\n"
                 f"server log:\n{tail(server['log'])}")
    return s


# ------------------------------------------------------------------------------------------------
# Tests
# ------------------------------------------------------------------------------------------------
def test_faces_with_tracking_ids_drawn_on_the_live_camera(browser, server):
    cdp = browser
    open_page(cdp, server, "task=faces&autostart=1&landmarks=1")
    s = wait_results(cdp, server, RESULTS_WANTED, FACES_TIME_LIMIT)
    ink = overlay_ink(cdp)
    shot = cdp.screenshot(OUT / "web-page-faces.png")
    status = cdp.evaluate("""(() => { const p = document.getElementById('status');
        return {results: +p.dataset.results, withFaces: +p.dataset.resultsWithFaces, text: JSON.parse(p.textContent)}; })()""")

    ratio = s["resultsWithFaces"] / s["results"]
    summary = (f"{s['results']} results, {s['resultsWithFaces']} with every face tracked and drawn ({ratio:.0%}), "
               f"{s['facesWithTrackingIDs']} faces with IDs, IDs {s['trackingIDs']}, {s['framesSent']} frames sent, "
               f"{s['dropped']} dropped, {s['errors']} errors, {s['fps']} results/s, latency p50 {s['latencyMs']} ms")
    print(summary)
    assert s["task"] == "faces" and s["source"] == "camera"
    assert s["frameSize"] == {"w": 640, "h": 480}, s["frameSize"]
    assert s["mirrored"] is True, "the user-facing camera should be shown mirrored"
    assert cdp.page_errors() == [], cdp.page_errors()
    assert s["errors"] == 0, f"the stream answered errors: {s['lastError']}"
    assert ratio >= 0.9, summary
    assert s["facesWithTrackingIDs"] > 0 and s["trackingIDs"], summary
    last_faces = s["lastResult"].get("faces", [])
    assert last_faces and all("landmarks" in f and "contours" in f for f in last_faces), "landmarks=1 should give landmarks and contours"
    assert s["framesSent"] >= s["results"] + s["errors"] and s["dropped"] >= 0
    assert s["fps"] > 0 and s["latencyMs"] is not None and s["latencyMs"] > 0
    assert ink > 1000, f"the overlay is (nearly) empty: {ink} pixels drawn"
    assert status["results"] >= RESULTS_WANTED and status["withFaces"] <= status["results"]
    assert status["text"]["task"] == "faces"
    assert shot.stat().st_size > 10_000


def open_file(cdp: CDP, path: Path) -> None:
    root = cdp.call("DOM.getDocument")["root"]["nodeId"]
    node = cdp.call("DOM.querySelector", {"nodeId": root, "selector": "#file-input"})["nodeId"]
    cdp.call("DOM.setFileInputFiles", {"files": [str(path)], "nodeId": node})


def check_objects(s):
    names = {l["text"] for o in s["lastResult"]["objects"] for l in o.get("labels", [])}
    assert names & {"person", "bus"}, names


def check_segment(s):
    # zidane.jpg: two men fill about 55% of the frame (MediaPipe Python's mask says 0.546).
    result = s["lastResult"]
    assert result["maskWidth"] == 256 and result["maskHeight"] == 256, result.keys()
    assert 0.45 < result["personFraction"] < 0.65, result["personFraction"]


def check_pose(s):
    # person.jpg: one standing person, whole in view (MediaPipe Python finds one pose with 33 landmarks).
    poses = s["lastResult"]["poses"]
    assert len(poses) == 1 and len(poses[0]["landmarks"]) == 33, poses[:1]


def check_labels(s):
    assert any("cat" in l["text"].lower() for l in s["lastResult"]["labels"]), s["lastResult"]["labels"]


def check_barcodes(s):
    assert any(b["text"] == "Thalassiodracon" for b in s["lastResult"]["barcodes"]), s["lastResult"]["barcodes"]


def check_text(s):
    assert "segmentation" in json.dumps(s["lastResult"]["blocks"]), s["lastResult"]["blocks"][:1]


# A card in perspective on a dark table: the corners the rectangles task should find.
CARD = [(150, 110), (500, 140), (470, 380), (130, 350)]


def make_card(folder: Path) -> Path:
    import cv2
    import numpy as np

    image = np.full((480, 640, 3), 45, np.uint8)
    cv2.fillConvexPoly(image, np.array(CARD, np.int32), (235, 235, 235), lineType=cv2.LINE_AA)
    path = folder / "card.png"
    cv2.imwrite(str(path), image)
    return path


def check_rectangles(s):
    rects = s["lastResult"]["rectangles"]
    assert len(rects) == 1, rects
    found = [rects[0][k] for k in ("topLeft", "topRight", "bottomRight", "bottomLeft")]
    for (x, y), p in zip(CARD, found):
        assert abs(p["x"] - x) < 12 and abs(p["y"] - y) < 12, (found, CARD)


FILE_TASKS = {
    "objects": (lambda _: MEDIA / "bus.jpg", check_objects),
    "labels": (lambda _: MEDIA / "chelsea.png", check_labels),
    "barcodes": (lambda _: MEDIA / "pyzbar-qrcode.png", check_barcodes),
    "text": (lambda _: MEDIA / "page.png", check_text),
    "rectangles": (make_card, check_rectangles),
    "segment": (lambda _: MEDIA / "zidane.jpg", check_segment),
    "pose": (lambda _: MEDIA / "person.jpg", check_pose),
}


@pytest.mark.parametrize("task", sorted(FILE_TASKS))
def test_task_on_an_opened_file(browser, server, workdir, task):
    cdp = browser
    make, check = FILE_TASKS[task]
    open_page(cdp, server, f"task={task}")
    open_file(cdp, make(workdir))
    s = wait_results(cdp, server, 3, TASK_TIME_LIMIT)
    cdp.evaluate("new Promise((r) => setTimeout(r, 300))")  # let the side panel catch up
    cdp.screenshot(OUT / f"web-page-{task}.png")
    assert s["task"] == task and s["source"] == "image" and s["mirrored"] is False
    assert s["errors"] == 0, s["lastError"]
    assert cdp.page_errors() == [], cdp.page_errors()
    check(s)


def test_embeddings_similarity_to_a_captured_reference(browser, server):
    cdp = browser
    open_page(cdp, server, "task=embeddings&autostart=1")
    wait_results(cdp, server, 3, TASK_TIME_LIMIT)
    cdp.evaluate("document.getElementById('capture-ref').click()")
    first = cdp.evaluate("window.swiftVision.results")
    s = wait_results(cdp, server, first + 5, TASK_TIME_LIMIT)
    cdp.screenshot(OUT / "web-page-embeddings.png")
    assert s["errors"] == 0, s["lastError"]
    assert cdp.page_errors() == [], cdp.page_errors()
    assert s["similarity"] is not None and 0.5 < s["similarity"] <= 1.0 + 1e-6, s["similarity"]
    shown = cdp.evaluate("document.getElementById('sim-value').textContent")
    assert shown not in ("", "–"), shown


def test_track_a_box_dragged_on_the_mirrored_preview(browser, server):
    cdp = browser
    open_page(cdp, server, "task=track&autostart=1")
    s = wait_results(cdp, server, 2, TASK_TIME_LIMIT)
    assert s["mirrored"] is True and s["frameSize"] == {"w": 640, "h": 480}
    # Carlo Ancelotti's face in the camera's first frame (zidane.jpg through make_fake_camera's crop).
    want = {"x": 417.0, "y": 80.0, "width": 137.0, "height": 137.0}
    rect = cdp.evaluate("(() => { const r = document.getElementById('overlay').getBoundingClientRect();"
                        " return {left: r.left, top: r.top, width: r.width, height: r.height}; })()")
    k = rect["width"] / 640
    # The preview is mirrored: frame x maps to width - x * k on screen.
    x0 = rect["left"] + rect["width"] - (want["x"] + want["width"]) * k
    x1 = rect["left"] + rect["width"] - want["x"] * k
    y0 = rect["top"] + want["y"] * k
    y1 = rect["top"] + (want["y"] + want["height"]) * k
    mouse = lambda kind, x, y, **extra: cdp.call("Input.dispatchMouseEvent", {  # noqa: E731
        "type": kind, "x": x, "y": y, "button": "left", **extra})
    mouse("mouseMoved", x0, y0, buttons=0)
    mouse("mousePressed", x0, y0, buttons=1, clickCount=1)
    for i in range(1, 11):
        mouse("mouseMoved", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10, buttons=1)
    mouse("mouseReleased", x1, y1, buttons=0, clickCount=1)
    seed = cdp.evaluate("window.swiftVision.seed")
    assert seed, "the drag did not seed the tracker"
    for key in want:
        assert abs(seed[key] - want[key]) <= 2.0, f"seed {seed} is not the dragged box {want} in frame pixels"
    got = cdp.wait_for("(() => { const r = window.swiftVision.lastResult;"
                       " return r && Array.isArray(r.tracks) && r.tracks.length > 0 && r.frame; })()", TASK_TIME_LIMIT)
    assert got, f"no track after seeding: {state(cdp)['lastResult']}"
    start = cdp.evaluate("window.swiftVision.results")
    s = wait_results(cdp, server, start + 10, TASK_TIME_LIMIT)
    cdp.screenshot(OUT / "web-page-track.png")
    assert s["errors"] == 0, s["lastError"]
    assert cdp.page_errors() == [], cdp.page_errors()
    track = s["lastResult"]["tracks"][0]
    assert track["id"] == 1
    box = track["boundingBox"]
    # The face moves by at most ~90 px across the loop; the box should stay on it.
    assert abs(box["x"] - want["x"]) < 120 and abs(box["y"] - want["y"]) < 80, track
