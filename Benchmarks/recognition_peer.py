"""Times the Python peers of barcode reading and text recognition on the same images as
swiftvision-bench and prints one JSON object.

Usage: recognition_peer.py ITERATIONS --barcodes IMAGE... --text IMAGE...
  barcodes: zxingcpp.read_barcodes on the decoded gray image (zxing-cpp's Python binding, default options);
  text:     the `tesseract IMAGE -` command, process start and model loading included.
"""

import json
import subprocess
import sys
from importlib.metadata import version

import cv2
import zxingcpp

from timing import median_ms


def main(iterations, arguments):
    iterations = int(iterations)
    split = arguments.index("--text")
    barcodes, texts = arguments[1:split], arguments[split + 1:]
    result = {"zxing_version": version("zxing-cpp"), "barcodes": {}, "text": {}}
    for path in barcodes:
        gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        found = zxingcpp.read_barcodes(gray)
        result["barcodes"][path] = {"ms": median_ms(lambda: zxingcpp.read_barcodes(gray), iterations),
                                    "count": len(found)}
    tesseract = subprocess.run(["tesseract", "--version"], capture_output=True, text=True)
    result["tesseract_version"] = (tesseract.stdout or tesseract.stderr).split("\n")[0]
    for path in texts:
        def read():
            return subprocess.run(["tesseract", path, "-"], capture_output=True, text=True, check=True).stdout
        words = len(read().split())
        result["text"][path] = {"ms": median_ms(read, max(1, iterations // 2)), "words": words}
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
