"""Writes MPEG-4 files with Debian's `ffmpeg` command and prints, as JSON, the kinds of stream `ffprobe` finds in each.

Usage: audio_mp4.py OUTPUT_DIR
  `tone.mp4`: one second of a 440 Hz tone in AAC, no picture (brand `isom`, the movie box after the sound,
  as ffmpeg writes by default); `tone-faststart.mp4`: the same with the movie box first; `clip.mp4`: the tone
  with one second of ffmpeg's test pattern (MPEG-4 Part 2 video, 64×48, 5 frames a second).
The manifest gives per file the `codec_type` of each stream as ffprobe reports it: the truth of whether it
holds a video.
"""

import json
import pathlib
import subprocess
import sys

TONE = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000:duration=1"]
PATTERN = ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=1"]
FILES = {
    "tone.mp4": TONE + ["-c:a", "aac"],
    "tone-faststart.mp4": TONE + ["-c:a", "aac", "-movflags", "+faststart"],
    "clip.mp4": PATTERN + TONE + ["-c:v", "mpeg4", "-c:a", "aac"],
}


def main():
    folder = pathlib.Path(sys.argv[1])
    manifest = []
    for name, arguments in FILES.items():
        path = folder / name
        subprocess.run(["ffmpeg", "-v", "error", "-y"] + arguments + ["-f", "mp4", str(path)], check=True)
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", str(path)],
                               check=True, capture_output=True, text=True)
        streams = [stream["codec_type"] for stream in json.loads(probe.stdout)["streams"]]
        manifest.append({"file": name, "streams": streams})
    print(json.dumps(manifest))


if __name__ == "__main__":
    main()
