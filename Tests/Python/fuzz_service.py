"""A seeded fuzzer of the service's HTTP requests and live-stream messages (`make fuzz`).

Starts the real server (as the attack suite does, under `prlimit`), then sends mutants of valid
requests — request lines, headers, query options, bodies, multipart forms — and of valid WebSocket
text messages and frames, whole or as hostile frame sequences (fragments, reserved bits, unknown
and control opcodes, unmasked, lengths past the limit). After every mutant the server must still be
running; every answer must be an HTTP status other than 500, or a closed connection; every 50
mutants `/healthz` must answer in under 100 ms. The seed and the mutant's number are printed on
failure, so any failure replays. Then schemathesis generates requests from the service's OpenAPI
document (`--schemathesis-examples` per operation, same seed): no server error, every answer as
documented.

    python Tests/Python/fuzz_service.py --iterations 2000 --seed 20261127
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_openapi import SCHEMATHESIS  # noqa: E402
from test_service_attacks import HOST, MEDIA, Server, exchange, upgrade, ws_send  # noqa: E402
from test_web_page import ws_header  # noqa: E402

OPTIONS = ["threshold", "max", "landmarks", "fast", "multiple", "classify", "level", "box", "max-hands",
           "min-detection-confidence", "timestampMs", "formats", "lang", "threads", "model"]
VALUES = ["0", "1", "-1", "0.5", "1e308", "-1e308", "NaN", "inf", "9223372036854775807", "", "true", "[]", "{}",
          "0,0,10,10", "0,0,1e308,1e308", "\x00", "%00", "a" * 300, "[1,2", "\"x\""]
TASKS = ["faces", "objects", "labels", "embeddings", "barcodes", "text", "rectangles", "track", "pose", "hands",
         "segment", "similarity", "nope"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not data:
            data += rng.randbytes(4)
        choice = rng.randrange(5)
        at = rng.randrange(len(data))
        if choice == 0:
            data[at] = rng.randrange(256)
        elif choice == 1:
            del data[at:at + rng.randint(1, 64)]
        elif choice == 2:
            data[at:at] = rng.randbytes(rng.randint(1, 64))
        elif choice == 3:
            data[at:at] = data[at:at + rng.randint(1, 256)] * rng.randint(1, 4)
        else:
            data = data[:at]
    return bytes(data)


def http_mutant(rng: random.Random, port: int, photos: list[bytes]) -> bytes:
    task = rng.choice(TASKS)
    query = "&".join(f"{rng.choice(OPTIONS)}={rng.choice(VALUES)}" for _ in range(rng.randint(0, 3)))
    body = rng.choice(photos)
    if rng.random() < 0.3:
        body = mutate(body, rng)
    head = (f"POST /v1/{task}?{query} HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: image/jpeg\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode("latin-1", "replace")
    request = head + body
    if rng.random() < 0.5:
        # Mutate the head only, so that bodies stay the size they declare more often than not.
        request = mutate(head, rng) + body
    return request


def stream_mutant(rng: random.Random) -> tuple[int, bytes]:
    if rng.random() < 0.5:
        message = {rng.choice(OPTIONS + ["boxes"]): rng.choice([0, -1, 1e300, 2**63, "x", None, [], {}, True, 1.5])}
        text = json.dumps(message).encode()
        return 1, mutate(text, rng) if rng.random() < 0.3 else text
    return 2, mutate((MEDIA / "chelsea.png").read_bytes()[:4000], rng)


def raw_frames(rng: random.Random, payload: bytes) -> bytes:
    """`payload` as WebSocket frames a hostile client might send: split into fragments (continuations,
    sometimes of the other type or without an end), with reserved bits, unknown or control opcodes,
    unmasked, or with a declared length far past the message limit (8 MB) and little data behind it."""
    out = bytearray()
    cuts = sorted(rng.sample(range(1, len(payload)), min(len(payload) - 1, rng.randint(0, 5)))) if len(payload) > 1 else []
    pieces = [payload[start:end] for start, end in zip([0, *cuts], [*cuts, len(payload)])]
    for number, piece in enumerate(pieces):
        opcode = (rng.choice([1, 2]) if number == 0 else 0) if rng.random() < 0.8 else rng.choice([0, 1, 2, 3, 8, 9, 10, 11, 15])
        last = number == len(pieces) - 1 if rng.random() < 0.9 else rng.random() < 0.5
        first = (0x80 if last else 0) | (rng.choice([0x10, 0x20, 0x40]) if rng.random() < 0.05 else 0) | opcode
        masked = rng.random() < 0.95
        length = len(piece) if rng.random() < 0.95 else rng.choice([8 * 1024 * 1024 + 1, 2**32, 2**63 - 1])
        key = rng.randbytes(4) if masked else b""
        out += ws_header(first, length, masked) + key + (bytes(b ^ key[i % 4] for i, b in enumerate(piece)) if masked else piece)
    return bytes(out)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--schemathesis-examples", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    photos = [(MEDIA / name).read_bytes() for name in ("zidane.jpg", "bus.jpg")]
    server = Server("--max-concurrent", "1", "--request-timeout", "10", "--header-timeout", "2", "--body-timeout", "2")
    try:
        for number in range(args.iterations):
            where = f"seed {args.seed}, mutant {number}"
            if rng.random() < 0.8:
                status, _, _, _ = exchange(server.port, http_mutant(rng, server.port, photos), time_limit=15)
                assert status != 500, f"{where}: 500"
            else:
                sock, status, _, _ = upgrade(server.port, f"/v1/stream/{rng.choice(TASKS)}",
                                             {"Origin": f"http://{HOST}:{server.port}"})
                with sock:
                    if status == 101:
                        try:
                            for _ in range(rng.randint(1, 5)):
                                opcode, payload = stream_mutant(rng)
                                if rng.random() < 0.3:
                                    sock.sendall(raw_frames(rng, payload))
                                else:
                                    ws_send(sock, opcode, payload)
                        except OSError:
                            pass
            assert server.proc.poll() is None, f"{where}: the server died ({server.proc.returncode})"
            if number % 50 == 49:
                server.assert_alive()
                print(f"{number + 1} mutants, the server answers", flush=True)
        server.assert_alive()
        print(f"fuzz: {args.iterations} mutants from seed {args.seed}: no crash, no 500", flush=True)
        with tempfile.TemporaryDirectory() as folder:
            run = subprocess.run(
                [str(SCHEMATHESIS), "run", f"http://{HOST}:{server.port}/openapi.json", "--checks",
                 "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
                 "--max-examples", str(args.schemathesis_examples), "--seed", str(args.seed), "--workers", "1",
                 "--request-timeout", "30", "--no-color"], cwd=folder)
        server.assert_alive()
        return run.returncode
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(main())
