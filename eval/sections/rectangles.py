"""Rectangles: corner error in pixels against MIDV-500's published document corners.

Data: eval/data/rectangles/, 30 MIDV-500 video frames of identity documents (two of each of its 15 document
types in the copy taken, drawn at random) and truth.json, {"IMAGE": [[x, y] × 4]}, the document's corners from
its top left, clockwise, as MIDV-500 publishes them (halved with the frame; eval/README.md and
eval/make_rectangles_data.py). Ours is `swiftvision rectangles --json` with its defaults (the most prominent
rectangle, as Vision's VNDetectRectanglesRequest); the peer is the OpenCV contour pipeline of
Tests/Python/Reference/rectangles_reference.py (its largest quadrilateral), run from the set-up's venv.

A rectangle detector cannot know which corner is the document's top left (the card may lie turned), so an
image's corner error is the mean distance between found and marked corners at the best of the four cyclic
starts, both clockwise. Set EVAL_RECTANGLES_DETAIL=1 to print each image's errors.
"""
import json
import os
import statistics
import subprocess

TITLE = "Rectangles"
PEER = "OpenCV contour pipeline"
# The mean corner error up to which a found rectangle counts as the document (about 1 % of the frame's diagonal).
RIGHT_PX = 10.0


def corner_error(corners, marked):
    """Mean distance between the corners and the marked ones at the best cyclic start; None when not found."""
    if corners is None:
        return None
    return min(sum(((x - u) ** 2 + (y - v) ** 2) ** 0.5
                   for (x, y), (u, v) in zip(corners[shift:] + corners[:shift], marked)) / 4
               for shift in range(4))


def ours(binary, paths):
    lines = subprocess.run([binary, "rectangles", "--json"] + [str(p) for p in paths],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    found = {}
    for line in lines:
        record = json.loads(line)
        rectangles = record.get("rectangles") or []
        names = ("topLeft", "topRight", "bottomRight", "bottomLeft")
        found[record["file"]] = [[rectangles[0][c]["x"], rectangles[0][c]["y"]] for c in names] if rectangles else None
    return found


def peer(context, paths):
    python = context.cache / "venv" / "bin" / "python"
    script = context.root / "Tests" / "Python" / "Reference" / "rectangles_reference.py"
    output = subprocess.run([str(python), str(script)] + [str(p) for p in paths], check=True,
                            capture_output=True, text=True).stdout
    return {path: (found[0] if found else None) for path, found in json.loads(output).items()}


def run(context):
    folder = context.data / "rectangles"
    truth_file = folder / "truth.json"
    if not truth_file.exists():
        raise Skip("eval/data/rectangles/truth.json is missing (eval/README.md, Rectangles)")
    truth = json.loads(truth_file.read_text())
    paths = [folder / name for name in sorted(truth)]
    if context.quick:
        paths = paths[:6]
    errors = {}
    for side, found in (("ours", ours(context.binary, paths)), ("peer", peer(context, paths))):
        errors[side] = [corner_error(found.get(str(p)), truth[p.name]) for p in paths]
    if os.environ.get("EVAL_RECTANGLES_DETAIL"):
        for path, mine, theirs in zip(paths, errors["ours"], errors["peer"]):
            print(f"  {path.name}: ours {mine if mine is None else round(mine, 1)}, "
                  f"peer {theirs if theirs is None else round(theirs, 1)}")
    found = {side: [e for e in values if e is not None] for side, values in errors.items()}
    both = [(mine, theirs) for mine, theirs in zip(errors["ours"], errors["peer"])
            if mine is not None and theirs is not None]
    n = len(paths)

    def row(metric, value):
        return {"metric": metric, "ours": value("ours"), "peer": value("peer"), "peer_name": PEER, "items": n}

    return [
        row("found / images", lambda side: len(found[side]) / n),
        row(f"right (mean corner error ≤ {RIGHT_PX:g} px) / images",
            lambda side: sum(e <= RIGHT_PX for e in found[side]) / n),
        row("mean corner error, px (found ones)", lambda side: statistics.fmean(found[side]) if found[side] else "–"),
        row("median corner error, px (found ones)",
            lambda side: statistics.median(found[side]) if found[side] else "–"),
        {"metric": "median corner error, px (images both found)", "peer_name": PEER, "items": len(both),
         "ours": statistics.median(e for e, _ in both) if both else "–",
         "peer": statistics.median(e for _, e in both) if both else "–"},
    ]
