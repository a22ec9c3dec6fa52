"""Independent colour matching for the embedded-profile test: images carrying a Display P3 profile, and Pillow's
ImageCms conversion of their pixels to sRGB.

Usage: color_profile_reference.py MEDIA_DIR OUT_DIR
The profile is built from Display P3's published definition (primaries R 0.680,0.320, G 0.265,0.690,
B 0.150,0.060, white D65 0.3127,0.3290, the sRGB transfer function) with LittleCMS's cmsCreateRGBProfile,
through ctypes on the system's liblcms2.so.2, and saved as ICC bytes. `p3-split.jpg` carries the same
primaries with a 30000-entry table per channel: a 181 KB profile that JPEG splits over 3 APP2 segments.
coffee.png (samples), shrunk to 320x240 and tagged with the profile, is written by Pillow as JPEG, PNG,
lossless WebP and TIFF, and by libheif's heif-enc as HEIF from the PNG; each is decoded by Pillow and converted with ImageCms.profileToProfile to its sRGB
profile, perceptual intent (Pillow's default). `broken.jpg` and `broken.png` carry 600 bytes that are no
profile, `oversized.png` the P3 profile padded with zeros to 5 MB (above the 4 MB that SwiftVision reads):
their truth is Pillow's decode unconverted. Prints one JSON list: file, width, height, pixels
(Pillow's matched decode as raw BGR), unmatched (the decode without matching, as raw BGR), and analytic: the
mean absolute difference between Pillow's conversion and Display P3's formulas evaluated with numpy.
"""
import ctypes
import io
import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageCms, PngImagePlugin

media, out = sys.argv[1], sys.argv[2]
lcms = ctypes.CDLL("liblcms2.so.2")
lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_double)]
lcms.cmsBuildTabulatedToneCurve16.restype = ctypes.c_void_p
lcms.cmsBuildTabulatedToneCurve16.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint16)]
lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double), ctypes.c_void_p * 3]
lcms.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
lcms.cmsCloseProfile.argtypes = [ctypes.c_void_p]

WHITE = (0.3127, 0.3290, 1.0)
PRIMARIES = (0.680, 0.320, 1.0, 0.265, 0.690, 1.0, 0.150, 0.060, 1.0)


def srgb_to_linear(value):
    return np.where(value <= 0.04045, value / 12.92, ((value + 0.055) / 1.055) ** 2.4)


def p3_profile(tabulated):
    if tabulated:
        # One table per channel (LittleCMS stores a curve given three times once).
        levels = srgb_to_linear(np.linspace(0, 1, 30000))
        table = (ctypes.c_uint16 * 30000)(*np.round(levels * 65535).astype(np.uint16).tolist())
        curves = [lcms.cmsBuildTabulatedToneCurve16(None, 30000, table) for _ in range(3)]
    else:
        # Parametric type 4, the sRGB curve: Y = ((aX + b)^g) above d, cX below.
        parameters = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
        curves = [lcms.cmsBuildParametricToneCurve(None, 4, parameters)] * 3
    profile = lcms.cmsCreateRGBProfile((ctypes.c_double * 3)(*WHITE), (ctypes.c_double * 9)(*PRIMARIES),
                                       (ctypes.c_void_p * 3)(*curves))
    size = ctypes.c_uint32(0)
    assert lcms.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    assert lcms.cmsSaveProfileToMem(profile, buffer, ctypes.byref(size))
    lcms.cmsCloseProfile(profile)
    return buffer.raw[:size.value]


def rgb_to_xyz(primaries):
    """The matrix from linear RGB to XYZ for chromaticities (x, y) of red, green, blue and white."""
    (rx, ry), (gx, gy), (bx, by), (wx, wy) = primaries
    columns = np.array([[x / y, 1, (1 - x - y) / y] for x, y in [(rx, ry), (gx, gy), (bx, by)]]).T
    white = np.array([wx / wy, 1, (1 - wx - wy) / wy])
    return columns * np.linalg.solve(columns, white)


def analytic_p3_to_srgb(rgb):
    """Display P3 to sRGB from the definitions: both share D65 white and the transfer function; clipped."""
    white = (0.3127, 0.3290)
    p3 = rgb_to_xyz([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060), white])
    srgb = rgb_to_xyz([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06), white])
    linear = srgb_to_linear(rgb / 255.0) @ (np.linalg.inv(srgb) @ p3).T
    linear = np.clip(linear, 0, 1)
    encoded = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)
    return np.round(encoded * 255)


# Pillow reads compressed PNG chunks up to 1 MB; the oversized profile is read back to check it was written.
PngImagePlugin.MAX_TEXT_CHUNK = 16 * 1024 * 1024
photo = Image.open(os.path.join(media, "coffee.png")).convert("RGB").resize((320, 240), Image.LANCZOS)
profiles = {False: p3_profile(False), True: p3_profile(True)}
srgb = ImageCms.createProfile("sRGB")
files = [("p3.jpg", False, {"quality": 95}), ("p3-split.jpg", True, {"quality": 95}), ("p3.png", False, {}),
         ("p3.webp", False, {"lossless": True}), ("p3.tif", False, {}),
         ("broken.jpg", None, {"quality": 95}), ("broken.png", None, {}), ("oversized.png", "padded", {})]
listing = []
for name, tabulated, options in files:
    path = os.path.join(out, name)
    if tabulated == "padded":
        # The P3 profile followed by zeros to 5 MB (its header keeps its own size): above the 4 MB read.
        icc = profiles[False] + bytes(5 * 1024 * 1024 - len(profiles[False]))
    else:
        icc = b"no colour profile here " * 26 + b"!!" if tabulated is None else profiles[tabulated]
    photo.save(path, icc_profile=icc, **options)
    decoded = Image.open(path)
    assert decoded.info.get("icc_profile") == icc, name
    unmatched = decoded.convert("RGB")
    if tabulated in (None, "padded"):
        matched = unmatched
        analytic = None
    else:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        matched = ImageCms.profileToProfile(unmatched, source, srgb, renderingIntent=ImageCms.Intent.PERCEPTUAL)
        formulas = analytic_p3_to_srgb(np.asarray(unmatched, dtype=np.float64))
        analytic = float(np.abs(formulas - np.asarray(matched, dtype=np.float64)).mean())
    np.asarray(matched)[:, :, ::-1].tofile(path + ".bgr")
    np.asarray(unmatched)[:, :, ::-1].tofile(path + ".unmatched.bgr")
    listing.append({"file": name, "width": photo.width, "height": photo.height, "pixels": name + ".bgr",
                    "unmatched": name + ".unmatched.bgr", "profileBytes": len(icc), "analytic": analytic})
# HEIF: libheif's encoder (Debian's heif-enc) keeps the PNG's profile as a `colr` box of type `prof`, as an
# iPhone writes its Display P3 photos; the truth starts from libheif's own decode (heif-convert), unmatched.
heic = os.path.join(out, "p3.heic")
subprocess.run(["heif-enc", "-q", "90", os.path.join(out, "p3.png"), "-o", heic], check=True, capture_output=True)
with open(heic, "rb") as encoded:
    assert b"colrprof" + profiles[False] in encoded.read()
subprocess.run(["heif-convert", heic, heic + ".png"], check=True, capture_output=True)
unmatched = Image.open(heic + ".png").convert("RGB")
matched = ImageCms.profileToProfile(unmatched, ImageCms.ImageCmsProfile(io.BytesIO(profiles[False])), srgb,
                                    renderingIntent=ImageCms.Intent.PERCEPTUAL)
np.asarray(matched)[:, :, ::-1].tofile(heic + ".bgr")
np.asarray(unmatched)[:, :, ::-1].tofile(heic + ".unmatched.bgr")
listing.append({"file": "p3.heic", "width": photo.width, "height": photo.height, "pixels": "p3.heic.bgr",
                "unmatched": "p3.heic.unmatched.bgr", "profileBytes": len(profiles[False]),
                "analytic": float(np.abs(analytic_p3_to_srgb(np.asarray(unmatched, dtype=np.float64))
                                         - np.asarray(matched, dtype=np.float64)).mean())})
print(json.dumps(listing))
