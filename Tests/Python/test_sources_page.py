"""The page's Sources view in a real browser (headless Chromium, driven through DevTools as in
test_web_page.py), against the real server running sources from a folder of its own.

A source is added through the page's form: people.avi (2 s of zidane.jpg, then 2 s of gray; the objects task
tracks its people, see test_sources.py), looped. The page must list it running, show its events as they
happen (people entering, then leaving when the gray begins), and remove it with its button. A screenshot goes
to out/sources-page.png.
"""
from __future__ import annotations

import pytest

from test_service_attacks import HOST, Server
from test_sources import media  # noqa: F401 (the fixture)
from test_web_page import OUT, browser, browser_binary, workdir  # noqa: F401


@pytest.fixture(scope="module")
def server(browser_binary, media, tmp_path_factory):  # noqa: F811
    folder = tmp_path_factory.mktemp("sources")
    server = Server("--sources", str(folder / "sources.json"), "--source-root", str(media), "--max-concurrent", "1")
    yield {"base": f"http://{HOST}:{server.port}", "log": server.log, "server": server}
    server.close()


def page_state(cdp) -> dict:
    return cdp.evaluate("JSON.parse(JSON.stringify(window.swiftVisionSources))")


def test_the_sources_view_adds_a_source_shows_its_events_and_removes_it(browser, server, media):  # noqa: F811
    cdp = browser
    cdp.events.clear()
    cdp.call("Page.navigate", {"url": f"{server['base']}/sources.html"})
    assert cdp.wait_for("document.readyState === 'complete' && window.swiftVisionSources && "
                        "window.swiftVisionSources.refreshes >= 1 && document.querySelectorAll('#task option').length > 0", 30), \
        cdp.page_errors()
    assert page_state(cdp)["sources"] == []

    video = media / "people.avi"
    cdp.evaluate(f"document.getElementById('url').value = 'file://{video}'; document.getElementById('task').value = 'objects';"
                 "document.getElementById('fps').value = '5'; document.querySelector('#add-form button[type=submit]').click()")
    assert cdp.wait_for("window.swiftVisionSources.sources.length === 1 && "
                        "window.swiftVisionSources.sources[0].state === 'running'", 30), page_state(cdp)
    source = page_state(cdp)["sources"][0]
    assert source["task"] == "objects" and source["url"] == f"file://{video}", source

    # Its events arrive as they happen: the people of zidane.jpg enter, then leave once the gray begins.
    assert cdp.wait_for(f"(window.swiftVisionSources.events['{source['id']}'] || []).some(e => e.type === 'object.left')", 60), \
        page_state(cdp)
    events = page_state(cdp)["events"][source["id"]]
    types = [event["type"] for event in events]
    assert types.index("object.entered") < types.index("object.left"), types
    assert all(event["label"] == "person" for event in events if event["type"] == "object.entered"), events
    shown = cdp.evaluate(f"document.querySelector('.source[data-id=\"{source['id']}\"] .event-feed').textContent")
    assert "object.entered person" in shown and "object.left person" in shown, shown
    OUT.mkdir(exist_ok=True)
    assert cdp.screenshot(OUT / "sources-page.png").stat().st_size > 10_000

    # Removing it: gone from the page and from the service.
    cdp.evaluate(f"document.querySelector('.source[data-id=\"{source['id']}\"] button.danger').click()")
    assert cdp.wait_for("window.swiftVisionSources.sources.length === 0", 30), page_state(cdp)
    assert cdp.page_errors() == [], cdp.page_errors()
    assert page_state(cdp)["lastError"] is None, page_state(cdp)
