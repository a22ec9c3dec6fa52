"""Writes images tagged with every EXIF orientation, whose truth comes from the EXIF specification, and
prints their manifest as JSON.

Usage: exif_orientation.py OUTPUT_DIR PHOTO
  For each of JPEG, PNG (eXIf chunk), WebP (lossless, VP8X with an EXIF chunk) and TIFF (tag 274) and each
  orientation 1-8, a file whose stored pixels are a small asymmetric picture, `upright.png`, laid out as the
  specification's table says that orientation stores it; a WebP whose EXIF chunk starts with "Exif\\0\\0";
  PHOTO stored the same way for every orientation as a JPEG and as a PNG (`photos/`), each beside Pillow's
  upright decode of it as raw RGB (`<file>.rgb`), the truth for a decoder's pixels; PNGs with a truncated
  and a garbage eXIf chunk, stored upright. Pillow's `ImageOps.exif_transpose` must turn every oriented file back into its upright picture,
  or the script fails.
"""

import io
import json
import pathlib
import struct
import sys
import zlib

import numpy as np
from PIL import Image, ImageOps

# EXIF 2.32, tag 0x0112 (Orientation): the sides of the upright picture that the stored 0th row and the
# stored 0th column show.
SPECIFICATION = {
    1: ("top", "left"),
    2: ("top", "right"),
    3: ("bottom", "right"),
    4: ("bottom", "left"),
    5: ("left", "top"),
    6: ("right", "top"),
    7: ("right", "bottom"),
    8: ("left", "bottom"),
}

FORMATS = {"jpeg": ("jpg", {"quality": 95}), "png": ("png", {}), "webp": ("webp", {"lossless": True}), "tiff": ("tif", {})}


def stored(upright, orientation):
    """The stored pixels of `upright` (rows, columns, channels) in `orientation`, read off the table."""
    row_side, column_side = SPECIFICATION[orientation]
    # The stored rows run along the upright rows, or, when the 0th row is a side, along its columns.
    pixels = upright if row_side in ("top", "bottom") else upright.transpose(1, 0, 2)
    if row_side in ("bottom", "right"):
        pixels = pixels[::-1]
    if column_side in ("right", "bottom"):
        pixels = pixels[:, ::-1]
    return np.ascontiguousarray(pixels)


def pattern(width=40, height=24):
    """Red grows to the right, green downwards, and blue marks the top-left corner: no two layouts match."""
    y, x = np.mgrid[0:height, 0:width]
    red = 255 * x / (width - 1)
    green = 255 * y / (height - 1)
    blue = np.where((x < width // 3) & (y < height // 2), 230, 30)
    return np.stack([red, green, blue], axis=-1).round().astype(np.uint8)


def exif(orientation, big_endian):
    tags = Image.Exif()
    tags.endian = ">" if big_endian else "<"
    tags[0x0112] = orientation
    return tags.tobytes()


def mean_difference(a, b):
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def transposed_back(path):
    with Image.open(path) as image:
        return np.asarray(ImageOps.exif_transpose(image).convert("RGB"))


def check_asymmetric(upright):
    layouts = [stored(upright, orientation) for orientation in SPECIFICATION]
    for i, a in enumerate(layouts):
        for b in layouts[i + 1:]:
            if a.shape == b.shape and mean_difference(a, b) < 40:
                sys.exit("the test picture is too symmetric")


def png_with_exif_chunk(upright, payload):
    """A PNG of `upright` whose eXIf chunk holds `payload` as given, placed before IDAT."""
    buffer = io.BytesIO()
    Image.fromarray(upright).save(buffer, "PNG")
    data = buffer.getvalue()
    idat = data.index(b"IDAT") - 4
    chunk = struct.pack(">I", len(payload)) + b"eXIf" + payload
    chunk += struct.pack(">I", zlib.crc32(chunk[4:]))
    return data[:idat] + chunk + data[idat:]


def webp_with_exif_prefix(data):
    """The WebP `data` with "Exif\\0\\0" put in front of its EXIF chunk's TIFF block, as some writers do."""
    start = data.index(b"EXIF")
    size = struct.unpack("<I", data[start + 4:start + 8])[0]
    payload = b"Exif\x00\x00" + data[start + 8:start + 8 + size]
    chunk = b"EXIF" + struct.pack("<I", len(payload)) + payload + b"\x00" * (len(payload) % 2)
    body = data[12:start] + chunk + data[start + 8 + size + size % 2:]
    return b"RIFF" + struct.pack("<I", len(body) + 4) + b"WEBP" + body


def main():
    folder, photo = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    upright = pattern()
    check_asymmetric(upright)
    Image.fromarray(upright).save(folder / "upright.png")
    files = []
    for name, (extension, options) in FORMATS.items():
        for orientation in SPECIFICATION:
            path = folder / f"{name}-{orientation}.{extension}"
            pixels = Image.fromarray(stored(upright, orientation))
            pixels.save(path, exif=exif(orientation, big_endian=orientation % 2 == 0), **options)
            files.append({"file": str(path), "format": name, "orientation": orientation})
    prefixed = folder / "webp-6-prefixed.webp"
    prefixed.write_bytes(webp_with_exif_prefix((folder / "webp-6.webp").read_bytes()))
    files.append({"file": str(prefixed), "format": "webp", "orientation": 6})
    for entry in files:
        back = transposed_back(entry["file"])
        lossless = entry["format"] != "jpeg"
        if back.shape != upright.shape or (lossless and not np.array_equal(back, upright)) or mean_difference(back, upright) > 3:
            sys.exit(f"Pillow does not turn {entry['file']} upright")

    tiff_block = exif(6, big_endian=True)[6:]
    malformed = []
    for case, payload in [("truncated", tiff_block[:10]), ("garbage", np.random.default_rng(13).bytes(48))]:
        path = folder / f"png-{case}.png"
        path.write_bytes(png_with_exif_chunk(upright, payload))
        malformed.append({"file": str(path), "case": case})

    with Image.open(photo) as image:
        photo_pixels = np.asarray(image.convert("RGB"))
    photos = []
    (folder / "photos").mkdir(exist_ok=True)
    for name, extension, options in [("jpeg", "jpg", {"quality": 90}), ("png", "png", {})]:
        for orientation in SPECIFICATION:
            path = folder / "photos" / f"photo-{orientation}.{extension}"
            Image.fromarray(stored(photo_pixels, orientation)).save(path, exif=exif(orientation, big_endian=False), **options)
            back = transposed_back(path)
            if back.shape != photo_pixels.shape or (name == "png" and not np.array_equal(back, photo_pixels)):
                sys.exit(f"Pillow does not turn {path} upright")
            pixels = path.with_name(path.name + ".rgb")
            pixels.write_bytes(back.tobytes())
            photos.append({"file": str(path), "format": name, "orientation": orientation, "pillow": str(pixels)})

    json.dump({"upright": str(folder / "upright.png"), "files": files, "malformed": malformed,
               "photos": photos}, sys.stdout)


if __name__ == "__main__":
    main()
