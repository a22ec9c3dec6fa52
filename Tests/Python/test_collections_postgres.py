"""The collections' PostgreSQL store, against a real PostgreSQL 15 server that the tests start themselves.

1. The same photos indexed into SQLite and into PostgreSQL give the same answers: every search, filter,
   duplicate group and exported analysis. The photos' content is known: chelsea.png (scikit-image's cat),
   bus.jpg (a bus and people, faces seen), zidane.jpg (two people, two faces), page.png (scikit-image's scanned page,
   which reads "Region-based segmentation"), and a smaller JPEG copy of chelsea.png made here (its
   near-duplicate by construction).
2. Two `serve` replicas on one database share a collection: an item added through one is found through the
   other within 1 s, its thumbnail is served by both, and removing it through one removes it for both.
3. A database that goes away gives 503 `collections_unavailable`, and the service answers again once it is back.
4. `index prune` removes a deleted file's items and a changed file's old version, in SQLite as in PostgreSQL.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from postgres_cluster import BIN, PostgresCluster
from test_service_attacks import MEDIA, Server, error_code, request
from test_web_page import BINARY

PHOTOS = ["chelsea.png", "bus.jpg", "zidane.jpg", "page.png"]


@pytest.fixture(scope="module")
def cluster():
    cluster = PostgresCluster()
    yield cluster
    cluster.close()


def photo_folder(folder: Path, names: list[str]) -> Path:
    """`folder` with copies of the sample photos `names` and chelsea-small.jpg, a smaller JPEG of chelsea.png."""
    for name in names:
        (folder / name).write_bytes((MEDIA / name).read_bytes())
    cat = cv2.imread(str(MEDIA / "chelsea.png"))
    cv2.imwrite(str(folder / "chelsea-small.jpg"), cv2.resize(cat, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA),
                [cv2.IMWRITE_JPEG_QUALITY, 80])
    return folder


@pytest.fixture(scope="module")
def photos():
    with tempfile.TemporaryDirectory(prefix="swiftvision-pg-photos-") as folder:
        yield photo_folder(Path(folder), PHOTOS)


def index(*arguments: str) -> list[dict]:
    json_flag = [] if arguments[0] == "export" else ["--json"]  # export writes JSON Lines always
    result = subprocess.run([str(BINARY), "index", *arguments, *json_flag], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, (arguments, result.stderr[-2000:])
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def stores(cluster, photos):
    sqlite = str(photos / "collections.sqlite")
    for database in [sqlite, cluster.url]:
        added = index("add", "photos", str(photos), "--tasks", "labels,objects,faces,text,embeddings",
                      "--parallel", "1", "--database", database)
        assert sorted(line["status"] for line in added) == ["added"] * 5, added
    return {"sqlite": sqlite, "postgres": cluster.url}


def names(lines: list[dict]) -> list[str]:
    return [Path(line["file"]).name for line in lines]


def both(stores, *arguments: str) -> tuple[list[dict], list[dict]]:
    return tuple(index(*arguments, "--database", stores[kind]) for kind in ("sqlite", "postgres"))


def test_both_stores_find_the_same_items(stores, photos):
    sqlite, postgres = both(stores, "search", "photos", "--image", str(MEDIA / "chelsea.png"), "--k", "5")
    assert names(sqlite)[:2] == ["chelsea.png", "chelsea-small.jpg"], sqlite
    assert names(postgres) == names(sqlite)
    assert [round(line["score"], 5) for line in postgres] == [round(line["score"], 5) for line in sqlite]
    for filters, expected in [
        (["--label", "cat"], {"chelsea.png", "chelsea-small.jpg"}),
        (["--label", "Person", "--no-label", "bus"], {"zidane.jpg"}),
        (["--faces", "1.."], {"bus.jpg", "zidane.jpg"}),
        (["--faces", "0"], {"chelsea.png", "chelsea-small.jpg", "page.png"}),
        (["--text", "region segmentation"], {"page.png"}),
        (["--text", "segmentation", "--label", "cat"], set()),
    ]:
        sqlite, postgres = both(stores, "search", "photos", *filters)
        assert set(names(sqlite)) == expected, (filters, sqlite)
        assert names(postgres) == names(sqlite), (filters, postgres)


def test_both_stores_group_the_same_duplicates_and_export_the_same_analyses(stores):
    sqlite, postgres = both(stores, "duplicates", "photos")
    assert [sorted(names(group["items"])) for group in sqlite] == [["chelsea-small.jpg", "chelsea.png"]], sqlite
    assert [sorted(names(group["items"])) for group in postgres] == [sorted(names(group["items"])) for group in sqlite]
    sqlite, postgres = both(stores, "export", "photos")

    def analyses(lines):
        return {Path(line["file"]).name: {k: v for k, v in line.items() if k not in ("id", "addedAt", "file")} for line in lines}

    assert analyses(postgres) == analyses(sqlite)
    sqlite, postgres = both(stores, "list")
    assert [(c["name"], c["items"]) for c in postgres] == [(c["name"], c["items"]) for c in sqlite] == [("photos", 5)]


def test_adding_again_skips_what_the_database_has(stores, photos):
    added = index("add", "photos", str(photos / "bus.jpg"), "--tasks", "labels", "--database", stores["postgres"])
    assert [line["status"] for line in added] == ["skipped"], added


def test_replicas_share_one_collection(cluster):
    first = Server("--collections", cluster.url)
    second = Server("--collections", cluster.url)
    try:
        # An empty collection made through one replica exists for the other.
        made = [request(server.port, "POST", "/v1/collections", b'{"name": "fresh"}', {"Content-Type": "application/json"})[0]
                for server in (first, second)]
        assert made == [201, 409], made
        status, _, body, _ = request(first.port, "POST", "/v1/collections/shared/items?tasks=labels,embeddings",
                                     (MEDIA / "dog.jpg").read_bytes(), {"Content-Type": "image/jpeg"}, time_limit=120)
        assert status == 201, body
        item = json.loads(body)["item"]["id"]
        added = time.monotonic()
        while True:
            status, _, body, _ = request(second.port, "POST", "/v1/collections/shared/search",
                                         json.dumps({"item": item, "k": 1}).encode(), {"Content-Type": "application/json"},
                                         time_limit=60)
            if status == 200 and [hit["item"]["id"] for hit in json.loads(body)["hits"]] == [item]:
                break
            assert time.monotonic() - added < 1.0, f"the other replica did not find item {item} within 1 s: {status} {body}"
            time.sleep(0.05)
        status, _, body, _ = request(second.port, "GET", f"/v1/collections/shared/items/{item}")
        assert status == 200 and json.loads(body)["id"] == item, body
        status, headers, body, _ = request(second.port, "GET", f"/v1/collections/shared/items/{item}/thumbnail")
        thumbnail = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
        assert status == 200 and headers["content-type"] == "image/jpeg" and max(thumbnail.shape[:2]) == 256, (status, headers)
        # Removed through one replica: gone from the other's searches too.
        status, _, body, _ = request(second.port, "DELETE", f"/v1/collections/shared/items/{item}")
        assert status == 204, body
        status, _, body, _ = request(first.port, "POST", "/v1/collections/shared/search", json.dumps({"k": 5}).encode(),
                                     {"Content-Type": "application/json"})
        assert status == 200 and json.loads(body)["hits"] == [], body
        status, _, body, _ = request(first.port, "DELETE", f"/v1/collections/shared/items/{item}")
        assert status == 404 and error_code(body) == "unknown_item", body
    finally:
        first.close()
        second.close()


def test_a_database_that_goes_away_answers_503_until_it_is_back(cluster):
    server = Server("--collections", cluster.url)
    try:
        status, _, body, _ = request(server.port, "GET", "/v1/collections")
        assert status == 200, body
        cluster.stop()
        try:
            status, _, body, _ = request(server.port, "GET", "/v1/collections")
            assert status == 503 and error_code(body) == "collections_unavailable", (status, body)
            assert b"127.0.0.1" not in body and b"postgres" not in body, body
        finally:
            cluster.start()
        status, _, body, _ = request(server.port, "GET", "/v1/collections")
        assert status == 200, body
    finally:
        server.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_prune_removes_deleted_and_changed_files_items(cluster, kind, tmp_path):
    # `index add` keeps what it once added; `index prune` removes the items of a deleted file and a changed
    # file's old version. Truth: the files left on disk and their SHA-256 as hashlib computes it.
    folder = tmp_path / "photos"
    folder.mkdir()
    for name in ["bus.jpg", "zidane.jpg", "page.png"]:
        (folder / name).write_bytes((MEDIA / name).read_bytes())
    if kind == "sqlite":
        database = str(tmp_path / "collections.sqlite")
    else:  # a database of its own, so that the other tests' collections stay as they expect
        cluster.run(BIN / "createdb", "-h", "127.0.0.1", "-p", cluster.port, "-U", "postgres", "pruning")
        database = cluster.url.rsplit("/", 1)[0] + "/pruning"
    collection = "pruning"
    index("add", collection, str(folder), "--tasks", "embeddings", "--parallel", "1", "--database", database)
    (folder / "zidane.jpg").unlink()
    (folder / "bus.jpg").write_bytes((MEDIA / "chelsea.png").read_bytes())  # the same name, other bytes
    index("add", collection, str(folder), "--tasks", "embeddings", "--parallel", "1", "--database", database)
    before = index("search", collection, "--database", database, "--k", "100")
    assert len(before) == 4, before  # the old bus, the new one, zidane and page: nothing was removed

    removed = index("prune", collection, "--database", database)
    on_disk = {str(path): hashlib.sha256(path.read_bytes()).hexdigest() for path in folder.iterdir()}
    stale = [(line["file"], line["contentHash"]) for line in before if on_disk.get(line["file"]) != line["contentHash"]]
    assert sorted((line["file"], line["contentHash"]) for line in removed) == sorted(stale) and len(stale) == 2
    after = index("search", collection, "--database", database, "--k", "100")
    assert sorted((line["file"], line["contentHash"]) for line in after) == sorted(on_disk.items())
    assert index("prune", collection, "--database", database) == []
