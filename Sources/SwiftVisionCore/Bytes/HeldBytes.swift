import Foundation

/// The last bytes a reader fetched from a file, and where in the file they start, so that reads close
/// together are answered from memory: the one window of ``FileWindow`` (a file on disk) and of
/// `HTTPRangeReader` (a served file).
struct HeldBytes {
    private var data = Data()
    private var start = 0

    /// The file's bytes from `offset` up to `end` when all of them are held; nil otherwise.
    func bytes(from offset: Int, to end: Int) -> Data? {
        guard offset >= start, end <= start + data.count else { return nil }
        let first = data.startIndex + offset - start
        return data[first..<first + end - offset]
    }

    /// Holds `data`, the file's bytes from `offset` on, in place of those held before.
    mutating func hold(_ data: Data, from offset: Int) {
        (self.data, start) = (data, offset)
    }
}
