"""Collections over HTTP, against the real server with a collection file of its own.

Photos of known content go in through `POST /v1/collections/{c}/items`: chelsea.png (scikit-image's
cat), bus.jpg (a bus and people), zidane.jpg (two people, two faces). Searching with a photo ranks it
first with a score of 1; the filters return exactly the photos that show what they name.
"""
from __future__ import annotations

import json

import pytest

from test_service_attacks import MEDIA, Server, request

PHOTOS = {"chelsea.png": "image/png", "bus.jpg": "image/jpeg", "zidane.jpg": "image/jpeg"}


@pytest.fixture(scope="module")
def server():
    server = Server("--max-concurrent", "1")
    ids = {}
    for name, kind in PHOTOS.items():
        status, _, body, _ = request(server.port, "POST", "/v1/collections/photos/items", (MEDIA / name).read_bytes(),
                                     {"Content-Type": kind}, time_limit=120)
        assert status == 201, (name, status, body)
        answer = json.loads(body)
        assert answer["added"] is True
        ids[name] = answer["item"]["id"]
    server.ids = ids
    yield server
    server.close()


def search(server: Server, query: dict) -> list[str]:
    status, _, body, _ = request(server.port, "POST", "/v1/collections/photos/search", json.dumps(query).encode(),
                                 {"Content-Type": "application/json"}, time_limit=60)
    assert status == 200, (status, body)
    names = {v: k for k, v in server.ids.items()}
    return [names[hit["item"]["id"]] for hit in json.loads(body)["hits"]]


def test_adding_again_finds_the_item_already_there(server):
    status, _, body, _ = request(server.port, "POST", "/v1/collections/photos/items", (MEDIA / "bus.jpg").read_bytes(),
                                 {"Content-Type": "image/jpeg"}, time_limit=120)
    answer = json.loads(body)
    assert status == 201 and answer["added"] is False and answer["item"]["id"] == server.ids["bus.jpg"]
    status, _, body, _ = request(server.port, "GET", "/v1/collections")
    assert status == 200 and {"name": "photos", "items": 3} .items() <= json.loads(body)[0].items()


def test_a_photo_finds_itself_first(server):
    status, _, body, _ = request(server.port, "POST", "/v1/collections/photos/search?k=3", (MEDIA / "chelsea.png").read_bytes(),
                                 {"Content-Type": "image/png"}, time_limit=60)
    hits = json.loads(body)["hits"]
    assert status == 200 and hits[0]["item"]["id"] == server.ids["chelsea.png"] and hits[0]["score"] > 0.999, hits
    assert search(server, {"item": server.ids["zidane.jpg"], "k": 1}) == ["zidane.jpg"]
    # The approximate search ranks the same way on these photos.
    assert search(server, {"item": server.ids["zidane.jpg"], "k": 3, "approximate": True}) == \
        search(server, {"item": server.ids["zidane.jpg"], "k": 3})


def test_metrics_count_additions_and_time_searches(server):
    search(server, {"item": server.ids["bus.jpg"], "k": 1})
    metrics = request(server.port, "GET", "/metrics")[2].decode()
    added = [line for line in metrics.splitlines() if line.startswith("swiftvision_collection_items_total")]
    assert any('outcome="added"' in line and line.endswith(" 3") for line in added), added
    assert 'swiftvision_collection_search_seconds_count{kind="exact"}' in metrics
    assert "photos" not in "".join(line for line in metrics.splitlines() if line.startswith("swiftvision_collection"))


def test_filters_return_exactly_the_matching_photos(server):
    assert search(server, {"labels": ["Cat"]}) == ["chelsea.png"]
    assert set(search(server, {"labels": ["person"]})) == {"bus.jpg", "zidane.jpg"}
    assert search(server, {"labels": ["person"], "noLabels": ["bus"]}) == ["zidane.jpg"]
    assert set(search(server, {"faces": "2.."})) >= {"zidane.jpg"} and "chelsea.png" not in search(server, {"faces": "1.."})


def test_an_empty_collection_is_made_once(server):
    status, headers, body, _ = request(server.port, "POST", "/v1/collections", json.dumps({"name": "empty one"}).encode(),
                                       {"Content-Type": "application/json"})
    assert status == 201 and json.loads(body)["items"] == 0 and headers["location"] == "/v1/collections/empty%20one", body
    status, _, body, _ = request(server.port, "GET", "/v1/collections")
    assert {"empty one", "photos"} <= {c["name"] for c in json.loads(body)}, body
    status, _, body, _ = request(server.port, "POST", "/v1/collections/empty%20one/search", b'{"k": 5}',
                                 {"Content-Type": "application/json"})
    assert status == 200 and json.loads(body)["hits"] == [], body
    status, _, body, _ = request(server.port, "POST", "/v1/collections", json.dumps({"name": "empty one"}).encode(),
                                 {"Content-Type": "application/json"})
    assert status == 409 and json.loads(body)["error"]["code"] == "collection_exists", body
    # Control characters too: SQLite would keep "a\u0000b" as "a" (schemathesis found the 201 with a null body).
    for bad in [{"name": ""}, {"name": "x" * 201}, {"name": 5}, {}, {"name": "a", "more": 1}, {"name": "a\u0000b"},
                {"name": "line\nbreak"}]:
        status, _, body, _ = request(server.port, "POST", "/v1/collections", json.dumps(bad).encode(),
                                     {"Content-Type": "application/json"})
        assert status == 400 and json.loads(body)["error"]["code"] == "bad_option", (bad, body)


def test_bad_requests_are_refused_clearly(server):
    status, _, body, _ = request(server.port, "GET", "/v1/collections/nothing/items/1")
    assert status == 404 and json.loads(body)["error"]["code"] == "unknown_collection", body
    status, _, body, _ = request(server.port, "GET", f"/v1/collections/photos/items/999999")
    assert status == 404 and json.loads(body)["error"]["code"] == "unknown_item", body
    for query in [{"k": 0}, {"k": 100000}, {"faces": "x"}, {"what": 1}, {"labels": "Cat"}, {"approximate": "yes"}]:
        status, _, body, _ = request(server.port, "POST", "/v1/collections/photos/search", json.dumps(query).encode(),
                                     {"Content-Type": "application/json"})
        assert status == 400 and json.loads(body)["error"]["code"] == "bad_option", (query, body)
    status, _, body, _ = request(server.port, "GET", "/v1/collections/photos/duplicates?threshold=7")
    assert status == 400
    status, _, body, _ = request(server.port, "GET", "/v1/collections/photos/duplicates")
    assert status == 200 and json.loads(body) == [], body
