"""Independent decodes for ImageCodecTests of what OpenCV 4.6's reader lacks: GIF and animated WebP, read by
Pillow (its first frame, as RGB) from files Pillow writes in the layouts those formats allow.

Usage: pillow_reference.py MEDIA_DIR OUT_DIR
Writes each file into OUT_DIR, then Pillow's decode of its first frame as raw 8-bit BGR (NAME.bgr), and
prints one JSON list: file, width, height, pixels.
"""
import json
import os
import sys

import numpy as np
from PIL import Image

media, out = sys.argv[1], sys.argv[2]
chelsea = Image.open(os.path.join(media, "chelsea.png")).convert("RGB")
astronaut = Image.open(os.path.join(media, "astronaut.png")).convert("RGB")
chelsea.info.clear()
astronaut.info.clear()

variants = {
    # A photo quantised to its own 256-colour palette (what a screenshot or web GIF holds).
    "chelsea-adaptive.gif": lambda p: chelsea.quantize(256).save(p),
    # An odd size, dithered to the web palette.
    "astronaut-odd-web.gif": lambda p: astronaut.crop((3, 5, 402, 338)).convert("P", palette=Image.Palette.WEB).save(p),
    # Gray levels, and two colours (a small colour table).
    "chelsea-gray.gif": lambda p: chelsea.convert("L").save(p),
    "chelsea-two-colours.gif": lambda p: chelsea.convert("1").save(p),
    # An animation: the first frame is the still.
    "animation.gif": lambda p: chelsea.quantize(64).save(
        p, save_all=True, append_images=[chelsea.rotate(90).quantize(64), astronaut.resize(chelsea.size).quantize(64)],
        duration=100, loop=0),
    # Animated WebP, lossy and lossless: the first frame is the still.
    "animation-lossy.webp": lambda p: chelsea.save(
        p, save_all=True, append_images=[chelsea.rotate(90), astronaut.resize(chelsea.size)], duration=100, quality=80),
    "animation-lossless.webp": lambda p: astronaut.crop((3, 5, 402, 338)).save(
        p, save_all=True, append_images=[astronaut.crop((10, 10, 409, 343))], duration=100, lossless=True),
}

listing = []
for name, write in variants.items():
    path = os.path.join(out, name)
    write(path)
    with Image.open(path) as image:
        image.seek(0)
        rgb = np.asarray(image.convert("RGB"))
    pixels = name + ".bgr"
    np.ascontiguousarray(rgb[:, :, ::-1]).tofile(os.path.join(out, pixels))
    listing.append({"file": name, "width": rgb.shape[1], "height": rgb.shape[0], "pixels": pixels})
print(json.dumps(listing))
