"""Independent decodes for the RGBA TIFF test: chelsea.png with an alpha that varies over the image,
written by Pillow as TIFF with unassociated alpha (ExtraSamples 2), uncompressed and LZW-compressed, and
Pillow's decode of each with the alpha dropped (the stored colours, not multiplied by the alpha); and a
32-bit floating-point gray TIFF (no pixels listed: it is to be refused).

Usage: tiff_alpha_reference.py MEDIA_DIR OUT_DIR
Writes each file into OUT_DIR, then Pillow's decode as raw 8-bit BGR (NAME.bgr), and prints one JSON list:
file, width, height, pixels.
"""
import json
import os
import sys

import numpy as np
from PIL import Image

media, out = sys.argv[1], sys.argv[2]
chelsea = np.array(Image.open(os.path.join(media, "chelsea.png")).convert("RGB"))
height, width = chelsea.shape[:2]
# Alpha from 0 at the left edge to 255 at the right, so that every level is met.
alpha = np.tile(np.linspace(0, 255, width).round().astype(np.uint8), (height, 1))
rgba = Image.fromarray(np.dstack([chelsea, alpha]), "RGBA")

listing = []
for name, compression in [("chelsea-rgba.tif", None), ("chelsea-rgba-lzw.tif", "tiff_lzw")]:
    path = os.path.join(out, name)
    rgba.save(path, compression=compression)
    decoded = np.array(Image.open(path).convert("RGB"))
    decoded[:, :, ::-1].tofile(path + ".bgr")
    listing.append({"file": name, "width": width, "height": height, "pixels": name + ".bgr"})
# A gray TIFF of 32-bit floating-point samples (Pillow's mode F); no decode: the test expects a refusal.
float_path = os.path.join(out, "chelsea-float.tif")
Image.fromarray(chelsea.mean(axis=2).astype(np.float32) / 255, "F").save(float_path)
with Image.open(float_path) as check:
    assert check.mode == "F" and check.tag_v2.get(339) in (3, (3,)), (check.mode, check.tag_v2.get(339))
listing.append({"file": "chelsea-float.tif", "width": width, "height": height, "pixels": ""})
print(json.dumps(listing))
