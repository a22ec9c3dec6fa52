"""Copies a video's frames into Matroska with FFmpeg 9 and prints, as JSON, the display rotation Debian's
`ffprobe` reads from the copy.

Usage: matroska_turn.py INPUT OUTPUT.mkv
  The frames are copied as they are (`-c copy`) by the static FFmpeg 9 of imageio-ffmpeg, which writes an
  input's display matrix (an MP4's track header) as the Matroska track's projection (ProjectionPoseRoll,
  RFC 9559); Debian's FFmpeg 5.1 reads that back but writes none. The output is
  {"rotation": the display matrix's rotation as ffprobe gives it (counter-clockwise degrees, 0 for none)}.
"""

import json
import subprocess
import sys

import imageio_ffmpeg


def main():
    source, target = sys.argv[1], sys.argv[2]
    subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-y", "-i", source, "-c", "copy", target], check=True)
    described = json.loads(subprocess.run(["ffprobe", "-v", "error", "-of", "json", "-select_streams", "v", "-show_streams", target],
                                          check=True, capture_output=True, text=True).stdout)
    rotation = next((side.get("rotation", 0) for side in described["streams"][0].get("side_data_list", [])
                     if side.get("side_data_type") == "Display Matrix"), 0)
    print(json.dumps({"rotation": rotation}))


if __name__ == "__main__":
    main()
