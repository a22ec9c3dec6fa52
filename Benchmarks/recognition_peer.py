"""The Python peers of barcode reading and text recognition, on the same images as swiftvision-bench.

Usage: recognition_peer.py --serve-barcodes
       recognition_peer.py ITERATIONS IMAGE...
  --serve-barcodes: zxingcpp.read_barcodes (zxing-cpp's Python binding, default options) one call at a time, so
            that swiftvision-bench can alternate its runs with the peer's (timing.serve): prints
            {"zxing_version": ...}, then for each line on standard input, "read IMAGE", times one call on that
            image and prints {"ms": ..., "count": ..., "peak_mib": ...} (the codes read). The image is decoded
            on its first request, outside the timing, as the file holds it: gray stays gray, colour becomes
            RGB, as SwiftVision's VisionImage holds it, so that zxing-cpp makes the luminance itself, as our
            reader does inside its timing (alpha is dropped beforehand: the binding takes 1 or 3 channels).
  ITERATIONS IMAGE...: text, Tesseract's API through tesserocr, one PyTessBaseAPI started once (eng, PSM_AUTO, LSTM engine, 300 dpi,
            as TextRecognizer), fed the gray image decoded once; prints one JSON object with the samples of
            each recognition (words read by the result iterator) and the words read. OMP_THREAD_LIMIT comes
            from the environment.
"""

import functools
import json
import sys
from importlib.metadata import version

import cv2
import tesserocr
import zxingcpp

from timing import pin_threads, samples_ms, serve, timed_ms


def decoded(path):
    """The file's pixels: gray stays gray, colour becomes RGB (without alpha)."""
    image = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB if image.shape[2] == 3 else cv2.COLOR_BGRA2RGB)


def serve_barcodes():
    """Answers one timed read per requested image, until the end of standard input."""
    pin_threads()
    images = functools.cache(decoded)

    def answer(kind, path):
        ms, found = timed_ms(zxingcpp.read_barcodes, images(path))
        return {"ms": ms, "count": len(found)}
    serve({"zxing_version": version("zxing-cpp")}, answer)


def recognize_text(iterations, paths):
    """Prints the text peer's samples and words of each image."""
    pin_threads()
    result = {"tesseract_version": tesserocr.tesseract_version().split("\n")[0] + ", tesserocr " + version("tesserocr"),
              "text": {}}
    with tesserocr.PyTessBaseAPI(lang="eng", psm=tesserocr.PSM.AUTO, oem=tesserocr.OEM.LSTM_ONLY) as api:
        api.SetVariable("debug_file", "/dev/null")
        for path in paths:
            gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)

            def read():
                api.SetImageBytes(gray.tobytes(), gray.shape[1], gray.shape[0], 1, gray.shape[1])
                api.SetSourceResolution(300)
                api.Recognize()
                return [word.GetUTF8Text(tesserocr.RIL.WORD).strip()
                        for word in tesserocr.iterate_level(api.GetIterator(), tesserocr.RIL.WORD)]
            result["text"][path] = {"words": [word for word in read() if word], "samples": samples_ms(read, iterations)}
    print(json.dumps(result))


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve-barcodes"]:
        serve_barcodes()
    else:
        recognize_text(int(sys.argv[1]), sys.argv[2:])
