"""A real RTSP server on loopback for the sources test: GStreamer's RTSP server (Debian's
gir1.2-gst-rtsp-server-1.0 and gstreamer1.0-plugins-good, through python3-gi) serving a JPEG photo
as a live MJPEG stream, 640 pixels wide, at 10 frames a second.

    /usr/bin/python3 Tests/Python/rtsp_server.py PORT PHOTO.jpg    # rtsp://127.0.0.1:PORT/camera

It prints "ready" once it listens, and serves until it is killed.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

port, photo = sys.argv[1], sys.argv[2]
Gst.init(None)
server = GstRtspServer.RTSPServer()
server.set_address("127.0.0.1")
server.set_service(port)
factory = GstRtspServer.RTSPMediaFactory()
factory.set_launch(
    f'( filesrc location="{photo}" ! jpegdec ! videoconvert ! videoscale ! video/x-raw,width=640,pixel-aspect-ratio=1/1 '
    "! imagefreeze is-live=true ! video/x-raw,framerate=10/1 ! jpegenc ! rtpjpegpay name=pay0 pt=26 )")
factory.set_shared(True)
server.get_mount_points().add_factory("/camera", factory)
if server.attach(None) == 0:
    sys.exit(f"cannot listen on 127.0.0.1:{port}")
print("ready", flush=True)
GLib.MainLoop().run()
