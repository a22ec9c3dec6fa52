"""Writes MP4 and MOV files with Debian's `ffmpeg` command and prints, as JSON, what `ffprobe` says of each.

Usage: video_timing.py OUTPUT_DIR
  `vfr.mp4`, `vfr.mov`: 45 frames of ffmpeg's test pattern (160×120, H.264 with B-frames), the first 30
  shown 1/30 s apart and the last 15 1/10 s apart (a variable frame rate, as a phone writes when the light
  falls); `cfr.mp4`: 30 frames at 25 frames a second, H.264 with B-frames; `mpeg4.mp4`: 12 frames at
  12 frames a second, MPEG-4 Part 2 without B-frames; `turned.mp4`: `cfr.mp4` with the display matrix of a
  quarter turn clockwise written into its track header (ISO/IEC 14496-12 §8.3.2, as a phone records in
  portrait); `vfr.mkv`: `vfr.mp4`'s frames copied into Matroska. Matroska and WebM written by ffmpeg:
  `bframes.mkv`, `vp9.webm`, `av1.webm`: 73 frames of the test pattern shown 1/30 s apart for the first 30,
  1/10 s apart for the next 20, then at 24 frames a second on the pattern's 1/30 s grid (three rates), in
  H.264 with two B-frames between references (`b-adapt=0`, so that the blocks' times come out of order),
  VP9 and AV1; `cfr.mkv`: 30 frames at 25 frames a second, H.264 with B-frames; `live.webm`: the same
  frames in VP9 written to a pipe, as a live recorder writes: a segment and clusters of unknown size, no
  duration and no index. `turned.mkv`: `turned.mp4` copied into Matroska, and `turned.webm`: `vp9.webm`
  copied with a half turn for display (`-display_rotation 180`), both by FFmpeg 9 (imageio-ffmpeg's
  static build; Debian's FFmpeg 5.1 reads a Matroska track's projection but writes none), which writes the
  display matrix as the track's projection (ProjectionPoseRoll, RFC 9559).
The manifest gives per file ffprobe's presentation time of each frame (`-show_frames`' `pts_time`, in
milliseconds from the first frame, rounded half up), the stream's stored width and height, its frame count
(`nb_frames`, or the frames it read where the container keeps no count), average rate (`avg_frame_rate`), display rotation (the display matrix's `rotation`,
counter-clockwise degrees) and the container's duration (`format=duration`, seconds; null where ffprobe
gives none).
"""

import json
import math
import pathlib
import struct
import subprocess
import sys
from fractions import Fraction

import imageio_ffmpeg

PATTERN = ["-f", "lavfi", "-i"]
VARIABLE = PATTERN + ["testsrc=size=160x120:rate=30", "-frames:v", "45",
                      "-vf", "setpts='if(lt(N,30),N/30,1+(N-30)/10)/TB'",
                      "-c:v", "libx264", "-bf", "2", "-vsync", "vfr"]
THREE_RATES = PATTERN + ["testsrc=size=160x120:rate=30", "-frames:v", "73",
                         "-vf", "setpts='if(lt(N,30),N/30,if(lt(N,50),1+(N-30)/10,3+(N-50)/24))/TB'", "-vsync", "vfr"]
CONSTANT = PATTERN + ["testsrc=size=160x120:rate=25", "-frames:v", "30", "-c:v", "libx264", "-bf", "2"]
FILES = {
    "vfr.mp4": VARIABLE,
    "vfr.mov": VARIABLE,
    "cfr.mp4": CONSTANT,
    "mpeg4.mp4": PATTERN + ["testsrc=size=160x120:rate=12", "-frames:v", "12", "-c:v", "mpeg4"],
}
MATROSKA = {
    "bframes.mkv": THREE_RATES + ["-c:v", "libx264", "-x264-params", "bframes=2:b-adapt=0"],
    "vp9.webm": THREE_RATES + ["-c:v", "libvpx-vp9", "-deadline", "realtime"],
    "av1.webm": THREE_RATES + ["-c:v", "libaom-av1", "-cpu-used", "8"],
    "cfr.mkv": CONSTANT,
}


def turn_quarter_clockwise(path):
    """Writes the matrix (a, b, c, d) = (0, 1, -1, 0), translated by the stored height, into the one track header."""
    data = bytearray(path.read_bytes())
    width, height = 160, 120
    start = data.index(b"tkhd") + 4
    matrix = start + 4 + (32 if data[start] == 1 else 20) + 16
    words = [0, 1 << 16, 0, -(1 << 16), 0, 0, height << 16, 0, 1 << 30]
    data[matrix:matrix + 36] = struct.pack(">9i", *words)
    path.write_bytes(bytes(data))


def probe(path):
    def run(arguments):
        return json.loads(subprocess.run(["ffprobe", "-v", "error", "-of", "json"] + arguments + [str(path)],
                                         check=True, capture_output=True, text=True).stdout)
    frames = run(["-select_streams", "v", "-show_frames", "-show_entries", "frame=pts_time"])["frames"]
    times = [float(frame["pts_time"]) for frame in frames]
    described = run(["-select_streams", "v", "-show_streams", "-show_format"])
    stream = described["streams"][0]
    rotation = next((side.get("rotation", 0) for side in stream.get("side_data_list", [])
                     if side.get("side_data_type") == "Display Matrix"), 0)
    return {"file": path.name, "times": [math.floor((time - times[0]) * 1000 + 0.5) for time in times],
            "width": stream["width"], "height": stream["height"], "frames": int(stream.get("nb_frames", len(times))),
            "framesPerSecond": float(Fraction(stream["avg_frame_rate"])), "rotation": rotation,
            "duration": float(described["format"]["duration"]) if "duration" in described["format"] else None}


def main():
    folder = pathlib.Path(sys.argv[1])
    for name, arguments in FILES.items():
        subprocess.run(["ffmpeg", "-v", "error", "-y"] + arguments + [str(folder / name)], check=True)
    turned = folder / "turned.mp4"
    turned.write_bytes((folder / "cfr.mp4").read_bytes())
    turn_quarter_clockwise(turned)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(folder / "vfr.mp4"), "-c", "copy", str(folder / "vfr.mkv")], check=True)
    for name, arguments in MATROSKA.items():
        subprocess.run(["ffmpeg", "-v", "error", "-y"] + arguments + [str(folder / name)], check=True)
    with open(folder / "live.webm", "wb") as live:
        subprocess.run(["ffmpeg", "-v", "error"] + MATROSKA["vp9.webm"] + ["-f", "webm", "-"], stdout=live, check=True)
    newer = imageio_ffmpeg.get_ffmpeg_exe()
    subprocess.run([newer, "-v", "error", "-y", "-i", str(turned), "-c", "copy", str(folder / "turned.mkv")], check=True)
    subprocess.run([newer, "-v", "error", "-y", "-display_rotation", "180", "-i", str(folder / "vp9.webm"), "-c", "copy",
                    str(folder / "turned.webm")], check=True)
    names = list(FILES) + ["turned.mp4", "vfr.mkv"] + list(MATROSKA) + ["live.webm", "turned.mkv", "turned.webm"]
    print(json.dumps([probe(folder / name) for name in names]))


if __name__ == "__main__":
    main()
