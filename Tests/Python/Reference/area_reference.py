"""OpenCV's own area-averaging shrink (cv2.INTER_AREA, the pip wheel's build) of a crop of a PNG, for
PixelBufferTests to compare SwiftVision's own area shrink with.

Usage: area_reference.py IMAGE X Y WIDTH HEIGHT OUT_WIDTH OUT_HEIGHT
Prints one JSON object: width, height and the RGB pixels, row by row, base64-encoded.
"""
import base64
import json
import sys

import cv2

path, x, y, width, height, out_width, out_height = sys.argv[1], *map(int, sys.argv[2:])
cv2.setNumThreads(1)
crop = cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)[y:y + height, x:x + width]
shrunk = cv2.resize(crop, (out_width, out_height), interpolation=cv2.INTER_AREA)
print(json.dumps({"width": out_width, "height": out_height, "pixels": base64.b64encode(shrunk.tobytes()).decode()}))
