"""An HTTP server on 127.0.0.1 for the model manager's tests: serves one file, with faults on demand.

Usage: model_server.py FILE
Prints the port on its first line, then serves until it is terminated:
  /model.tflite           FILE, honouring Range and If-Range (the ETag is the file's SHA-256)
  /cut/model.tflite       the same, but a request without Range gets only the first half of the bytes
                          before the connection closes (Content-Length still announces the whole file)
  /cut-then-full/model.tflite
                          the first request is cut as above; later ones ignore Range and send it all (200)
  /corrupt/model.tflite   FILE with one byte changed in the middle: same size, another checksum
  /slow/model.tflite      FILE in 256 KiB pieces, 20 ms apart
  /garbage.tflite         bytes that are not a model
  /away/model.tflite      a redirect (302) to http://192.0.2.1/model.tflite, a documentation address off
                          this machine that nothing answers
  /requests               the requests so far as JSON: [{"path", "range"}]
  anything else           404
"""

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
    requests = []
    cut_once_served = set()
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.path
        if path == "/requests":
            with Handler.lock:
                body = json.dumps(Handler.requests).encode()
            return self.send_bytes(200, body, content_type="application/json")
        with Handler.lock:
            Handler.requests.append({"path": path, "range": self.headers.get("Range")})
        if path == "/away/model.tflite":
            return self.send_bytes(302, b"", headers=(("Location", "http://192.0.2.1/model.tflite"),))
        if path == "/garbage.tflite":
            return self.send_bytes(200, b"this is not a TFLite model\n" * 100)
        if path == "/model.tflite" or path == "/slow/model.tflite":
            return self.send_ranged(Handler.model, Handler.etag, slow=path.startswith("/slow"))
        if path == "/corrupt/model.tflite":
            data = bytearray(Handler.model)
            data[len(data) // 2] ^= 0xFF
            return self.send_ranged(bytes(data), '"corrupt"')
        if path == "/cut/model.tflite":
            if self.headers.get("Range") is None:
                return self.send_cut()
            return self.send_ranged(Handler.model, Handler.etag)
        if path == "/cut-then-full/model.tflite":
            with Handler.lock:
                first = path not in Handler.cut_once_served
                Handler.cut_once_served.add(path)
            if first:
                return self.send_cut()
            return self.send_bytes(200, Handler.model, etag=Handler.etag)
        self.send_bytes(404, b"not found\n")

    def send_bytes(self, status, body, content_type="application/octet-stream", etag=None, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if etag:
            self.send_header("ETag", etag)
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def send_ranged(self, data, etag, slow=False):
        match = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range") or "")
        if_range = self.headers.get("If-Range")
        if match and (if_range is None or if_range == etag):
            start = int(match.group(1))
            if start >= len(data):
                return self.send_bytes(416, b"", headers=[("Content-Range", f"bytes */{len(data)}")])
            headers = [("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}"), ("Accept-Ranges", "bytes")]
            return self.send_bytes(206, data[start:], etag=etag, headers=headers)
        if not slow:
            return self.send_bytes(200, data, etag=etag, headers=[("Accept-Ranges", "bytes")])
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", etag)
        self.end_headers()
        for start in range(0, len(data), 256 * 1024):
            self.wfile.write(data[start:start + 256 * 1024])
            self.wfile.flush()
            time.sleep(0.02)

    def send_cut(self):
        data = Handler.model
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", Handler.etag)
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        self.close_connection = True


def main(file):
    Handler.model = pathlib.Path(file).read_bytes()
    Handler.etag = '"' + hashlib.sha256(Handler.model).hexdigest() + '"'
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1])
