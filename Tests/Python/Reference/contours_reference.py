"""OpenCV's border following and polygon simplification on 8-bit binary PNGs, for EdgeMapTests to compare
SwiftVision's own with: cv2.findContours with CHAIN_APPROX_SIMPLE in the all-outlines mode (RETR_LIST) and the
outermost-only mode (RETR_EXTERNAL), and cv2.approxPolyDP of each of the former as a closed polygon.

Usage: contours_reference.py IMAGE...
Prints one JSON object per image, a line each: the file; "all" and "outermost", the outlines as flat
[x0, y0, x1, y1, ...] lists in OpenCV's order; and "simplified", for each tolerance in TOLERANCES, the
simplification of each of "all" in the same flat form.
"""
import json
import sys

import cv2

TOLERANCES = [1.5, 6.0]


def flat(points):
    return [int(value) for value in points.reshape(-1)]


cv2.setNumThreads(1)
for path in sys.argv[1:]:
    image = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 2:
        sys.exit(f"{path}: not an 8-bit gray image")
    every = cv2.findContours(image, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]
    outermost = cv2.findContours(image, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    simplified = {
        str(tolerance): [flat(cv2.approxPolyDP(outline, tolerance, True)) for outline in every] for tolerance in TOLERANCES
    }
    print(json.dumps({"file": path, "all": [flat(c) for c in every], "outermost": [flat(c) for c in outermost],
                      "simplified": simplified}))
