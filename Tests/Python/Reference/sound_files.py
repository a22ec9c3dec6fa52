"""Writes a short tone as sound files with Python's own writers, and prints their manifest as JSON.

Usage: sound_files.py OUTPUT_DIR
  `tone.wav` (the `wave` module) and `tone.aiff` (the `aifc` module): one second of a 440 Hz tone, mono,
  16-bit, 8000 samples a second. Each is read back with the module that wrote it; the manifest gives, per
  file, its channels and sample frames: the truth that it is a sound file and holds no picture.
"""

import json
import math
import pathlib
import struct
import sys
import warnings
import wave

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import aifc

RATE = 8000


def samples(big_endian):
    tone = [round(12000 * math.sin(2 * math.pi * 440 * index / RATE)) for index in range(RATE)]
    return struct.pack((">" if big_endian else "<") + "h" * len(tone), *tone)


def main():
    folder = pathlib.Path(sys.argv[1])
    manifest = []
    for name, module, big_endian in [("tone.wav", wave, False), ("tone.aiff", aifc, True)]:
        path = folder / name
        with module.open(str(path), "wb") as writer:
            writer.setnchannels(1)
            writer.setsampwidth(2)
            writer.setframerate(RATE)
            writer.writeframes(samples(big_endian))
        with module.open(str(path), "rb") as reader:
            manifest.append({"file": name, "channels": reader.getnchannels(), "frames": reader.getnframes()})
    print(json.dumps(manifest))


if __name__ == "__main__":
    main()
