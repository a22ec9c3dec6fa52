/// A model that a MediaPipe `.task` bundle must hold for a landmarker here to take the bundle: its name in the
/// bundle, the installed model the landmarker runs in its place (or none, where it runs the bundle's own), and the
/// SHA-256 of the copy in MediaPipe's published bundle, which is the installed model with other metadata (the same
/// tensors, shapes, types and weights: `Tests/Python/Reference/task_bundle_reference.py`). Where no published
/// copy is the installed model, the SHA-256 is nil and `difference` says what the published bundle holds instead.
struct BundledModel: Sendable {
    /// The file's name in the bundle, as MediaPipe's graph looks it up.
    let name: String
    /// The installed model run in its place; nil when the landmarker runs the bundle's copy.
    let installed: String?
    /// The SHA-256 of the published bundle's copy; nil when no published copy is the installed model.
    let sha256: String?
    /// What the published bundle's copy is, where it is not the installed model; empty otherwise.
    var difference = ""
}
