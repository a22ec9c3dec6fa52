"""zxing-cpp's Python binding with its default options on each image: prints {path: [[format, text, upce]]} as JSON.

The peer of SwiftVision's barcode reader: `upce` is a UPC-E symbol's own eight digits (zxing-cpp 3 reports
UPC-E as its 13-digit EAN-13 form), else "".
"""
import json
import sys

import cv2
import zxingcpp


def reads(path):
    image = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    found = []
    for barcode in zxingcpp.read_barcodes(image):
        found.append([str(barcode.format), barcode.text, (barcode.extra or {}).get("UPCE", "")])
    return found


print(json.dumps({path: reads(path) for path in sys.argv[1:]}))
