"""Scene text: words found in photos against ICDAR 2015's published word transcriptions.

Data (eval/data/scenetext, eval/README.md): 40 test images of the ICDAR 2015 Robust Reading Competition's
"Incidental Scene Text" challenge (street and shop photos taken with Google Glass, 1280×720), drawn at
random by eval/make_scenetext_data.py, and truth.json, each image's words ({"text", "points"}) as ICDAR
publishes them; a word marked "###" (unreadable to the annotators) is ignored.

A word is compared lower-cased with everything but letters and digits taken out (a transcription with
a space in it counts as its words); words that are empty then are left out on both sides. Word recall:
the share of the ground truth's words found among the recognised words of the same image, one to one
(each recognised word matches at most one word of the truth). Word precision: the share of recognised words
that match one. Reading order in a photo is not defined, so no character accuracy of a concatenated text
is given. Speed: CPU ms per image on one core (`taskset -c 0`): ours the marginal time of an image in one
CLI run (all images less the first alone), the peer's the mean of its per-image runs (each loads the model,
as the command is used). Set EVAL_SCENETEXT_DETAIL=1 to print each image's words.
Ours: `swiftvision text --json` (English, the default accurate level). Peers: the `tesseract` command
(Debian's Tesseract 5, English, its default page segmentation) on the same files, and rapidocr-onnxruntime 1.4.4
(PaddleOCR's PP-OCRv4 detector, direction classifier and recogniser on ONNX Runtime, one thread; the eval venv,
scripts/setup-eval-env.sh), its CPU ms measured as ours (one run over all images less the first alone).
The same photos are read again turned half a turn (TURNS: the published photos turned by that rule, each written as
a PNG of the same pixels moved, nothing re-encoded), by every side, and scored against the same published words
(words are matched by their text, so the truth needs no turning); those rows end in ", turned 180°".
"""
import collections
import json
import os
import pathlib
import re
import resource
import shutil
import subprocess
import sys
import tempfile

TITLE = "Scene text"
PEER = "tesseract command (eng)"
SECOND_PEER = "rapidocr 1.4.4 (PP-OCRv4)"
RAPIDOCR = (
    "import json, sys\n"
    "from rapidocr_onnxruntime import RapidOCR\n"
    "engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)\n"
    "for path in sys.argv[1:]:\n"
    "    result, _ = engine(path)\n"
    "    print(json.dumps({'file': path, 'text': ' '.join(r[1] for r in result or [])}))\n"
)
DONT_CARE = "###"
QUICK_IMAGES = 8
# The photos are read again turned by these degrees, clockwise.
TURNS = (180,)


def words(text):
    """The comparable words of `text`: lower-cased, letters and digits only, empty ones left out."""
    return [w for w in (re.sub(r"[^0-9a-z]", "", token) for token in text.lower().split()) if w]


def matched(truth, found):
    """How many of the words `truth` are among `found`, one to one."""
    counts = collections.Counter(found)
    return sum(min(n, counts[w]) for w, n in collections.Counter(truth).items())


def cpu_seconds(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return output, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def ours(binary, paths, prefix):
    """The recognised text per path and the marginal CPU ms per image of one run."""
    output, seconds = cpu_seconds(prefix + [binary, "text", "--json"] + [str(p) for p in paths])
    texts = {}
    for line in output.splitlines():
        record = json.loads(line)
        texts[record["file"]] = record.get("text", "")
    one = min(cpu_seconds(prefix + [binary, "text", "--json", str(paths[0])])[1] for _ in range(2))
    return [texts.get(str(p), "") for p in paths], (seconds - one) * 1000 / max(1, len(paths) - 1)


def peer(paths, prefix):
    """The tesseract command's text per path and its mean CPU ms per image."""
    if shutil.which("tesseract") is None:
        raise Skip("the tesseract command is missing")  # noqa: F821 (injected by eval/run.py)
    texts, total = [], 0.0
    for path in paths:
        text, seconds = cpu_seconds(prefix + ["tesseract", str(path), "stdout", "-l", "eng"])
        texts.append(text)
        total += seconds
    return texts, total * 1000 / len(paths)


def rapidocr(paths, prefix):
    """rapidocr's text per path and its marginal CPU ms per image, as `ours`; None without rapidocr."""
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        return None
    command = prefix + [sys.executable, "-c", RAPIDOCR]
    output, seconds = cpu_seconds(command + [str(p) for p in paths])
    texts = {json.loads(line)["file"]: json.loads(line)["text"] for line in output.splitlines()}
    one = min(cpu_seconds(command + [str(paths[0])])[1] for _ in range(2))
    return [texts.get(str(p), "") for p in paths], (seconds - one) * 1000 / max(1, len(paths) - 1)


def turned(paths, folder, degrees):
    """Copies of the photos `paths` turned `degrees` clockwise (90, 180 or 270) in `folder`, as PNG: the same
    pixels moved, nothing re-encoded."""
    import cv2

    code = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}[degrees]
    out = []
    for path in paths:
        target = folder / f"{path.stem}_turned{degrees}.png"
        cv2.imwrite(str(target), cv2.rotate(cv2.imread(str(path), cv2.IMREAD_COLOR), code))
        out.append(target)
    return out


def scored(binary, names, paths, expected, prefix, suffix=""):
    """The rows of every side on `paths`, each metric's name ending in `suffix`."""
    found, ms = {}, {}
    sides = [("ours", ours(binary, paths, prefix)), ("peer", peer(paths, prefix))]
    second = rapidocr(paths, prefix)
    if second is not None:
        sides.append(("second", second))
    for side, (texts, side_ms) in sides:
        found[side] = [words(t) for t in texts]
        ms[side] = side_ms
    hits = {side: [matched(e, f) for e, f in zip(expected, found[side])] for side in found}
    if os.environ.get("EVAL_SCENETEXT_DETAIL"):
        for index, name in enumerate(names):
            print(f"  {name}{suffix}: truth {expected[index]}; "
                  + "; ".join(f"{side} {found[side][index]} ({hits[side][index]})" for side in found))
    truth_words = sum(len(e) for e in expected)

    metrics = [
        ("word recall", lambda side: sum(hits[side]) / truth_words, truth_words),
        ("word precision", lambda side: sum(hits[side]) / max(1, sum(len(f) for f in found[side])), len(names)),
        ("images with a word found", lambda side: sum(h > 0 for h in hits[side]) / len(names), len(names)),
        ("recognised words", lambda side: str(sum(len(f) for f in found[side])), len(names)),
        ("CPU ms per image, one core", lambda side: ms[side], len(names)),
    ]
    peers = [("peer", PEER)] + ([("second", SECOND_PEER)] if "second" in found else [])
    return [{"metric": metric + suffix, "ours": value("ours"), "peer": value(side), "peer_name": name, "items": items}
            for side, name in peers for metric, value, items in metrics]


def run(context):
    folder = context.data / "scenetext"
    truth_file = folder / "truth.json"
    if not truth_file.exists():
        raise Skip("eval/data/scenetext/truth.json is missing (eval/README.md, Scene text)")  # noqa: F821
    if not os.path.exists(context.binary):
        raise Skip(f"{context.binary} is missing (swift build -c release)")  # noqa: F821
    truth = json.loads(truth_file.read_text(encoding="utf-8"))
    names = sorted(truth, key=lambda name: int(re.sub(r"\D", "", name)))
    if context.quick:
        names = names[:QUICK_IMAGES]
    paths = [folder / name for name in names]
    expected = [[w for word in truth[name] if word["text"] != DONT_CARE for w in words(word["text"])]
                for name in names]
    prefix = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    rows = scored(context.binary, names, paths, expected, prefix)
    with tempfile.TemporaryDirectory() as temp:
        for degrees in TURNS:
            rows += scored(context.binary, names, turned(paths, pathlib.Path(temp), degrees), expected, prefix,
                           f", turned {degrees}°")
    return rows
