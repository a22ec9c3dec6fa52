"""The page's Collections view in a real browser (headless Chromium, driven through DevTools as in
test_web_page.py), against the real server with a collection file of its own.

Five photos of known content go in through the page's file input: chelsea.png (scikit-image's cat), a
smaller JPEG copy of it made here (its near-duplicate by construction), bus.jpg (a bus and people),
zidane.jpg (two people) and dog.jpg (darknet's sample: a dog, a bicycle, a truck, no person). The test
then uses the page as a person would: filters, a click on a picture, a search with a photo, the duplicate
groups and the remove button, and checks each answer against that content. A screenshot goes to
out/collections-page.png.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_collections_postgres import photo_folder
from test_service_attacks import Server
from test_web_page import HOST, MEDIA, OUT, browser, browser_binary, http_get, tail, workdir  # noqa: F401

PHOTOS = ["chelsea.png", "bus.jpg", "zidane.jpg", "dog.jpg"]


@pytest.fixture(scope="module")
def server(browser_binary):
    server = Server()  # with a collection file of its own
    yield {"base": f"http://{HOST}:{server.port}", "log": server.log}
    server.close()


@pytest.fixture(scope="module")
def photos(workdir):
    folder = workdir / "photos"
    folder.mkdir()
    return photo_folder(folder, PHOTOS)


def page_state(cdp) -> dict:
    return cdp.evaluate("JSON.parse(JSON.stringify(window.swiftVisionCollections))")


def set_files(cdp, selector: str, paths: list[Path]) -> None:
    root = cdp.call("DOM.getDocument")["root"]["nodeId"]
    node = cdp.call("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    cdp.call("DOM.setFileInputFiles", {"files": [str(p) for p in paths], "nodeId": node})


def shown(cdp, searches_before: int, time_limit: float = 60) -> list[str]:
    """The sources shown once the page has answered a search after `searches_before`."""
    assert cdp.wait_for(f"window.swiftVisionCollections.searches > {searches_before}", time_limit), page_state(cdp)
    return [item["source"] for item in page_state(cdp)["items"]]


def test_the_collections_view_adds_searches_groups_and_removes(browser, server, photos):
    cdp = browser
    cdp.events.clear()
    cdp.call("Page.navigate", {"url": f"{server['base']}/collections.html?collection=album"})
    assert cdp.wait_for("document.readyState === 'complete' && window.swiftVisionCollections && "
                        "window.swiftVisionCollections.searches >= 1", 30), cdp.page_errors()
    assert page_state(cdp)["items"] == []

    # Adding: five files through the file input, with a progress bar that reaches the end.
    files = sorted(photos.iterdir())
    set_files(cdp, "#add-files", files)
    assert cdp.wait_for("window.swiftVisionCollections.added === 5 && !window.swiftVisionCollections.ingesting", 300), \
        (page_state(cdp), tail(server["log"]))
    s = page_state(cdp)
    assert (s["added"], s["failed"], s["total"]) == (5, 0, 5), s
    assert cdp.evaluate("document.getElementById('ingest-progress').value") == 5
    assert cdp.wait_for("window.swiftVisionCollections.items.length === 5 && window.swiftVisionCollections.thumbnails >= 5", 60)
    assert sorted(item["source"] for item in page_state(cdp)["items"]) == sorted(p.name for p in files)
    widths = cdp.evaluate("[...document.querySelectorAll('#grid img')].map(i => i.naturalWidth)")
    assert len(widths) == 5 and all(0 < w <= 256 for w in widths), widths

    # Filters: the labels and object classes the photos show.
    before = page_state(cdp)["searches"]
    cdp.evaluate("document.getElementById('labels').value = 'bicycle'; document.querySelector('#search-form button[type=submit]').click()")
    assert shown(cdp, before) == ["dog.jpg"]
    before = page_state(cdp)["searches"]
    cdp.evaluate("document.getElementById('labels').value = 'cat'; document.querySelector('#search-form button[type=submit]').click()")
    assert sorted(shown(cdp, before)) == ["chelsea-small.jpg", "chelsea.png"]
    before = page_state(cdp)["searches"]
    cdp.evaluate("document.getElementById('labels').value = 'person'; document.getElementById('no-labels').value = 'bus';"
                 "document.querySelector('#search-form button[type=submit]').click()")
    assert shown(cdp, before) == ["zidane.jpg"]
    before = page_state(cdp)["searches"]
    cdp.evaluate("document.getElementById('clear').click()")
    assert len(shown(cdp, before)) == 5

    # A click on the cat finds it first and its smaller copy next.
    before = page_state(cdp)["searches"]
    cdp.evaluate("[...document.querySelectorAll('#grid .tile')].find(t => t.querySelector('img').alt === 'chelsea.png').click()")
    found = shown(cdp, before)
    assert found[:2] == ["chelsea.png", "chelsea-small.jpg"], found
    scores = [item["score"] for item in page_state(cdp)["items"]]
    assert scores[0] > 0.999 and scores[1] > 0.9 > max(scores[2:]), scores

    # A search with a photo from disk.
    before = page_state(cdp)["searches"]
    set_files(cdp, "#search-photo", [MEDIA / "zidane.jpg"])
    assert shown(cdp, before)[0] == "zidane.jpg"

    # Duplicates: the cat and its copy, nothing else.
    before = page_state(cdp)["searches"]
    cdp.evaluate("document.getElementById('duplicates').click()")
    shown(cdp, before)
    groups = page_state(cdp)["groups"]
    assert len(groups) == 1 and len(groups[0]) == 2, groups
    OUT.mkdir(exist_ok=True)
    shot = cdp.screenshot(OUT / "collections-page.png")
    assert shot.stat().st_size > 10_000

    # Removing the dog: gone from the page and from the service.
    before = page_state(cdp)["searches"]
    cdp.evaluate("document.getElementById('clear').click()")
    shown(cdp, before)
    dog = next(item["id"] for item in page_state(cdp)["items"] if item["source"] == "dog.jpg")
    cdp.evaluate(f"document.querySelector('#grid .tile[data-id=\"{dog}\"] .tile-remove').click()")
    assert cdp.wait_for(f"!window.swiftVisionCollections.items.some(i => i.id === {dog})", 30)
    status, body = http_get(f"{server['base']}/v1/collections/album/items/{dog}", timeout=30)
    assert status == 404 and json.loads(body)["error"]["code"] == "unknown_item", (status, body)
    assert cdp.page_errors() == [], cdp.page_errors()
    assert page_state(cdp)["lastError"] is None, page_state(cdp)
