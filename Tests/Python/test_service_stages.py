"""Where the time of the image routes beside the tasks goes: `POST /v1/similarity`, adding a photo to a
collection and searching a collection with a photo decode their images before asking for an
inference slot and encode their answers after giving it back, as `POST /v1/{task}` does; each answer
says so in `Server-Timing` (queue, decode, inference, encode) and in the stage histograms of /metrics.
"""
from __future__ import annotations

import json

import pytest

from test_service_attacks import HOST, MEDIA, Server, request

BOUNDARY = "swiftvision-stages"


def form(*names: str) -> bytes:
    """A multipart/form-data body with one JPEG file part per photo."""
    parts = [(f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"image{i}\"; filename=\"{name}\"\r\n"
              f"Content-Type: image/jpeg\r\n\r\n").encode() + (MEDIA / name).read_bytes() + b"\r\n"
             for i, name in enumerate(names)]
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def stages(headers: dict) -> dict[str, float]:
    return {name.strip(): float(value) for name, value in
            (part.split(";dur=") for part in headers["server-timing"].split(","))}


@pytest.fixture(scope="module")
def server():
    server = Server("--max-concurrent", "1")
    yield server
    server.close()


def check(status: int | None, headers: dict, body: bytes, seconds: float, expected: int) -> dict[str, float]:
    assert status == expected, body
    spent = stages(headers)
    assert set(spent) == {"queue", "decode", "inference", "encode"}, headers
    # Each image is decoded in its own stage (a JPEG of 810×1080 takes well over a microsecond), the
    # slot's work is the inference, and the stages fit in the time the client waited.
    assert spent["decode"] > 0 and spent["inference"] > 0 and spent["encode"] > 0
    assert sum(spent.values()) / 1000 <= seconds
    return spent


def test_similarity_decodes_both_photos_outside_its_slot(server):
    status, headers, body, seconds = request(server.port, "POST", "/v1/similarity", form("zidane.jpg", "bus.jpg"),
                                             {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}, time_limit=60)
    check(status, headers, body, seconds, 200)
    assert -1 <= json.loads(body)["cosineSimilarity"] <= 1


def test_adding_and_searching_a_collection_decode_outside_the_slot(server):
    photo = (MEDIA / "bus.jpg").read_bytes()
    status, headers, body, seconds = request(server.port, "POST", "/v1/collections/stages/items?tasks=labels,embeddings",
                                             photo, {"Content-Type": "image/jpeg"}, time_limit=120)
    check(status, headers, body, seconds, 201)
    added = json.loads(body)["item"]["id"]
    status, headers, body, seconds = request(server.port, "POST", "/v1/collections/stages/search?k=1", photo,
                                             {"Content-Type": "image/jpeg"}, time_limit=60)
    check(status, headers, body, seconds, 200)
    assert [hit["item"]["id"] for hit in json.loads(body)["hits"]] == [added]


def test_the_stage_histograms_count_these_routes(server):
    status, _, body, _ = request(server.port, "GET", "/metrics")
    assert status == 200
    text = body.decode()
    for task in ("similarity", "collections"):
        for stage in ("queue", "decode", "inference", "encode"):
            counts = [line for line in text.splitlines()
                      if line.startswith("swiftvision_request_stage_seconds_count")
                      and f'task="{task}"' in line and f'stage="{stage}"' in line]
            assert counts and float(counts[0].split()[-1]) >= 1, (task, stage)
