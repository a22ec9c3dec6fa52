import Synchronization

/// A value made the first time it is asked for and kept for the later calls: a model a task needs only
/// for some images, which the others then never pay for. A failed load is tried again by the next call.
final class LoadedOnFirstUse<Value: Sendable>: Sendable {
    private let load: @Sendable () throws -> Value
    private let loaded = Mutex<Value?>(nil)

    init(_ load: @escaping @Sendable () throws -> Value) {
        self.load = load
    }

    /// The value, made now by the first call.
    func value() throws -> Value {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let value = try load()
            loaded = value
            return value
        }
    }
}
