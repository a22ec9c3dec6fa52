"""OpenCV's line segment detector (cv2.createLineSegmentDetector() with its defaults, the pip wheel's build) on
8-bit gray PNGs, for LineSegmentDetectorTests to compare SwiftVision's own detector with.

Usage: line_segments_reference.py IMAGE...
Prints one JSON object per image, a line each: the file and its segments as [x1, y1, x2, y2] lists.
"""
import json
import sys

import cv2

cv2.setNumThreads(1)
detector = cv2.createLineSegmentDetector()
for path in sys.argv[1:]:
    gray = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if gray is None or gray.ndim != 2:
        sys.exit(f"{path}: not an 8-bit gray image")
    lines = detector.detect(gray)[0]
    segments = [] if lines is None else [[float(value) for value in line[0]] for line in lines]
    print(json.dumps({"file": path, "segments": segments}))
