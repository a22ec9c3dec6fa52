"""Writes an image rotation property (`irot`, ISO/IEC 23008-12 §6.5.10) into a HEIF file made by `heif-enc`.

Usage: heif_irot.py INPUT.heic ANGLE OUTPUT.heic
  ANGLE: 1, 2 or 3 quarter turns counter-clockwise, which a reader applies for display (as a phone stores a
  photo taken turned). heif-enc 1.15 writes no such property. The box (9 bytes: size, `irot`, the angle in
  its two low bits) goes at the end of the property container (`ipco`) and is associated with the one
  image, marked essential (`ipma`); the sizes of `ipco`, `ipma`, `iprp` and `meta` grow by what was added,
  and the item locations (`iloc`) that point into `mdat`, after `meta`, move by as much. Only the layout
  heif-enc writes (one image item, version-0 `ipma` and `iloc`, 4-byte offsets and lengths) is handled;
  anything else stops with an error.
"""

import struct
import sys


def boxes(data, start, end):
    while start < end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        yield start, size, kind.decode("latin-1")
        start += size


def child(data, parent, kind, header=8):
    return next(box for box in boxes(data, parent[0] + header, parent[0] + parent[1]) if box[2] == kind)


def with_rotation(source: bytes, angle: int) -> bytes:
    data = bytearray(source)
    meta = next(box for box in boxes(data, 0, len(data)) if box[2] == "meta")
    properties, locations = child(data, meta, "iprp", 12), child(data, meta, "iloc", 12)
    container, associations = child(data, properties, "ipco"), child(data, properties, "ipma")
    assert container[0] + container[1] == associations[0], "ipma must follow ipco"
    count = len(list(boxes(data, container[0] + 8, container[0] + container[1])))
    # ipma, version 0 without the 15-bit flag: entry count (4), then item ID (2), association count (1), one byte each.
    assert data[associations[0] + 8] == 0 and data[associations[0] + 11] & 1 == 0
    assert struct.unpack(">I", data[associations[0] + 12:associations[0] + 16])[0] == 1, "one image item"
    entry = associations[0] + 16
    listed = data[entry + 2]
    data[entry + 2] = listed + 1
    data[entry + 3 + listed:entry + 3 + listed] = bytes([0x80 | (count + 1)])  # essential, 1-based index
    data[container[0] + container[1]:container[0] + container[1]] = struct.pack(">I4sB", 9, b"irot", angle & 3)
    for start, grown in ((container[0], 9), (associations[0] + 9, 1), (properties[0], 10), (meta[0], 10)):
        data[start:start + 4] = struct.pack(">I", struct.unpack(">I", data[start:start + 4])[0] + grown)
    # iloc, version 0: offset and length sizes 4, base offset size 0 or 4; item count (2), then per item its ID
    # (2), data reference index (2), base offset, extent count (2) and extents (offset, length).
    assert data[locations[0] + 8] == 0 and data[locations[0] + 12] == 0x44 and data[locations[0] + 13] >> 4 in (0, 4)
    base_size = data[locations[0] + 13] >> 4
    items = struct.unpack(">H", data[locations[0] + 14:locations[0] + 16])[0]
    at = locations[0] + 16
    for _ in range(items):
        base = struct.unpack(">I", data[at + 4:at + 8])[0] if base_size else 0
        if base:
            data[at + 4:at + 8] = struct.pack(">I", base + 10)
        at += 4 + base_size
        extents = struct.unpack(">H", data[at:at + 2])[0]
        at += 2
        for _ in range(extents):
            if not base:
                data[at:at + 4] = struct.pack(">I", struct.unpack(">I", data[at:at + 4])[0] + 10)
            at += 8
    return bytes(data)


def main():
    source, angle, output = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    assert angle in (1, 2, 3), angle
    with open(source, "rb") as file:
        rotated = with_rotation(file.read(), angle)
    with open(output, "wb") as file:
        file.write(rotated)


if __name__ == "__main__":
    main()
