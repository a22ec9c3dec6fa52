"""Times the whole Python object-detection pipeline on the photos swiftvision-bench uses, on the same
.tflite, and prints one JSON object.

Usage: objects_peer.py ITERATIONS TFLITE_MODEL PHOTO...
  pipeline_ms: per photo, the samples of `detect` on the decoded BGR image: letterbox, ai-edge-litert
               invoke (1 thread), decode of the raw YOLO grids, per-class NMS — what ObjectDetector does;
  detections:  how many objects `detect` found per photo;
  invoke_ms:   the samples of Interpreter.invoke alone on a prepared tensor (the floor of any pipeline).
The decoding (anchors, masks, letterbox fill, thresholds) comes from the yolo_decoding.json the model zoo
packs into the model.
"""

import json
import sys
import zipfile

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter

from timing import peak_mib, pin_threads, samples_ms


class YOLOPipeline:
    """YOLOv3-tiny from a decoded BGR image to boxes (x, y, width, height in image pixels), scores and classes."""

    def __init__(self, model):
        self.decoding = json.loads(zipfile.ZipFile(model).read("yolo_decoding.json"))
        self.interpreter = Interpreter(model_path=model, num_threads=1)
        self.interpreter.allocate_tensors()
        self.input = self.interpreter.get_input_details()[0]
        self.outputs = {detail["name"]: detail["index"] for detail in self.interpreter.get_output_details()}

    def letterbox(self, image):
        """The image scaled to fit the input, centred on the fill colour, as RGB in 0…1; the scale and offsets."""
        size = self.decoding["input"]
        height, width = image.shape[:2]
        scale = min(size["width"] / width, size["height"] / height)
        scaled = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_LINEAR)
        left, top = (size["width"] - scaled.shape[1]) // 2, (size["height"] - scaled.shape[0]) // 2
        canvas = np.full((size["height"], size["width"], 3), size["letterbox_fill"], np.float32)
        canvas[top:top + scaled.shape[0], left:left + scaled.shape[1]] = cv2.cvtColor(scaled, cv2.COLOR_BGR2RGB) / 255
        return canvas[np.newaxis], scale, left, top

    def decode(self, grid, output, threshold):
        """Boxes (centre x, centre y, width, height in input pixels), scores and classes of one output grid."""
        classes = self.decoding["num_classes"]
        rows, columns = output["grid"]
        size = self.decoding["input"]
        cells = grid.reshape(rows, columns, len(output["mask"]), 5 + classes)
        best = cells[..., 5:].argmax(axis=-1)
        sigmoid = lambda values: 1 / (1 + np.exp(-values))
        scores = sigmoid(cells[..., 4]) * sigmoid(np.take_along_axis(cells[..., 5:], best[..., np.newaxis], -1)[..., 0])
        row, column, slot = np.nonzero(scores >= threshold)
        found = cells[row, column, slot]
        anchors = np.array(self.decoding["anchors"], np.float32)[np.array(output["mask"])[slot]]
        centre_x = (column + sigmoid(found[:, 0])) / columns * size["width"]
        centre_y = (row + sigmoid(found[:, 1])) / rows * size["height"]
        boxes = np.stack([centre_x, centre_y, anchors[:, 0] * np.exp(found[:, 2]), anchors[:, 1] * np.exp(found[:, 3])], 1)
        return boxes, scores[row, column, slot], best[row, column, slot]

    def detect(self, image):
        tensor, scale, left, top = self.letterbox(image)
        self.interpreter.set_tensor(self.input["index"], tensor)
        self.interpreter.invoke()
        threshold = self.decoding["score_threshold"]
        decoded = [self.decode(self.interpreter.get_tensor(self.outputs[output["name"]]), output, threshold)
                   for output in self.decoding["outputs"]]
        centres, scores, classes = (np.concatenate(parts) for parts in zip(*decoded))
        height, width = image.shape[:2]
        corners = np.stack([(centres[:, 0] - centres[:, 2] / 2 - left) / scale, (centres[:, 1] - centres[:, 3] / 2 - top) / scale,
                            (centres[:, 0] + centres[:, 2] / 2 - left) / scale, (centres[:, 1] + centres[:, 3] / 2 - top) / scale], 1)
        corners = np.clip(corners, 0, [width, height, width, height])
        boxes = np.concatenate([corners[:, :2], corners[:, 2:] - corners[:, :2]], 1)
        kept = cv2.dnn.NMSBoxesBatched(boxes.tolist(), scores.tolist(), classes.tolist(), threshold,
                                       self.decoding["nms_iou_threshold"])
        kept = np.array(kept, int).reshape(-1)
        return boxes[kept], scores[kept], classes[kept]


def main(iterations, model, photos):
    iterations = int(iterations)
    threads = pin_threads()
    pipeline = YOLOPipeline(model)
    result = {"pipeline_ms": {}, "detections": {}, "opencv_threads": threads}
    for photo in photos:
        image = cv2.imread(photo)
        result["detections"][photo] = len(pipeline.detect(image)[0])
        result["pipeline_ms"][photo] = samples_ms(lambda: pipeline.detect(image), iterations)
    interpreter = pipeline.interpreter
    interpreter.set_tensor(pipeline.input["index"], np.zeros(pipeline.input["shape"], np.float32))
    result["invoke_ms"] = samples_ms(interpreter.invoke, iterations)
    result["peak_mib"] = peak_mib()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
