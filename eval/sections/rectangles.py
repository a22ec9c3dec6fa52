"""Rectangles: corner error in pixels against published corners — not run yet, for want of data.

A published set of photos of documents or cards with their corners marked (SmartDoc 2015 challenge 1,
MIDV-500) would give ours (`swiftvision rectangles --json`) and the OpenCV peer
(Tests/Python/Reference/rectangles_reference.py) each a mean corner error. None is carried by a registry package:
SmartDoc's frames and ground truth are release downloads, MIDV-500 is on an FTP server, and CI has no network;
the one public repository found to commit SmartDoc frames with their corners (amtam0/DeePaperScan) is too large
to fetch here. eval/README.md says what was looked at.
The section skips until such a selection is committed under eval/data/rectangles/ with a truth.json
({"IMAGE": [[x, y] × 4 from the top left, clockwise]}).
"""
import json
import subprocess

TITLE = "Rectangles"


def run(context):
    truth_file = context.data / "rectangles" / "truth.json"
    if not truth_file.exists():
        raise Skip("no published photos with marked corners are committed (eval/README.md, Rectangles)")
    truth = json.loads(truth_file.read_text())
    paths = [context.data / "rectangles" / name for name in sorted(truth)]
    if context.quick:
        paths = paths[:5]
    lines = subprocess.run([context.binary, "rectangles", "--json"] + [str(p) for p in paths],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    ours = {}
    for line in lines:
        record = json.loads(line)
        found = record.get("rectangles") or []
        corners = ("topLeft", "topRight", "bottomRight", "bottomLeft")
        ours[record["file"]] = [[found[0][c]["x"], found[0][c]["y"]] for c in corners] if found else None
    python = context.cache / "venv" / "bin" / "python"
    script = context.root / "Tests" / "Python" / "Reference" / "rectangles_reference.py"
    output = subprocess.run([str(python), str(script)] + [str(p) for p in paths], check=True,
                            capture_output=True, text=True).stdout
    peer = {path: (found[0] if found else None) for path, found in json.loads(output).items()}

    def error(corners, marked):
        if corners is None:
            return None
        return sum(((x - u) ** 2 + (y - v) ** 2) ** 0.5 for (x, y), (u, v) in zip(corners, marked)) / 4

    rows = []
    for name, found in (("ours", ours), ("peer", peer)):
        errors = [error(found.get(str(p)), truth[p.name]) for p in paths]
        rows.append([e for e in errors if e is not None])
    return [
        {"metric": "found / images", "ours": len(rows[0]) / len(paths), "peer": len(rows[1]) / len(paths),
         "peer_name": "OpenCV contour pipeline", "items": len(paths)},
        {"metric": "mean corner error, px (found ones)", "ours": sum(rows[0]) / max(len(rows[0]), 1),
         "peer": sum(rows[1]) / max(len(rows[1]), 1), "peer_name": "OpenCV contour pipeline", "items": len(paths)},
    ]
