"""A Darknet YOLOv3 detector run end to end in Python, written from the YOLO format: the independent
reference of SwiftVision's objects task, and the Python peer of the objects benchmark.

The model is a .tflite file of the raw YOLO grids with `yolo_decoding.json` packed in it (the model zoo's
yolov3_tiny_coco.tflite: input size, letterbox fill, anchors in input pixels, per-output masks, score and
NMS thresholds) and, optionally, `coco_labels.txt`. For one BGR image (as cv2.imread gives it):

1. Letterbox: scale the RGB image by min(W / w, H / h) to (round(w s), round(h s)) and centre it in the
   W×H input filled with `letterbox_fill`; pixel values / 255. The filter is OpenCV's INTER_AREA when the
   image shrinks and INTER_LINEAR when it grows (`interpolation` to change it).
2. ai-edge-litert's Interpreter runs the model.
3. Decode each grid (NHWC, channel a·(5 + classes) + k for anchor a of the output's mask):
   cx = (col + σ(tx)) / grid_w, cy = (row + σ(ty)) / grid_h, w = anchor_w · e^tw / W, h = anchor_h · e^th / H
   in fractions of the input (with the output's `scale_x_y` s, YOLOv4's: col + σ(tx)·s − (s − 1)/2); the class is the best class logit and the score σ(objectness) · σ(class logit),
   kept when at least the threshold.
4. Undo the letterbox (back to image pixels), clip the boxes to the image, and suppress class by class:
   best score first, a box is dropped when its IoU with a kept box of its class exceeds `nms_iou_threshold`.
"""

import json
import zipfile

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def iou(box, boxes):
    """IoU of one [left, top, right, bottom] box with each row of `boxes`."""
    left = np.maximum(box[0], boxes[:, 0])
    top = np.maximum(box[1], boxes[:, 1])
    right = np.minimum(box[2], boxes[:, 2])
    bottom = np.minimum(box[3], boxes[:, 3])
    overlap = np.clip(right - left, 0, None) * np.clip(bottom - top, 0, None)
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return overlap / ((box[2] - box[0]) * (box[3] - box[1]) + areas - overlap)


class YOLOPipeline:
    """Letterbox, invoke, decode and class-wise NMS of one packed YOLO .tflite model."""

    def __init__(self, model_path, num_threads=1, interpolation=None):
        with zipfile.ZipFile(model_path) as packed:
            self.spec = json.loads(packed.read("yolo_decoding.json"))
            names = packed.namelist()
            self.labels = packed.read("coco_labels.txt").decode().splitlines() if "coco_labels.txt" in names else None
        self.interpolation = interpolation
        self.interpreter = Interpreter(model_path=model_path, num_threads=num_threads)
        self.interpreter.allocate_tensors()
        self.input = self.interpreter.get_input_details()[0]["index"]
        details = {d["name"]: d["index"] for d in self.interpreter.get_output_details()}
        self.outputs = [(details[o["name"]], o) for o in self.spec["outputs"]]

    def letterbox(self, image_bgr):
        """The input tensor [1, H, W, 3] and the letterbox: scale per axis and offset (x, y) in input pixels."""
        spec = self.spec["input"]
        (height, width), (in_w, in_h) = image_bgr.shape[:2], (spec["width"], spec["height"])
        scale = min(in_w / width, in_h / height)
        new_w, new_h = min(in_w, max(1, round(width * scale))), min(in_h, max(1, round(height * scale)))
        interpolation = self.interpolation
        if interpolation is None:
            interpolation = cv2.INTER_AREA if new_w < width or new_h < height else cv2.INTER_LINEAR
        resized = cv2.resize(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2RGB), (new_w, new_h), interpolation=interpolation)
        tensor = np.full((in_h, in_w, 3), spec["letterbox_fill"], dtype=np.float32)
        x, y = (in_w - new_w) // 2, (in_h - new_h) // 2
        tensor[y:y + new_h, x:x + new_w] = resized.astype(np.float32) / 255
        return tensor[np.newaxis], (new_w / width, new_h / height), (x, y)

    def decode(self, grid, output, threshold):
        """Rows [cx, cy, w, h (fractions of the input), score, class] of one output grid scoring ≥ threshold."""
        rows, columns = output["grid"]
        classes = self.spec["num_classes"]
        values = grid.reshape(rows, columns, len(output["mask"]), 5 + classes)
        found = []
        for slot, anchor_index in enumerate(output["mask"]):
            cells = values[:, :, slot, :]
            best = np.argmax(cells[..., 5:], axis=-1)
            score = sigmoid(cells[..., 4]) * sigmoid(np.take_along_axis(cells[..., 5:], best[..., None], -1)[..., 0])
            row, column = np.nonzero(score >= threshold)
            anchor_w, anchor_h = self.spec["anchors"][anchor_index]
            cell = cells[row, column]
            scale = output.get("scale_x_y", 1)
            found.append(np.stack([
                (column + sigmoid(cell[:, 0]) * scale - (scale - 1) / 2) / columns,
                (row + sigmoid(cell[:, 1]) * scale - (scale - 1) / 2) / rows,
                anchor_w * np.exp(cell[:, 2]) / self.spec["input"]["width"],
                anchor_h * np.exp(cell[:, 3]) / self.spec["input"]["height"],
                score[row, column], best[row, column]], axis=1))
        return np.concatenate(found)

    def detect(self, image_bgr, threshold=None):
        """The objects in `image_bgr`, best first: [{"class", "name", "score", "box": [left, top, right, bottom]}]
        in pixels of the image; `threshold` defaults to the model's score threshold."""
        threshold = self.spec["score_threshold"] if threshold is None else threshold
        tensor, (scale_x, scale_y), (offset_x, offset_y) = self.letterbox(image_bgr)
        self.interpreter.set_tensor(self.input, tensor)
        self.interpreter.invoke()
        found = np.concatenate([self.decode(self.interpreter.get_tensor(index), output, threshold)
                                for index, output in self.outputs])
        in_w, in_h = self.spec["input"]["width"], self.spec["input"]["height"]
        height, width = image_bgr.shape[:2]
        cx, cy, w, h = found[:, 0] * in_w, found[:, 1] * in_h, found[:, 2] * in_w, found[:, 3] * in_h
        boxes = np.stack([
            np.clip((cx - w / 2 - offset_x) / scale_x, 0, width), np.clip((cy - h / 2 - offset_y) / scale_y, 0, height),
            np.clip((cx + w / 2 - offset_x) / scale_x, 0, width), np.clip((cy + h / 2 - offset_y) / scale_y, 0, height),
        ], axis=1)
        visible = (boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])
        boxes, scores, classes = boxes[visible], found[visible, 4], found[visible, 5].astype(int)
        kept = []
        for index in np.argsort(-scores, kind="stable"):
            same = [k for k in kept if classes[k] == classes[index]]
            if not same or iou(boxes[index], boxes[same]).max() <= self.spec["nms_iou_threshold"]:
                kept.append(index)
        return [{
            "class": int(classes[k]), "name": self.labels[classes[k]] if self.labels else str(classes[k]),
            "score": float(scores[k]), "box": [float(v) for v in boxes[k]],
        } for k in kept]
