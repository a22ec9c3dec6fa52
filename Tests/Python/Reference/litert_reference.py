"""Runs a .tflite model with the Python ai-edge-litert Interpreter on a raw input tensor.

Usage: litert_reference.py MODEL INPUT_DIR OUTPUT_DIR
Each input is read from INPUT_DIR/<index>.bin (the tensor's dtype, C order); each output is
written to OUTPUT_DIR/<tensor name>.bin.
"""

import pathlib
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter


def main(model: str, input_dir: str, output_dir: str) -> None:
    interpreter = Interpreter(model_path=model, num_threads=1)
    interpreter.allocate_tensors()
    for index, detail in enumerate(interpreter.get_input_details()):
        raw = pathlib.Path(input_dir, f"{index}.bin").read_bytes()
        tensor = np.frombuffer(raw, dtype=detail["dtype"]).reshape(detail["shape"])
        interpreter.set_tensor(detail["index"], tensor)
    interpreter.invoke()
    for detail in interpreter.get_output_details():
        output = interpreter.get_tensor(detail["index"])
        pathlib.Path(output_dir, f"{detail['name']}.bin").write_bytes(output.tobytes())


if __name__ == "__main__":
    main(*sys.argv[1:4])
