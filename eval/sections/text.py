"""Text: character accuracy (1 − character error rate) on Tesseract's published test pages.

Data (eval/data/text, eval/README.md): the pages of the tesseract-ocr/test repository's testing/ folder
that have an English or Latin-script ground truth beside them: phototest (and its three rotated copies,
which share its truth), eurotext, and the two UNLV pages 8071_093.3B and 8087_054.3B.
Both texts are compared with runs of white space made one space; the error is the Levenshtein distance
in characters over the length of the truth, and the accuracy 1 − that (at least 0), over all pages
together (the sum of distances over the sum of lengths) and per page.
Ours: `swiftvision text --json` (English, the default accurate level). Peer: the `tesseract` command
(Debian's Tesseract 5, English, its default page segmentation) on the same files.
"""
import json
import shutil
import subprocess

TITLE = "Text"

# Each page and its ground truth (the rotated copies of phototest share its text).
PAGES = [
    ("phototest.tif", "phototest.txt"),
    ("phototest-rotated-180.png", "phototest.txt"),
    ("phototest-rotated-L.png", "phototest.txt"),
    ("phototest-rotated-R.png", "phototest.txt"),
    ("eurotext.tif", "eurotext.txt"),
    ("8071_093.3B.tif", "8071_093.3B.txt"),
    ("8087_054.3B.tif", "8087_054.3B.txt"),
]
QUICK_PAGES = ["phototest.tif", "phototest-rotated-L.png"]


def flat(text):
    return " ".join(text.split())


def distance(a, b):
    """Levenshtein distance between the strings `a` and `b` (insertions, deletions, substitutions)."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def ours(binary, paths):
    command = [binary, "text", "--json"] + [str(p) for p in paths]
    lines = subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()
    texts = {}
    for line in lines:
        record = json.loads(line)
        texts[record["file"]] = record.get("text", "")
    return [texts.get(str(p), "") for p in paths]


def peer(paths):
    if shutil.which("tesseract") is None:
        raise Skip("the tesseract command is missing")
    return [subprocess.run(["tesseract", str(p), "stdout", "-l", "eng"], check=True, capture_output=True,
                           text=True).stdout for p in paths]


def run(context):
    folder = context.data / "text"
    if not folder.exists():
        raise Skip(f"{folder} is missing")
    pages = [(image, truth) for image, truth in PAGES if not context.quick or image in QUICK_PAGES]
    paths = [folder / image for image, _ in pages]
    truths = [flat((folder / truth).read_text(encoding="utf-8")) for _, truth in pages]
    results = {"ours": [flat(t) for t in ours(context.binary, paths)], "peer": [flat(t) for t in peer(paths)]}
    errors = {name: [distance(found, truth) for found, truth in zip(texts, truths)] for name, texts in results.items()}

    def accuracy(errors_, truths_):
        return max(0.0, 1 - sum(errors_) / sum(len(t) for t in truths_))

    rows = [{"metric": "character accuracy, all pages", "ours": accuracy(errors["ours"], truths),
             "peer": accuracy(errors["peer"], truths), "peer_name": "tesseract command (eng)",
             "items": len(pages)}]
    for index, (image, _) in enumerate(pages):
        rows.append({"metric": f"character accuracy, {image}", "ours": accuracy([errors["ours"][index]], [truths[index]]),
                     "peer": accuracy([errors["peer"][index]], [truths[index]]), "peer_name": "tesseract command (eng)",
                     "items": 1})
    return rows
