"""PaddleOCR's CTC text recognition of single lines, as rapidocr-onnxruntime 1.4.4 reads a line alone, on the model
zoo's PP-OCRv4 recogniser.

Prints one JSON array, per line image in order: {"file", "text", "confidence"}. The steps are rapidocr's
(`ch_ppocr_rec`: `TextRecognizer.resize_norm_img` for a batch of one, `CTCLabelDecode`): the image (BGR) scaled
with cv2.resize to height 48 and width ceil(48 x w / h), at most the input's width, which is that width but at
least 320 (rapidocr's `rec_img_shape`), here rounded up to a multiple of 8 for the converted model; (x / 255 - 0.5)
/ 0.5, zeros to the right; the likeliest class at each step, repeats of the step before and the blank (class 0)
dropped; the confidence the mean probability of the characters kept. The characters are the model's label file
(blank first, a space last). The model runs on ai-edge-litert's interpreter, its input resized per line.

usage: text_recognition_reference.py MODEL IMAGE...
"""
import json
import math
import sys
import zipfile

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter


def characters(model):
    with zipfile.ZipFile(model) as packed:
        lines = packed.read("ppocr_v4_characters.txt").decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def main():
    model, images = sys.argv[1], sys.argv[2:]
    labels = characters(model)
    interpreter = Interpreter(model_path=model, num_threads=1)
    results = []
    for path in images:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        resized_w = math.ceil(48 * w / h)
        width = max(320, math.ceil(resized_w / 8) * 8)
        resized = cv2.resize(image, (min(resized_w, width), 48)).astype(np.float32)
        tensor = np.zeros((1, 48, width, 3), np.float32)
        tensor[0, :, :resized.shape[1]] = (resized / 255.0 - 0.5) / 0.5
        interpreter.resize_tensor_input(interpreter.get_input_details()[0]["index"], tensor.shape)
        interpreter.allocate_tensors()
        interpreter.set_tensor(interpreter.get_input_details()[0]["index"], tensor)
        interpreter.invoke()
        probabilities = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])[0]
        index, probability = probabilities.argmax(axis=1), probabilities.max(axis=1)
        keep = np.ones(len(index), dtype=bool)
        keep[1:] = index[1:] != index[:-1]
        keep &= index != 0
        kept = probability[keep].tolist() or [0]
        results.append({"file": path, "text": "".join(labels[i] for i in index[keep]),
                        "confidence": float(np.mean(kept))})
    print(json.dumps(results))


if __name__ == "__main__":
    main()
