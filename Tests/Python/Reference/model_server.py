"""An HTTP server on 127.0.0.1 for the model manager's tests: serves one file, with faults on demand.

Usage: model_server.py FILE [NEWER]
Prints the port on its first line, then serves until it is terminated:
  /model.tflite           FILE, honouring Range and If-Range, and answering 304 to a conditional request
                          whose validator matches (RFC 9110: If-None-Match first, else If-Modified-Since);
                          the ETag is the file's SHA-256, Last-Modified the server's start less a minute
  /cut/model.tflite       the same, but a request without Range gets only the first half of the bytes
                          before the connection closes (Content-Length still announces the whole file)
  /cut-then-full/model.tflite
                          the first request is cut as above; later ones ignore Range and send it all (200)
  /corrupt/model.tflite   FILE with one byte changed in the middle: same size, another checksum
  /slow/model.tflite      FILE in 256 KiB pieces, 20 ms apart
  /huge/model.tflite      FILE, but Content-Length announces 2 GiB; the connection closes after FILE's bytes
  /undeclared/model.tflite
                          FILE with no Content-Length: the body ends when the connection closes
  /drip/model.tflite      FILE at 2 bytes a second (Content-Length the whole file); closes after 60 s
  /held/model.tflite      /model.tflite, but a 304 waits for /release (30 s at most)
  /garbage.tflite         bytes that are not a model
  /away/model.tflite      a redirect (302) to http://192.0.2.1/model.tflite, a documentation address off
                          this machine that nothing answers
  /moved/model.tflite     a redirect (301) to /model.tflite, given as a relative reference
  /dated/model.tflite     /model.tflite with Last-Modified only, no ETag
  /plain/model.tflite     /model.tflite with no validators: every request gets the whole file (200)
  /publish                from now on FILE is NEWER (another ETag, Last-Modified the time of publishing)
  /release                lets the 304s of /held/model.tflite that wait, and later ones, go
  /requests               the requests so far, these three left out, as JSON: [{"path", "range", "ifNoneMatch",
                          "ifModifiedSince", "status", "bytes"}], bytes being the body bytes sent
  anything else           404
"""

import email.utils
import hashlib
import http.server
import json
import pathlib
import re
import sys
import threading
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    model = b""
    etag = ""
    last_modified = 0.0
    newer = b""
    requests = []
    cut_once_served = set()
    lock = threading.Lock()
    released = threading.Event()

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.path
        self.entry = None  # one handler serves every request of a kept-alive connection
        if path == "/requests":
            with Handler.lock:
                body = json.dumps(Handler.requests).encode()
            return self.send_bytes(200, body, content_type="application/json")
        if path == "/publish":
            with Handler.lock:
                Handler.publish(Handler.newer, time.time())
            return self.send_bytes(200, b"published\n", content_type="text/plain")
        if path == "/release":
            Handler.released.set()
            return self.send_bytes(200, b"released\n", content_type="text/plain")
        self.entry = {
            "path": path,
            "range": self.headers.get("Range"),
            "ifNoneMatch": self.headers.get("If-None-Match"),
            "ifModifiedSince": self.headers.get("If-Modified-Since"),
        }
        with Handler.lock:
            Handler.requests.append(self.entry)
        if path == "/away/model.tflite":
            return self.send_bytes(302, b"", headers=(("Location", "http://192.0.2.1/model.tflite"),))
        if path == "/moved/model.tflite":
            return self.send_bytes(301, b"", headers=(("Location", "/model.tflite"),))
        if path == "/garbage.tflite":
            return self.send_bytes(200, b"this is not a TFLite model\n" * 100)
        if path in ("/huge/model.tflite", "/undeclared/model.tflite", "/drip/model.tflite"):
            return self.send_faulty(path.split("/")[1])
        with Handler.lock:
            model, etag, last_modified = Handler.model, Handler.etag, Handler.last_modified
        validators = {
            "/model.tflite": (etag, last_modified),
            "/slow/model.tflite": (etag, last_modified),
            "/held/model.tflite": (etag, last_modified),
            "/dated/model.tflite": (None, last_modified),
            "/plain/model.tflite": (None, None),
        }
        if path in validators:
            etag, last_modified = validators[path]
            if self.not_modified(etag, last_modified):
                if path.startswith("/held"):
                    Handler.released.wait(timeout=30)
                return self.send_bytes(304, b"", etag=etag, last_modified=last_modified)
            return self.send_ranged(model, etag, last_modified, slow=path.startswith("/slow"))
        if path == "/corrupt/model.tflite":
            data = bytearray(model)
            data[len(data) // 2] ^= 0xFF
            return self.send_ranged(bytes(data), '"corrupt"')
        if path == "/cut/model.tflite":
            if self.headers.get("Range") is None:
                return self.send_cut()
            return self.send_ranged(model, etag)
        if path == "/cut-then-full/model.tflite":
            with Handler.lock:
                first = path not in Handler.cut_once_served
                Handler.cut_once_served.add(path)
            if first:
                return self.send_cut()
            return self.send_bytes(200, model, etag=etag)
        self.send_bytes(404, b"not found\n")

    @staticmethod
    def publish(data, modified):
        Handler.model = data
        Handler.etag = '"' + hashlib.sha256(data).hexdigest() + '"'
        Handler.last_modified = float(int(modified))

    def not_modified(self, etag, last_modified):
        """RFC 9110 13.2.2: If-None-Match decides when present; else If-Modified-Since, to the second."""
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            if etag is None:
                return False
            tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
            return "*" in tags or etag in tags
        since = self.headers.get("If-Modified-Since")
        if since is None or last_modified is None:
            return False
        try:
            return last_modified <= email.utils.parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError):
            return False

    def record(self, status, sent):
        if self.entry is not None:
            with Handler.lock:
                self.entry["status"] = status
                self.entry["bytes"] = self.entry.get("bytes", 0) + sent

    def send_head(self, status, length, content_type, etag, last_modified, headers):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length is not None:
            self.send_header("Content-Length", str(length))
        if etag:
            self.send_header("ETag", etag)
        if last_modified is not None:
            self.send_header("Last-Modified", email.utils.formatdate(last_modified, usegmt=True))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()

    def send_bytes(self, status, body, content_type="application/octet-stream", etag=None, last_modified=None, headers=()):
        self.send_head(status, len(body), content_type, etag, last_modified, headers)
        self.record(status, len(body))
        self.wfile.write(body)

    def send_ranged(self, data, etag, last_modified=None, slow=False):
        match = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range") or "")
        if_range = self.headers.get("If-Range")
        current = [etag, email.utils.formatdate(last_modified, usegmt=True) if last_modified is not None else None]
        if match and (if_range is None or if_range in current):
            start = int(match.group(1))
            if start >= len(data):
                return self.send_bytes(416, b"", headers=[("Content-Range", f"bytes */{len(data)}")])
            headers = [("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}"), ("Accept-Ranges", "bytes")]
            return self.send_bytes(206, data[start:], etag=etag, last_modified=last_modified, headers=headers)
        if not slow:
            return self.send_bytes(200, data, etag=etag, last_modified=last_modified, headers=[("Accept-Ranges", "bytes")])
        self.send_head(200, len(data), "application/octet-stream", etag, last_modified, ())
        for start in range(0, len(data), 256 * 1024):
            piece = data[start:start + 256 * 1024]
            self.record(200, len(piece))
            self.wfile.write(piece)
            self.wfile.flush()
            time.sleep(0.02)

    def send_faulty(self, fault):
        """FILE with a false size (huge), no size (undeclared) or 2 bytes a second (drip); then closes."""
        data = Handler.model
        length = {"huge": 2 << 30, "undeclared": None, "drip": len(data)}[fault]
        self.close_connection = True
        self.send_head(200, length, "application/octet-stream", Handler.etag, None, [("Connection", "close")])
        try:
            if fault != "drip":
                self.record(200, len(data))
                self.wfile.write(data)
                return
            for start in range(0, 120, 2):
                self.record(200, 2)
                self.wfile.write(data[start:start + 2])
                self.wfile.flush()
                time.sleep(1)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should

    def send_cut(self):
        data = Handler.model
        self.send_head(200, len(data), "application/octet-stream", Handler.etag, None, [("Accept-Ranges", "bytes")])
        self.record(200, len(data) // 2)
        self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        self.close_connection = True


def main(file, newer=None):
    data = pathlib.Path(file).read_bytes()
    Handler.newer = pathlib.Path(newer).read_bytes() if newer else data
    Handler.publish(data, time.time() - 60)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main(*sys.argv[1:3])
