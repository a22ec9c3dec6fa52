"""PaddleOCR's DB text detection, as rapidocr-onnxruntime 1.4.4 runs it, on the model zoo's PP-OCRv4 detector.

Prints one JSON array, per image in order: {"file", "boxes"}, each box four [x, y] corners in the image's pixels
(top left, top right, bottom right, bottom left). The steps and settings are rapidocr's (`ch_ppocr_det`,
config.yaml): the shorter side scaled up to 736 and both sides rounded to multiples of 32 (the longer side capped
at 1920, as the Swift detector caps it), BGR scaled to (x / 255 - 0.5) / 0.5; probabilities above 0.3, dilated
by a 2 x 2 kernel; every contour (cv2.RETR_LIST) as its cv2.minAreaRect, dropped below 3 pixels across; the
mean probability in the box (cv2.fillPoly of the corners as integers) at least 0.5; grown by pyclipper's round
offset of distance area x 1.6 / perimeter (the offset of a convex box is the hull of circles of that radius
about its corners, so its cv2.minAreaRect is taken over those circles' points here) and dropped below 5 pixels
across; scaled to the image and rounded; corners ordered and clipped as `filter_tag_det_res`, boxes 3 pixels or
less across dropped. The model runs on ai-edge-litert's interpreter, its input resized to the image's size.

usage: text_lines_reference.py MODEL IMAGE...
"""
import json
import math
import sys

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter


def input_size(width, height):
    ratio = 736 / min(width, height) if min(width, height) < 736 else 1.0
    ratio = min(ratio, 1920 / max(width, height))
    return (max(32, int(round(int(width * ratio) / 32)) * 32), max(32, int(round(int(height * ratio) / 32)) * 32))


def mini_box(points):
    rect = cv2.minAreaRect(points)
    corners = sorted(list(cv2.boxPoints(rect)), key=lambda p: p[0])
    left = sorted(corners[:2], key=lambda p: p[1])
    right = sorted(corners[2:], key=lambda p: p[1])
    return np.array([left[0], right[0], right[1], left[1]]), min(rect[1])


def score(probabilities, box):
    h, w = probabilities.shape
    xmin, xmax = np.clip(math.floor(box[:, 0].min()), 0, w - 1), np.clip(math.ceil(box[:, 0].max()), 0, w - 1)
    ymin, ymax = np.clip(math.floor(box[:, 1].min()), 0, h - 1), np.clip(math.ceil(box[:, 1].max()), 0, h - 1)
    mask = np.zeros((ymax - ymin + 1, xmax - xmin + 1), dtype=np.uint8)
    shifted = box - [xmin, ymin]
    cv2.fillPoly(mask, shifted.reshape(1, -1, 2).astype(np.int32), 1)
    return cv2.mean(probabilities[ymin:ymax + 1, xmin:xmax + 1], mask)[0]


def unclip(box):
    area = cv2.contourArea(box.astype(np.float32))
    distance = area * 1.6 / cv2.arcLength(box.astype(np.float32), True)
    angles = np.linspace(0, 2 * math.pi, 360, endpoint=False)
    circle = np.stack([np.cos(angles), np.sin(angles)], axis=1) * distance
    return np.concatenate([corner + circle for corner in box]).astype(np.float32)


def detect(interpreter, image):
    height, width = image.shape[:2]
    w, h = input_size(width, height)
    resized = cv2.resize(image, (w, h)).astype(np.float32)
    tensor = ((resized / 255.0 - 0.5) / 0.5)[None].astype(np.float32)
    index = interpreter.get_input_details()[0]["index"]
    interpreter.resize_tensor_input(index, [1, h, w, 3])
    interpreter.allocate_tensors()
    interpreter.set_tensor(index, tensor)
    interpreter.invoke()
    probabilities = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])[0, :, :, 0]
    mask = cv2.dilate((probabilities > 0.3).astype(np.uint8), np.ones((2, 2), np.uint8))
    contours, _ = cv2.findContours(mask * 255, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    boxes = []
    for contour in contours[:1000]:
        box, side = mini_box(contour)
        if side < 3 or score(probabilities, box.reshape(-1, 2)) < 0.5:
            continue
        box, side = mini_box(unclip(box))
        if side < 5:
            continue
        box[:, 0] = np.clip(np.round(box[:, 0] / w * width), 0, width)
        box[:, 1] = np.clip(np.round(box[:, 1] / h * height), 0, height)
        # filter_tag_det_res: corners ordered by x then y, clipped to the image.
        by_x = box[np.argsort(box[:, 0])]
        left, right = by_x[:2][np.argsort(by_x[:2, 1])], by_x[2:][np.argsort(by_x[2:, 1])]
        ordered = np.array([left[0], right[0], right[1], left[1]])
        ordered[:, 0] = np.clip(ordered[:, 0], 0, width - 1).astype(int)
        ordered[:, 1] = np.clip(ordered[:, 1], 0, height - 1).astype(int)
        if int(np.linalg.norm(ordered[0] - ordered[1])) <= 3 or int(np.linalg.norm(ordered[0] - ordered[3])) <= 3:
            continue
        boxes.append(ordered.tolist())
    return boxes


def main(model, paths):
    interpreter = Interpreter(model_path=model, num_threads=1)
    results = []
    for path in paths:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"cannot read {path}")
        results.append({"file": path, "boxes": detect(interpreter, image)})
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
