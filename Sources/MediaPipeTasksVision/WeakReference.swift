/// A weak reference to a landmarker, for its runner's result handler.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    /// Set once, in the landmarker's initializer, before any frame can be sent.
    weak var object: Object?
}
