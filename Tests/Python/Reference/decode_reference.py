"""Independent decodes for ImageCodecTests: OpenCV's own cv2.imread (the pip wheel, with its own
libjpeg-turbo, libpng and libwebp builds) of JPEG, PNG and WebP files in the layouts those formats allow.

Usage: decode_reference.py MEDIA_DIR OUT_DIR
Writes each variant file into OUT_DIR, then cv2's decode of it as raw 8-bit BGR (NAME@R.bgr, R being the
JPEG reduction 1, 2, 4 or 8), and prints one JSON list: file, reduction, width, height, pixels.
"""
import json
import os
import sys

import cv2
import numpy as np
from PIL import Image

media, out = sys.argv[1], sys.argv[2]
chelsea = Image.open(os.path.join(media, "chelsea.png")).convert("RGB")
astronaut = Image.open(os.path.join(media, "astronaut.png")).convert("RGB")
# Pillow would copy chelsea's colour profile into every file it writes; the decoders never apply one.
chelsea.info.clear()
astronaut.info.clear()

def damaged(name, path):
    """The sample with 300 bytes from its middle flipped, as BadInputs.damagedInTheMiddle."""
    data = bytearray(open(os.path.join(media, name), "rb").read())
    for index in range(len(data) // 2, min(len(data), len(data) // 2 + 300)):
        data[index] ^= 0x55
    open(path, "wb").write(bytes(data))


variants = {
    # JPEG: the samples as shipped, and what other encoders write.
    "bus.jpg": None,
    "zidane.jpg": None,
    "chelsea-progressive.jpg": lambda p: chelsea.save(p, quality=90, progressive=True),
    "chelsea-444.jpg": lambda p: chelsea.save(p, quality=85, subsampling=0),
    "chelsea-gray.jpg": lambda p: chelsea.convert("L").save(p, quality=90),
    "chelsea-cmyk.jpg": lambda p: chelsea.convert("CMYK").save(p, quality=90),
    "astronaut-odd.jpg": lambda p: astronaut.crop((3, 5, 402, 338)).save(p, quality=75),
    # Damaged data that libjpeg reads with warnings (and an error after the last row).
    "bus-damaged.jpg": lambda p: damaged("bus.jpg", p),
    # PNG: 8-bit colour, palette (with and without transparency), gray at 1, 8 and 16 bits, 16-bit colour,
    # alpha, gray with alpha.
    "astronaut.png": None,
    "chelsea-palette.png": lambda p: chelsea.quantize(64).save(p),
    "chelsea-palette-trns.png": lambda p: chelsea.quantize(64).save(p, transparency=3),
    "chelsea-gray.png": lambda p: chelsea.convert("L").save(p),
    "chelsea-1bit.png": lambda p: chelsea.convert("1").save(p),
    "chelsea-gray16.png": lambda p: cv2.imwrite(p, (np.asarray(chelsea.convert("L"), np.uint16) * 257 + 91)),
    "chelsea-rgb16.png": lambda p: cv2.imwrite(p, np.asarray(chelsea, np.uint16)[:, :, ::-1] * 251),
    "chelsea-rgba.png": lambda p: Image.merge("RGBA", (*chelsea.split(), chelsea.convert("L"))).save(p),
    "chelsea-gray-alpha.png": lambda p: Image.merge("LA", (chelsea.convert("L"), chelsea.convert("L"))).save(p),
    # WebP: lossless, lossy, lossy with alpha.
    "chelsea-lossless.webp": lambda p: chelsea.save(p, lossless=True),
    "chelsea-lossy.webp": lambda p: chelsea.save(p, quality=80),
    "chelsea-alpha.webp": lambda p: Image.merge("RGBA", (*chelsea.split(), chelsea.convert("L"))).save(p, quality=80),
}
reductions = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}

listing = []
for name, make in variants.items():
    path = os.path.join(out, name)
    if make is None:
        with open(os.path.join(media, name), "rb") as source, open(path, "wb") as target:
            target.write(source.read())
    else:
        make(path)
    for reduction in (reductions if name.endswith(".jpg") else [1]):
        pixels = cv2.imread(path, reductions[reduction] | cv2.IMREAD_IGNORE_ORIENTATION)
        raw = f"{name}@{reduction}.bgr"
        with open(os.path.join(out, raw), "wb") as target:
            target.write(np.ascontiguousarray(pixels).tobytes())
        listing.append({"file": name, "reduction": reduction, "width": int(pixels.shape[1]),
                        "height": int(pixels.shape[0]), "pixels": raw})
print(json.dumps(listing))
