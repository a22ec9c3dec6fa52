"""DeepStack's HTTP API on the real server, requested as DeepStack's documentation shows.

DeepStack's object-detection page posts `files={"image": image_data}` to `/v1/vision/detection` and
reads `response["predictions"]`, each with `label`, `confidence` and whole-pixel `x_min`, `y_min`,
`x_max`, `y_max`, beside `"success": true`; the face endpoint answers the same without `label`, the
scene endpoint `label` and `confidence`; clients send `min_confidence` and `api_key` as form fields.
The photos' content is known: bus.jpg shows a bus and four people, zidane.jpg two faces, chelsea.png
(scikit-image) a cat.
"""
from __future__ import annotations

import json

import pytest

from test_service_attacks import MEDIA, Server, request


def form(fields: dict[str, bytes | str], boundary: str = "deepstack-boundary") -> tuple[str, bytes]:
    body = b""
    for name, value in fields.items():
        if isinstance(value, bytes):
            body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{name}\"\r\n"
                     f"Content-Type: application/octet-stream\r\n\r\n").encode() + value + b"\r\n"
        else:
            body += f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", body + f"--{boundary}--\r\n".encode()


def post(server: Server, path: str, fields: dict) -> tuple[int, dict]:
    content_type, body = form(fields)
    status, _, answer, _ = request(server.port, "POST", path, body, {"Content-Type": content_type}, time_limit=60)
    return status, json.loads(answer)


@pytest.fixture(scope="module")
def server():
    server = Server("--max-concurrent", "1")
    yield server
    server.close()


def test_detection_answers_with_deepstacks_predictions(server):
    status, answer = post(server, "/v1/vision/detection", {"image": (MEDIA / "bus.jpg").read_bytes()})
    assert status == 200 and answer["success"] is True, answer
    labels = [p["label"] for p in answer["predictions"]]
    # At DeepStack's min_confidence 0.4 YOLOv4-tiny (the default detector) finds 2 of bus.jpg's 4 people.
    assert "bus" in labels and labels.count("person") >= 2, labels
    for prediction in answer["predictions"]:
        assert set(prediction) == {"label", "confidence", "x_min", "y_min", "x_max", "y_max"}, prediction
        assert all(isinstance(prediction[k], int) for k in ("x_min", "y_min", "x_max", "y_max"))
        assert 0 <= prediction["x_min"] < prediction["x_max"] <= 810 and 0 <= prediction["y_min"] < prediction["y_max"] <= 1080
        assert 0.4 <= prediction["confidence"] <= 1


def test_min_confidence_filters_and_is_range_checked(server):
    _, everything = post(server, "/v1/vision/detection", {"image": (MEDIA / "bus.jpg").read_bytes(), "min_confidence": "0.1"})
    _, sure = post(server, "/v1/vision/detection", {"image": (MEDIA / "bus.jpg").read_bytes(), "min_confidence": "0.9"})
    assert len(sure["predictions"]) < len(everything["predictions"])
    assert all(p["confidence"] >= 0.9 for p in sure["predictions"])
    status, answer = post(server, "/v1/vision/detection", {"image": (MEDIA / "bus.jpg").read_bytes(), "min_confidence": "7"})
    assert status == 400 and answer["success"] is False and answer["code"] == "bad_option", answer


def test_face_and_scene(server):
    status, faces = post(server, "/v1/vision/face", {"image": (MEDIA / "zidane.jpg").read_bytes()})
    assert status == 200 and faces["success"] is True and len(faces["predictions"]) == 2, faces
    assert all(set(p) == {"confidence", "x_min", "y_min", "x_max", "y_max"} for p in faces["predictions"])
    status, scene = post(server, "/v1/vision/scene", {"image": (MEDIA / "chelsea.png").read_bytes()})
    assert status == 200 and scene["success"] is True and "cat" in scene["label"].lower(), scene
    assert 0 < scene["confidence"] <= 1


def test_bad_requests_answer_success_false(server):
    status, answer = post(server, "/v1/vision/detection", {"picture": (MEDIA / "bus.jpg").read_bytes()})
    assert status == 400 and answer == {"success": False, "code": "image_needed", "error": answer["error"]}
    status, answer = post(server, "/v1/vision/face", {"image": b"not an image"})
    assert status == 415 and answer["success"] is False, answer


def test_the_api_key_field_is_the_token(tmp_path):
    token = tmp_path / "token"
    token.write_text("deepstack-key")
    server = Server("--token-file", str(token))
    try:
        photo = (MEDIA / "chelsea.png").read_bytes()
        status, answer = post(server, "/v1/vision/scene", {"image": photo})
        assert status == 401 and answer["success"] is False
        status, answer = post(server, "/v1/vision/scene", {"image": photo, "api_key": "wrong"})
        assert status == 401
        status, answer = post(server, "/v1/vision/scene", {"image": photo, "api_key": "deepstack-key"})
        assert status == 200 and answer["success"] is True
    finally:
        server.close()
