"""`make soak`: server-side sources held for minutes, against the real server.

Starts `swiftvision serve` with SOURCES file sources (a 4-second MJPEG video made from zidane.jpg and a
gray pause, looped) running `objects` at FPS frames a second with signed webhooks to a receiver on
loopback, and samples every 10 s: the server's resident memory (VmRSS), each source's frames in and out,
and the events the receiver verified. After a warm-up minute, the resident memory may grow by at most
GROWTH_MB, every source must keep producing results in every sample (none stuck), and every event must
arrive once. Prints a line per sample and a summary; exits 1 when a check fails.

Usage: soak_sources.py [--minutes 5] [--sources 8] [--fps 5] [--growth-mb 10]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_service_attacks import HOST, Server, request  # noqa: E402
from test_sources import SECRET, Receiver, write_people_video  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--sources", type=int, default=8)
    parser.add_argument("--fps", type=float, default=5.0)
    parser.add_argument("--growth-mb", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="swiftvision-soak-") as folder:
        folder = Path(folder)
        video = write_people_video(folder / "people.avi", seconds=2)
        receiver = Receiver(None)
        receiver.start()
        server = Server("--sources", str(folder / "sources.json"), "--source-root", str(folder), "--allow-webhook", HOST,
                        "--max-sources", str(args.sources))
        try:
            ids = []
            for index in range(args.sources):
                body = {"url": f"file://{video}", "task": "objects", "fps": args.fps, "loop": True,
                        "options": {"multiple": True, "classify": True},
                        "webhook": {"url": f"http://{HOST}:{receiver.port}/hook", "secret": SECRET}}
                status, _, answer, _ = request(server.port, "POST", "/v1/sources", json.dumps(body).encode(),
                                               {"Content-Type": "application/json"}, time_limit=60)
                assert status == 201, answer
                ids.append(json.loads(answer)["id"])
            print(f"soak: {args.sources} sources × {args.fps} fps of objects, {args.minutes} min, "
                  f"RSS growth allowed {args.growth_mb} MB after 1 min", flush=True)
            started = time.monotonic()
            samples, stuck, previous = [], [], {}
            while time.monotonic() - started < args.minutes * 60:
                time.sleep(10)
                status, _, body, _ = request(server.port, "GET", "/v1/sources", time_limit=30)
                sources = {s["id"]: s for s in json.loads(body)}
                rss = server.status("VmRSS") / 1024
                outputs = {ident: sources[ident]["framesOut"] for ident in ids}
                stalled = [ident for ident in ids if previous and outputs[ident] <= previous[ident]]
                if stalled:
                    stuck.append((round(time.monotonic() - started), stalled))
                previous = outputs
                elapsed = time.monotonic() - started
                samples.append((elapsed, rss))
                states = sorted({s["state"] for s in sources.values()})
                print(f"{elapsed:6.0f} s  RSS {rss:7.1f} MB  results {sum(outputs.values()):6d}  "
                      f"dropped {sum(s['framesDropped'] for s in sources.values()):6d}  events {len(receiver.events()):5d}  "
                      f"states {','.join(states)}", flush=True)
            after_warm_up = [rss for elapsed, rss in samples if elapsed >= 60]
            growth = (max(after_warm_up) - after_warm_up[0]) if after_warm_up else 0.0
            with receiver.lock:
                ids_seen = [post["id"] for post in receiver.posts]
            duplicates = len(ids_seen) - len(set(ids_seen))
            print(f"summary: RSS {after_warm_up[0] if after_warm_up else 0:.1f} → {after_warm_up[-1] if after_warm_up else 0:.1f} MB "
                  f"(largest growth {growth:.1f} MB), stuck samples {len(stuck)}, events {len(ids_seen)} "
                  f"({duplicates} delivered twice), invalid signatures {receiver.bad_signatures}")
            failed = growth > args.growth_mb or stuck or receiver.bad_signatures
            return 1 if failed else 0
        finally:
            server.close()
            receiver.stop()


if __name__ == "__main__":
    sys.exit(main())
