"""An annotated video plays in Chromium.

`swiftvision faces --draw out.mp4 clip.mp4` writes H.264, which browsers play; the clip it reads is
MPEG-4 Part 2 ('mp4v', written here by OpenCV from a pan across zidane.jpg), which Chromium refuses
with MEDIA_ERR_SRC_NOT_SUPPORTED: the control that shows the browser tells the two apart. The truth is
the browser's own `<video>` element: it loads the file, reports its size and plays past 0.3 s.
"""
from __future__ import annotations

import json
import subprocess

import cv2
import pytest

from test_web_page import BINARY, MEDIA, browser, browser_binary, server, workdir  # noqa: F401  (fixtures)

PLAY = """new Promise(resolve => {
  const video = document.createElement('video');
  video.muted = true;
  video.addEventListener('error', () => resolve({error: video.error ? video.error.code : -1}));
  video.addEventListener('loadeddata', () => {
    video.addEventListener('timeupdate', () => {
      if (video.currentTime > 0.3) resolve({width: video.videoWidth, height: video.videoHeight, time: video.currentTime});
    });
    video.play().catch(e => resolve({error: String(e)}));
  });
  setTimeout(() => resolve({error: 'timeout'}), 20000);
  video.src = %s;
  document.body.appendChild(video);
})"""


def write_clip(path, frames: int = 25) -> None:
    photo = cv2.imread(str(MEDIA / "zidane.jpg"))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 25, (640, 360))
    assert writer.isOpened()
    for index in range(frames):
        writer.write(cv2.resize(photo[10 * index:10 * index + 540, 12 * index:12 * index + 960], (640, 360)))
    writer.release()


def test_a_drawn_video_plays_in_chromium(browser, workdir):  # noqa: F811
    clip, drawn = workdir / "clip.mp4", workdir / "drawn.mp4"
    write_clip(clip)
    run = subprocess.run([str(BINARY), "faces", "--draw", str(drawn), str(clip)], capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr.decode()
    assert run.stderr == b"", run.stderr.decode()
    (workdir / "play.html").write_text("<!doctype html><title>play</title><body></body>")
    browser.call("Page.navigate", {"url": (workdir / "play.html").as_uri()})
    assert browser.wait_for("document.readyState === 'complete'", 30)
    played = browser.evaluate(PLAY % json.dumps(drawn.name), timeout=60)
    assert played.get("width") == 640 and played.get("height") == 360, played
    refused = browser.evaluate(PLAY % json.dumps(clip.name), timeout=60)
    assert refused == {"error": 4}, f"Chromium was expected to refuse MPEG-4 Part 2: {refused}"
