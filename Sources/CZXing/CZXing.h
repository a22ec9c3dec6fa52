// zxing-cpp is consumed through the C++ shim target CBarcodeShim; this module only carries
// the pkg-config search paths of zxing to the targets that depend on it.
