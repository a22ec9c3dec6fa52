#!/usr/bin/env python3
"""`make eval`: every task and its peer on published, real data with ground truth.

Each module in eval/sections/ defines `TITLE` and `run(context) -> list[dict]`, one dict per table row:
{"metric": str, "ours": float|str, "peer": float|str, "peer_name": str, "items": int}. A section that
cannot run (its data or peer missing) raises `Skip` with the reason. `--quick` asks each section for the
small slice that `make test` runs; `--json FILE` writes every row as well.
"""
import argparse
import importlib.util
import json
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SECTIONS = ROOT / "eval" / "sections"


class Skip(Exception):
    """A section that cannot run here, with the reason."""


class Context:
    def __init__(self, quick, binary, cache):
        self.quick = quick
        self.binary = binary
        self.cache = cache
        self.data = ROOT / "eval" / "data"
        self.root = ROOT


def load(path):
    spec = importlib.util.spec_from_file_location(f"eval_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    module.Skip = Skip
    spec.loader.exec_module(module)
    return module


def cell(value):
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def print_table(title, rows):
    print(f"\n== {title}")
    header = ["metric", "ours", "peer", "peer value", "items"]
    lines = [[r["metric"], cell(r["ours"]), r.get("peer_name", ""), cell(r.get("peer", "")), str(r["items"])] for r in rows]
    widths = [max(len(h), *(len(l[i]) for l in lines)) if lines else len(h) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for line in lines:
        print("  ".join(c.ljust(w) for c, w in zip(line, widths)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the small slice that make test runs")
    parser.add_argument("--only", help="comma-separated section names")
    parser.add_argument("--json", help="write every row to this file")
    parser.add_argument("--binary", default=os.environ.get("SWIFTVISION_BINARY", str(ROOT / ".build/release/swiftvision")))
    args = parser.parse_args()
    cache = pathlib.Path(os.environ.get("SWIFTVISION_CACHE", pathlib.Path.home() / ".cache/swiftvision"))
    context = Context(args.quick, args.binary, cache)
    wanted = set(args.only.split(",")) if args.only else None
    results, failed = {}, False
    for path in sorted(SECTIONS.glob("*.py")):
        if path.stem.startswith("_") or (wanted and path.stem not in wanted):
            continue
        module = load(path)
        started = time.monotonic()
        try:
            rows = module.run(context)
        except Skip as reason:
            print(f"\n== {module.TITLE}: skipped ({reason})")
            continue
        except Exception as error:  # a section's failure is reported and the others go on
            print(f"\n== {module.TITLE}: failed: {error!r}")
            failed = True
            continue
        print_table(f"{module.TITLE} ({time.monotonic() - started:.0f} s)", rows)
        results[path.stem] = rows
        sys.stdout.flush()
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=2))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
