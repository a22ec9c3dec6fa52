"""Seeded tracking on OTB-100 sequences (eval/README.md): `swiftvision track` at both levels against OpenCV's
CSRT, KCF and MIL, each started on the first frame's ground-truth box and run on the same decoded frames.

Metrics as OTB defines them, over every frame after the seed frame: success AUC (the mean, over the 21 IoU
thresholds 0, 0.05 … 1, of the share of frames whose IoU with the ground truth exceeds the threshold),
precision at 20 px (the share of frames whose box centre is within 20 px of the ground truth's), and the
wrongly-lost share: of the frames where the target is visible (at least half of its ground-truth box inside
the frame), those where the tracker reports it lost (ours: `lost`; a peer: its `update` returned false). A
frame reported lost has no box: IoU 0, centre error infinite.
"""
import json
import subprocess

import numpy as np

TITLE = "Seeded tracking (OTB-100 sequences)"
# name: what it tests (OTB-100's attributes for the sequence are in eval/README.md).
SEQUENCES = {
    "crossing": "a walking man among others, deformation, scale",
    "girl": "turning round on a chair (out-of-plane and in-plane rotation), 1.9x scale, occlusion",
    "jumping": "fast motion (36 px/frame) with motion blur",
    "skiing": "a small skier turning, 3.6x scale",
    "biker": "45 px/frame, 2x scale, occlusion, leaving the frame",
    "motorrolling": "a motorbike flipping (rotation), fast motion, scale",
}
# The slice `make test` runs: the first 60 frames of two sequences.
QUICK = {"crossing": 60, "girl": 60}
THRESHOLDS = np.linspace(0, 1, 21)
PEERS = {"CSRT": "TrackerCSRT_create", "KCF": "TrackerKCF_create", "MIL": "TrackerMIL_create"}


def ground_truth(path):
    return np.array([[float(v) for v in line.split(",")] for line in path.read_text().split("\n") if line.strip()])


def ours(binary, video, seed, level, frames):
    """Boxes (None when reported lost) of `swiftvision track` for the first `frames` frames."""
    command = [binary, "track", str(video), "--box", ",".join(f"{v:g}" for v in seed), "--level", level, "--json"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    boxes = []
    for line in process.stdout:
        record = json.loads(line)
        if "tracks" not in record:
            process.kill()
            raise RuntimeError(f"track on {video.name}: {record.get('error', record)}")
        track = record["tracks"][0]
        box = track["boundingBox"]
        boxes.append(None if track["lost"] else (box["x"], box["y"], box["width"], box["height"]))
        if len(boxes) == frames:
            break
    if len(boxes) < frames:
        process.wait()
        raise RuntimeError(f"track gave {len(boxes)} of {frames} frames of {video.name}: {process.stderr.read()[-500:]}")
    process.kill()
    process.wait()
    return boxes


def peer(cv2, name, video, seed, frames):
    """Boxes (None where update returned false) of OpenCV's tracker `name` on the same frames."""
    capture = cv2.VideoCapture(str(video))
    tracker = getattr(cv2, PEERS[name])()
    boxes = []
    while len(boxes) < frames:
        ok, frame = capture.read()
        if not ok:
            raise RuntimeError(f"{video.name} ended after {len(boxes)} of {frames} frames")
        if not boxes:
            tracker.init(frame, tuple(int(round(v)) for v in seed))
            boxes.append(tuple(seed))
            continue
        ok, box = tracker.update(frame)
        boxes.append(tuple(box) if ok else None)
    return boxes, frame.shape[1], frame.shape[0]


def scores(boxes, truth, width, height):
    """Success AUC, precision at 20 px and the wrongly-lost share over the frames after the seed."""
    ious, errors, visible, lost = [], [], 0, 0
    for box, gt in zip(boxes[1:], truth[1:]):
        if not (np.all(np.isfinite(gt)) and gt[2] > 0 and gt[3] > 0):
            continue
        inside = max(0, min(gt[0] + gt[2], width) - max(gt[0], 0)) * max(0, min(gt[1] + gt[3], height) - max(gt[1], 0))
        if inside >= 0.5 * gt[2] * gt[3]:
            visible += 1
            lost += box is None
        if box is None:
            ious.append(0.0)
            errors.append(np.inf)
            continue
        x, y, w, h = box
        overlap = max(0, min(x + w, gt[0] + gt[2]) - max(x, gt[0])) * max(0, min(y + h, gt[1] + gt[3]) - max(y, gt[1]))
        union = w * h + gt[2] * gt[3] - overlap
        ious.append(overlap / union if union > 0 else 0.0)
        errors.append(np.hypot(x + w / 2 - gt[0] - gt[2] / 2, y + h / 2 - gt[1] - gt[3] / 2))
    ious, errors = np.array(ious), np.array(errors)
    auc = float(np.mean([(ious > t).mean() for t in THRESHOLDS]))
    return {"auc": auc, "precision": float((errors <= 20).mean()), "lost": lost / visible if visible else 0.0, "frames": len(ious)}


def run(context):
    try:
        import cv2
    except ImportError:
        raise Skip("no OpenCV for Python (make eval's eval-venv has it)")
    if not hasattr(cv2, "TrackerCSRT_create"):
        raise Skip("this OpenCV for Python has no contrib trackers (opencv-contrib-python has them)")
    folder = context.data / "tracking"
    if not (folder / "crossing.avi").exists():
        raise Skip(f"no sequences in {folder}")
    chosen = QUICK if context.quick else {name: None for name in SEQUENCES}
    results = {}
    for name, limit in chosen.items():
        video, truth = folder / f"{name}.avi", ground_truth(folder / f"{name}.txt")
        frames = min(limit or len(truth), len(truth))
        truth = truth[:frames]
        row = {}
        for peer_name in PEERS:
            boxes, width, height = peer(cv2, peer_name, video, truth[0], frames)
            row[peer_name] = scores(boxes, truth, width, height)
        for level in ("fast", "accurate"):
            row[level] = scores(ours(context.binary, video, truth[0], level, frames), truth, width, height)
        results[name] = row
    rows = []
    pairs = [("accurate", "CSRT"), ("fast", "KCF")]
    for name, row in results.items():
        for level, peer_name in pairs:
            rows.append(metric_row(f"success AUC, {level}: {name}", row[level]["auc"], row[peer_name]["auc"], peer_name, row[level]["frames"]))
    frames = sum(row["fast"]["frames"] for row in results.values())
    for key, label in (("auc", "success AUC"), ("precision", "precision at 20 px"), ("lost", "wrongly lost")):
        for level, peer_name in pairs + [("accurate", "MIL")]:
            mean = lambda who: float(np.mean([row[who][key] for row in results.values()]))
            rows.append(metric_row(f"{label}, {level} vs {peer_name}: mean", mean(level), mean(peer_name), peer_name, frames))
    for level, peer_name in pairs:
        worst = min(results, key=lambda name: results[name][level]["auc"] - results[name][peer_name]["auc"])
        gap = results[worst][level]["auc"] - results[worst][peer_name]["auc"]
        rows.append(metric_row(f"worst AUC gap, {level} - {peer_name}: {worst}", gap, 0.0, peer_name, results[worst][level]["frames"]))
    rows.append(metric_row("wrongly lost, accurate: worst sequence", max(row["accurate"]["lost"] for row in results.values()),
                           max(row["CSRT"]["lost"] for row in results.values()), "CSRT", frames))
    return rows


def metric_row(metric, ours_value, peer_value, peer_name, items):
    return {"metric": metric, "ours": ours_value, "peer": peer_value, "peer_name": peer_name, "items": items}
