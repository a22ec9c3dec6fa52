import CVisionShim

/// The number of threads OpenCV's parallel loops use in this process.
package enum OpenCVThreads {
    /// Sets the thread count of OpenCV's parallel loops and returns the count now in use.
    @discardableResult
    package static func set(_ count: Int) -> Int {
        Int(sv_set_thread_count(Int32(count)))
    }
}
