/// A weak reference to a task class, for its live-stream delivery.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    /// Set once, in the class's initializer, before any frame can be sent.
    weak var object: Object?
}
