"""SwiftVision model zoo: builds .tflite models from public weights without TensorFlow."""
