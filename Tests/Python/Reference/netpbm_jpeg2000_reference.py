"""Independent decodes for the Netpbm and JPEG 2000 test: files written by Pillow (and, for the layouts
Pillow does not write, from Pillow's pixels by the formats' own rules), each decoded by Pillow.

Usage: netpbm_jpeg2000_reference.py MEDIA_DIR OUT_DIR
Writes each file into OUT_DIR, then Pillow's decode of it as raw 8-bit BGR (NAME.bgr), and prints one
JSON list: file, width, height, pixels.
"""
import json
import os
import sys

from PIL import Image

media, out = sys.argv[1], sys.argv[2]
chelsea = Image.open(os.path.join(media, "chelsea.png")).convert("RGB").crop((7, 3, 308, 224))
chelsea.info.clear()


def plain_ppm(path):
    """P3: the pixels as ASCII decimals, with a comment in the header (Netpbm allows one anywhere there)."""
    width, height = chelsea.size
    values = " ".join(str(value) for value in chelsea.tobytes())
    with open(path, "w") as file:
        file.write(f"P3\n# written by hand from Pillow's pixels\n{width} {height}\n255\n{values}\n")


def pam(path):
    """P7 (PAM) with the RGB tuple type, from Pillow's pixels."""
    width, height = chelsea.size
    with open(path, "wb") as file:
        file.write(f"P7\nWIDTH {width}\nHEIGHT {height}\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n".encode())
        file.write(chelsea.tobytes())


variants = {
    "chelsea.ppm": lambda p: chelsea.save(p),
    "chelsea.pgm": lambda p: chelsea.convert("L").save(p),
    "chelsea.pbm": lambda p: chelsea.convert("1").save(p),
    "chelsea-plain.ppm": plain_ppm,
    "chelsea.pam": pam,
    # Lossless (the reversible 5/3 wavelet), so that every decoder gives the same pixels.
    "chelsea.jp2": lambda p: chelsea.save(p, irreversible=False),
    "chelsea.j2k": lambda p: chelsea.save(p, irreversible=False),
}

listing = []
for name, write in variants.items():
    path = os.path.join(out, name)
    write(path)
    # Pillow reads no PAM: its truth is the pixels it was written from.
    decoded = chelsea if name.endswith(".pam") else Image.open(path)
    rgb = decoded.convert("RGB")
    red, green, blue = rgb.split()
    with open(path + ".bgr", "wb") as file:
        file.write(Image.merge("RGB", (blue, green, red)).tobytes())
    listing.append({"file": name, "width": rgb.width, "height": rgb.height, "pixels": name + ".bgr"})
print(json.dumps(listing))
