"""Times the Python peers of barcode reading and text recognition on the same images as
swiftvision-bench and prints one JSON object.

Usage: recognition_peer.py ITERATIONS --barcodes IMAGE... --text IMAGE...
  barcodes: zxingcpp.read_barcodes on the decoded image as the file holds it, gray or colour in RGB order, as
            SwiftVision's VisionImage holds it (zxing-cpp's Python binding, default options, which makes the
            luminance itself, as our reader does inside its timing; alpha is dropped beforehand, the binding
            takes 1 or 3 channels): the samples and the codes read;
  text:     Tesseract's API through tesserocr, one PyTessBaseAPI started once (eng, PSM_AUTO, LSTM engine, 300 dpi,
            as TextRecognizer), fed the gray image decoded once; the samples of each recognition (words
            read by the result iterator) and the words read. OMP_THREAD_LIMIT comes from the environment.
With no image after --barcodes, only text is timed.
"""

import json
import sys
from importlib.metadata import version

import cv2
import tesserocr
import zxingcpp

from timing import pin_threads, samples_ms


def decoded(path):
    """The file's pixels: gray stays gray, colour becomes RGB (without alpha)."""
    image = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB if image.shape[2] == 3 else cv2.COLOR_BGRA2RGB)


def main(iterations, arguments):
    iterations = int(iterations)
    split = arguments.index("--text")
    barcodes, texts = arguments[1:split], arguments[split + 1:]
    pin_threads()
    result = {"zxing_version": version("zxing-cpp"), "barcodes": {}, "text": {}}
    for path in barcodes:
        image = decoded(path)
        found = zxingcpp.read_barcodes(image)
        samples = samples_ms(lambda: zxingcpp.read_barcodes(image), iterations)
        result["barcodes"][path] = {"count": len(found), "samples": samples}
    result["tesseract_version"] = tesserocr.tesseract_version().split("\n")[0] + ", tesserocr " + version("tesserocr")
    with tesserocr.PyTessBaseAPI(lang="eng", psm=tesserocr.PSM.AUTO, oem=tesserocr.OEM.LSTM_ONLY) as api:
        api.SetVariable("debug_file", "/dev/null")
        for path in texts:
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
    main(sys.argv[1], sys.argv[2:])
