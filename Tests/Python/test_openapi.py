"""The OpenAPI document against the server that serves it.

`GET /openapi.json` must describe exactly the routes the server has: every task of `GET /v1/tasks`
and the fixed endpoints, each answering something other than 404 when asked; and schemathesis
(set up by scripts/setup-reference-env.sh) runs its coverage and fuzzing phases against the live
server with a fixed seed: no 5xx but the documented 503/504, every status documented, every answer
of the documented type and schema.
"""
from __future__ import annotations

import json
import subprocess

import pytest

from test_service_attacks import HOST, Server, request
from test_web_page import CACHE

SCHEMATHESIS = CACHE / "schemathesis-venv" / "bin" / "schemathesis"
FIXED = {"/healthz", "/metrics", "/v1/tasks", "/v1/similarity", "/v1/stream/{task}",
         "/v1/vision/detection", "/v1/vision/face", "/v1/vision/scene", "/v1/collections",
         "/v1/collections/{collection}/items", "/v1/collections/{collection}/items/{id}",
         "/v1/collections/{collection}/items/{id}/thumbnail",
         "/v1/collections/{collection}/search", "/v1/collections/{collection}/duplicates",
         "/v1/sources", "/v1/sources/{id}", "/v1/sources/{id}/events", "/v1/models", "/v1/models/{name}"}


@pytest.fixture(scope="module")
def server():
    server = Server("--max-concurrent", "1", "--request-timeout", "20")
    yield server
    server.close()


def document(server: Server) -> dict:
    status, headers, body, _ = request(server.port, "GET", "/openapi.json")
    assert status == 200 and headers["content-type"] == "application/json"
    return json.loads(body)


def test_the_document_describes_exactly_the_routes_the_server_has(server):
    paths = set(document(server)["paths"])
    _, _, body, _ = request(server.port, "GET", "/v1/tasks")
    tasks = {f"/v1/{task['name']}" for task in json.loads(body)}
    assert paths == tasks | FIXED, paths ^ (tasks | FIXED)
    for path, operations in document(server)["paths"].items():
        for method in operations:
            concrete = path.replace("{task}", "faces").replace("{collection}", "photos").replace("{id}", "1")
            status, _, body, _ = request(server.port, method.upper(), concrete)
            # A collection that does not exist is a 404 of its own; an unserved route is "not_found".
            assert status != 404 or b'"not_found"' not in body, f"{method.upper()} {path} is documented but not served"
    # A path the document does not have is not served either.
    assert request(server.port, "POST", "/v1/nothing")[0] == 404


def test_every_task_option_is_a_documented_parameter(server):
    paths = document(server)["paths"]
    _, _, body, _ = request(server.port, "GET", "/v1/tasks")
    for task in json.loads(body):
        documented = {p["name"] for p in paths[f"/v1/{task['name']}"]["post"]["parameters"]}
        for option in task["options"]:
            if option in {"model", "detector", "threads", "boxes"}:
                continue
            name = "".join("-" + c.lower() if c.isupper() else c for c in option)
            assert name in documented, f"{task['name']}: option {option} is not documented"


def test_schemathesis_finds_no_server_error_and_no_undocumented_answer(server, tmp_path):
    if not SCHEMATHESIS.is_file():
        pytest.fail(f"{SCHEMATHESIS} is missing: run scripts/setup-reference-env.sh")
    run = subprocess.run(
        [str(SCHEMATHESIS), "run", f"http://{HOST}:{server.port}/openapi.json",
         "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
         "--max-examples", "10", "--seed", "28", "--workers", "1", "--request-timeout", "30", "--no-color"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)  # it keeps a folder of its own in the working directory
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout.split("Test cases:")[-1], run.stdout[-2000:]
