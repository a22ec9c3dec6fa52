// OpenCV is consumed through the C++ shim target CVisionShim; this module only carries
// the pkg-config search paths and libraries of opencv4 to the targets that depend on it.
