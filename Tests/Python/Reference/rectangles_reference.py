"""The standard document-scanner pipeline in OpenCV: the peer and reference of SwiftVision's rectangle detector.

Gray image, 5×5 Gaussian blur, Canny (50, 150), outer contours (RETR_EXTERNAL), each simplified by
approxPolyDP at 2 % of its perimeter; the convex four-cornered ones whose area is at least 1 % of the
image's, largest first, corners ordered from the top left clockwise (as RectangleDetector reports them).

Usage: rectangles_reference.py IMAGE...
           prints {IMAGE: [[[x, y] × 4], ...]} as one JSON object, largest first.
       rectangles_reference.py --serve
           for swiftvision-bench (Benchmarks/timing.py's serve): prints {"opencv_version": ...}, then for each
           line "find IMAGE" on standard input times one call on that image, decoded on its first request
           outside the timing as cv2.imread gives it (BGR), and prints {"ms", "count", "corners" (the
           largest's, or null), "peak_mib"}.
"""

import functools
import json
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Benchmarks"))
from timing import pin_threads, serve, timed_ms  # noqa: E402

# The share of the image's area below which a quadrilateral is left out.
MINIMUM_AREA = 0.01


def ordered(corners):
    """Four corners from the top left, clockwise (in image coordinates, y down)."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ring = corners[np.argsort(angles)]
    first = int(np.argmin(ring.sum(axis=1)))
    return np.roll(ring, -first, axis=0)


def rectangles(image):
    """The convex four-cornered outlines in a BGR (or gray) image, largest first."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    contours, _ = cv2.findContours(cv2.Canny(blurred, 50, 150), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    minimum = MINIMUM_AREA * gray.shape[0] * gray.shape[1]
    found = []
    for contour in sorted(contours, key=cv2.contourArea, reverse=True):
        if cv2.contourArea(contour) < minimum:
            break
        approx = cv2.approxPolyDP(contour, 0.02 * cv2.arcLength(contour, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            found.append(ordered(approx.reshape(4, 2).astype(float)).tolist())
    return found


def serve_rectangles():
    """Answers one timed search per requested image, until the end of standard input."""
    pin_threads()
    images = functools.cache(cv2.imread)

    def answer(kind, path):
        ms, found = timed_ms(rectangles, images(path))
        return {"ms": ms, "count": len(found), "corners": found[0] if found else None}
    serve({"opencv_version": cv2.__version__}, answer)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve_rectangles()
    else:
        print(json.dumps({path: rectangles(cv2.imread(path)) for path in sys.argv[1:]}))
