"""The live page takes its tasks from the server: every task `GET /v1/tasks` lists has a renderer module
(renderers/<name>.js) and a title, and the page shows the server's titles, forms and skeletons.

Truth: the server's listing for names, titles and options; MediaPipe Python's POSE_CONNECTIONS and
HAND_CONNECTIONS (`mediapipe.python.solutions`, in the tools venv) for the bones. The page runs in the real
headless Chromium of test_web_page.py, against the real server.
"""
from __future__ import annotations

import json
import time

import pytest

from test_web_page import (  # noqa: F401  (fixtures)
    MEDIA, OUT, TASK_TIME_LIMIT, browser, browser_binary, http_get, open_file, open_page, overlay_ink, server,
    wait_results, workdir)


@pytest.fixture(scope="module")
def tasks(server) -> list[dict]:
    status, body = http_get(server["base"] + "/v1/tasks")
    assert status == 200, body[:200]
    return json.loads(body)


def test_every_task_has_a_title_and_a_renderer_module(browser, server, tasks):
    cdp = browser
    open_page(cdp, server, "")
    assert len(tasks) >= 11, [t["name"] for t in tasks]
    for task in tasks:
        name = task["name"]
        assert task["title"].strip(), f"{name} has no title"
        status, body = http_get(f"{server['base']}/renderers/{name}.js")
        assert status == 200, f"renderers/{name}.js answered {status}"
        exports = cdp.evaluate(f"import('/renderers/{name}.js').then((m) => Object.keys(m))")
        assert {"draw", "panel"} <= set(exports), f"renderers/{name}.js exports {exports}"
        for option in task["hiddenOptions"]:
            assert option in task["options"], f"{name} hides {option}, which has no default"
    assert cdp.page_errors() == [], cdp.page_errors()


def test_the_page_shows_the_servers_titles_and_forms(browser, server, tasks):
    cdp = browser
    open_page(cdp, server, "")
    menu = cdp.evaluate("[...document.querySelectorAll('#task option')].map((o) => [o.value, o.textContent])")
    assert menu == [[t["name"], t["title"]] for t in tasks]
    for task in tasks:
        cdp.evaluate(f"(() => {{ const s = document.getElementById('task'); s.value = {json.dumps(task['name'])};"
                     " s.dispatchEvent(new Event('change')); })()")
        shown = cdp.evaluate("({title: document.getElementById('task-title').textContent,"
                             " summary: document.getElementById('task-summary').textContent,"
                             " options: [...document.querySelectorAll('#options [data-option]')].map((i) => i.dataset.option)})")
        assert shown["title"] == task["title"] and shown["summary"] == task["summary"], (task["name"], shown)
        scalars = [k for k, v in task["options"].items() if not isinstance(v, (list, dict)) and v is not None]
        assert shown["options"] == [k for k in scalars if k not in task["hiddenOptions"]], (task["name"], shown["options"])
    assert cdp.page_errors() == [], cdp.page_errors()


def test_the_skeletons_are_mediapipes(tasks):
    from mediapipe.python.solutions import hands, pose as body

    by_name = {t["name"]: t for t in tasks}
    pose = [list(bone) for bone in body.POSE_CONNECTIONS]
    hand = [list(bone) for bone in hands.HAND_CONNECTIONS]
    assert sorted(by_name["pose"]["bones"]) == sorted(pose)
    assert sorted(by_name["hands"]["bones"]) == sorted(hand)
    assert all(not t["bones"] for t in tasks if t["name"] not in ("pose", "hands"))


def test_hands_on_an_opened_file(browser, server, workdir):
    # bus.jpg's 280×280 window from (0, 420): the man's two hands, both found by MediaPipe Python
    # (HandPhotos.twoHands in Tests/TaskTests/HandTests.swift).
    import cv2

    path = workdir / "hands.png"
    cv2.imwrite(str(path), cv2.imread(str(MEDIA / "bus.jpg"))[420:700, 0:280])
    cdp = browser
    open_page(cdp, server, "task=hands")
    open_file(cdp, path)
    s = wait_results(cdp, server, 3, TASK_TIME_LIMIT)
    cdp.evaluate("new Promise((r) => setTimeout(r, 300))")  # let the side panel catch up
    ink = overlay_ink(cdp)
    cdp.screenshot(OUT / "web-page-hands.png")
    assert s["task"] == "hands" and s["errors"] == 0, s["lastError"]
    assert cdp.page_errors() == [], cdp.page_errors()
    hands = s["lastResult"]["hands"]
    assert len(hands) == 2 and all(len(h["landmarks"]) == 21 for h in hands), hands
    assert ink > 500, f"the skeletons are (nearly) not drawn: {ink} pixels"
    rows = cdp.evaluate("document.querySelectorAll('#results .row').length")
    assert rows == 2, rows


def test_switching_tasks_quickly_on_the_camera_raises_no_page_error(browser, server, tasks):
    # Each task's panel reads its own result's fields (renderers/objects.js: `objects`); a result of the
    # task before must never reach it. Two rounds through every task, 0.15 s apart, on the live camera.
    cdp = browser
    open_page(cdp, server, "task=faces&autostart=1")
    wait_results(cdp, server, 3, TASK_TIME_LIMIT)
    for name in [t["name"] for t in tasks] * 2 + ["objects"]:
        cdp.evaluate(f"(() => {{ const s = document.getElementById('task'); s.value = {json.dumps(name)};"
                     " s.dispatchEvent(new Event('change')); })()")
        time.sleep(0.15)
    done = cdp.evaluate("window.swiftVision.results")
    assert cdp.wait_for(f"window.swiftVision.results >= {done + 3}", TASK_TIME_LIMIT), "no results after the switches"
    assert cdp.page_errors() == [], cdp.page_errors()
