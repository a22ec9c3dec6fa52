"""Barcodes: the share of zxing-cpp's published sample images whose expected text is read.

Data (eval/data/barcodes, eval/README.md): every image of zxing-cpp's test/samples that has an expected
text (`N.txt` beside `N.png|jpg|webp`), all formats, the false-positive folders left out. An image counts as
read when one of the codes found in it has exactly the expected text. zxing-cpp writes UPC-E as its
13-digit EAN-13 form; a reader that gives the symbol's own 8 digits is compared in that form.
Ours: `swiftvision barcodes --json` (all formats, full effort). Peer: zxing-cpp's Python binding with its
default options (Tests/Python/Reference/zxing_peer.py in the reference environment), on the same files.
"""
import collections
import json
import subprocess

TITLE = "Barcodes"

IMAGE_TYPES = (".png", ".jpg", ".webp")
# The quick slice: the first three images of each format's first folder.
QUICK_PER_FORMAT = 3


def upce_as_ean13(digits):
    """The 13-digit form of an 8-digit UPC-E code (number system, 6 digits, check digit)."""
    if len(digits) != 8 or not digits.isdigit():
        return digits
    system, body, check = digits[0], digits[1:7], digits[7]
    last = body[5]
    if last in "012":
        middle = body[0:2] + last + "0000" + body[2:5]
    elif last == "3":
        middle = body[0:3] + "00000" + body[3:5]
    elif last == "4":
        middle = body[0:4] + "00000" + body[4]
    else:
        middle = body[0:5] + "0000" + last
    return "0" + system + middle + check


def forms(format_name, text):
    """The texts a code of `format_name` reading `text` may be written as in zxing-cpp's expected files."""
    kind = "".join(c for c in format_name.lower() if c.isalnum())
    found = {text}
    if kind == "upce":
        found.add(upce_as_ean13(text))
    if kind == "upca" and len(text) == 12:
        found.add("0" + text)
    if kind == "codabar":
        found.update(start + text + stop for start in "ABCD" for stop in "ABCD")
    if kind.startswith("databar") or kind.startswith("rss"):
        plain = text.replace("(", "").replace(")", "")
        found.add(plain)
        if len(plain) == 14 and plain.isdigit():
            found.add("01" + plain)
    return found


def samples(folder, quick):
    found = []
    for family in sorted(p for p in folder.iterdir() if p.is_dir()):
        images = sorted(p for p in family.iterdir() if p.suffix in IMAGE_TYPES and p.with_suffix(".txt").exists())
        if quick:
            if not family.name.endswith("-1"):
                continue
            images = images[:QUICK_PER_FORMAT]
        found += images
    return found


def ours(binary, paths):
    command = [binary, "barcodes", "--json"] + [str(p) for p in paths]
    lines = subprocess.run(command, capture_output=True, text=True).stdout.splitlines()
    texts = {}
    for line in lines:
        record = json.loads(line)
        if "barcodes" not in record:
            continue
        texts[record["file"]] = set().union(*(forms(code["format"], code["text"]) for code in record["barcodes"]))
    return [texts.get(str(p), set()) for p in paths]


def peer(context, paths):
    python = context.cache / "venv" / "bin" / "python"
    script = context.root / "Tests" / "Python" / "Reference" / "zxing_peer.py"
    if not python.exists():
        raise Skip(f"the reference environment {python} is missing (scripts/setup-reference-env.sh)")
    found = {}
    for start in range(0, len(paths), 200):  # keeps each command line short
        chunk = [str(p) for p in paths[start:start + 200]]
        output = subprocess.run([str(python), str(script)] + chunk, check=True, capture_output=True, text=True).stdout
        found.update(json.loads(output))
    return [set().union(*(forms(name, text) for name, text, _ in found[str(p)])) for p in paths]


def run(context):
    folder = context.data / "barcodes"
    if not folder.exists():
        raise Skip(f"{folder} is missing")
    paths = samples(folder, context.quick)
    expected = [p.with_suffix(".txt").read_text(encoding="utf-8", errors="surrogateescape") for p in paths]
    mine = ours(context.binary, paths)
    theirs = peer(context, paths)
    families = collections.defaultdict(lambda: [0, 0, 0])
    for path, text, a, b in zip(paths, expected, mine, theirs):
        family = families[path.parent.name.rsplit("-", 1)[0]]
        family[0] += text in a
        family[1] += text in b
        family[2] += 1
    total = len(paths)
    rows = [{"metric": "read / images, all formats", "ours": sum(f[0] for f in families.values()) / total,
             "peer": sum(f[1] for f in families.values()) / total, "peer_name": "zxing-cpp 3.1.1 (Python)", "items": total}]
    for name, (a, b, count) in sorted(families.items()):
        rows.append({"metric": f"read / images, {name}", "ours": a / count, "peer": b / count,
                     "peer_name": "zxing-cpp 3.1.1 (Python)", "items": count})
    return rows
