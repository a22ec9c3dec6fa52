import Crypto
import Dispatch
import Foundation
import SwiftVision
import Synchronization

/// Adds photos and video frames to a collection: each picture is hashed, skipped when the collection
/// has it, otherwise analysed and written in one transaction. Several sources are analysed at once (the
/// model store runs their inferences in parallel); a source that cannot be read is recorded as a failure
/// and the others go on. Stopping at any point loses at most the pictures being analysed, and running
/// again picks up where it stopped.
public struct CollectionIndexer: Sendable {
    /// The file extensions of photos that folders are searched for.
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff", "heic", "heif", "hif", "avif", "gif", "pbm", "pgm", "ppm", "pnm", "pam",
        "jp2", "j2k",
    ]

    /// Where the items go.
    public let store: any CollectionStore
    /// The collection's name.
    public let collection: String
    /// The tasks run on each picture.
    public let analyzer: ItemAnalyzer
    /// The file extensions (lowercase, without the dot) read as videos.
    public let videoExtensions: Set<String>
    /// Seconds between the frames sampled from a video.
    public let sampleInterval: Double
    /// Whether the first frame of each new shot of a video (after a hard cut) is sampled too.
    public let samplesSceneCuts: Bool
    /// How many sources are analysed at once.
    public let parallelItems: Int

    /// An indexer into `collection` of `store`.
    public init(
        store: any CollectionStore, collection: String, analyzer: ItemAnalyzer, videoExtensions: Set<String>,
        sampleInterval: Double = 1, samplesSceneCuts: Bool = true,
        parallelItems: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.store = store
        self.collection = collection
        self.analyzer = analyzer
        self.videoExtensions = videoExtensions
        self.sampleInterval = sampleInterval
        self.samplesSceneCuts = samplesSceneCuts
        self.parallelItems = max(1, parallelItems)
    }

    /// The files to index for `paths`: a file as given, a folder's photos and videos (by extension, at any
    /// depth, in path order); a path that does not exist is kept, to be reported as a failure.
    public func sources(for paths: [String]) -> [String] {
        paths.flatMap { path in Self.files(in: path, videoExtensions: videoExtensions) ?? [path] }
    }

    /// The photos and videos (by extension, any case) in the folder `path` and its subfolders, in path
    /// order; nil when `path` is not a folder.
    public static func files(in path: String, videoExtensions: Set<String>) -> [String]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        let known = imageExtensions.union(videoExtensions)
        // A folder named through a symbolic link (~/Pictures on another disk) is walked where it lies: the
        // enumerator lists nothing under a link. Links further down are not followed, so no loop is walked.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let files = (FileManager.default.enumerator(atPath: target)?.allObjects as? [String] ?? [])
            .filter { known.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }.sorted()
        let folder = path.hasSuffix("/") ? path : path + "/"
        return files.map { folder + $0 }
    }

    /// Whether the file at `url` is read as a video: its extension is one of `videoExtensions`, or it is a
    /// regular file whose name is not a photo's and whose first bytes open a video container
    /// (`VideoContainer`: a camcorder's `.MTS`, a transport stream's `.ts`, a file without an extension).
    public static func isVideo(_ url: URL, videoExtensions: Set<String>) -> Bool {
        let pathExtension = url.pathExtension.lowercased()
        if videoExtensions.contains(pathExtension) { return true }
        guard url.isFileURL, !imageExtensions.contains(pathExtension),
            (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
        else { return false }
        return VideoContainer(contentsOf: url) != nil
    }

    /// Indexes every one of `sources`, calling `report` with each picture's outcome and the run's counts so
    /// far (from the indexing threads, one call at a time); stops taking new sources once `shouldStop`
    /// says so. Returns the final counts.
    @discardableResult
    public func index(
        _ sources: [String], shouldStop: @escaping @Sendable () -> Bool = { false },
        report: @escaping @Sendable (IndexEvent, IndexProgress) -> Void = { _, _ in }
    ) -> IndexProgress {
        let state = Mutex((next: 0, progress: IndexProgress(total: sources.count)))
        let record: @Sendable (IndexEvent) -> Void = { event in
            state.withLock { state in
                state.progress.count(event)
                report(event, state.progress)
            }
        }
        DispatchQueue.concurrentPerform(iterations: min(parallelItems, sources.count)) { _ in
            while !shouldStop() {
                let position = state.withLock { state -> Int in
                    defer { state.next += 1 }
                    return state.next
                }
                guard position < sources.count else { return }
                // A video cut short by `shouldStop` is not done: the next run goes on with it.
                guard index(sources[position], shouldStop: shouldStop, record: record) else { return }
                state.withLock { state in
                    state.progress.done += 1
                    report(IndexEvent(file: sources[position], status: .finished), state.progress)
                }
            }
        }
        return state.withLock { $0.progress }
    }

    /// Indexes one source; false when `shouldStop` cut a video short.
    private func index(_ source: String, shouldStop: @Sendable () -> Bool, record: @Sendable (IndexEvent) -> Void) -> Bool {
        let url = URL(fileURLWithPath: source)
        do {
            if Self.isVideo(url, videoExtensions: videoExtensions) {
                return try indexVideo(source, url: url, shouldStop: shouldStop, record: record)
            } else {
                let data = try Data(contentsOf: url, options: .mappedIfSafe)
                let hash = Self.contentHash(of: data)
                if try store.contains(contentHash: hash, timestampMs: nil, in: collection) {
                    record(IndexEvent(file: source, status: .skipped))
                    return true
                }
                let image = try VisionImage(data: data)
                record(try add(image, hash: hash, source: source, timestampMs: nil))
            }
        } catch {
            // Recorded and shown beside the file: a video that cannot be read is not named again.
            let message = (error as? VideoError)?.description(namingVideo: false) ?? error.localizedDescription
            try? store.recordFailure(source: source, message: message, in: collection)
            record(IndexEvent(file: source, status: .failed, error: message))
        }
        return true
    }

    /// Samples a frame every ``sampleInterval`` seconds (the first frame, then the first at or after each
    /// multiple) and, with ``samplesSceneCuts``, the first frame of each new shot (`SceneCutDetector`: a
    /// 3×3 grid of gray histograms that changes by more than 0.3); skips the frames the collection has.
    /// False when `shouldStop` ends it before the last frame.
    private func indexVideo(_ source: String, url: URL, shouldStop: @Sendable () -> Bool, record: @Sendable (IndexEvent) -> Void) throws -> Bool {
        let hash = try Self.fileHash(url)
        let reader = try VideoReader(url: url)
        let interval = max(1, Int((sampleInterval * 1000).rounded()))
        var next = 0
        var cuts = SceneCutDetector()
        for frame in reader {
            if shouldStop() { return false }
            let startsShot = samplesSceneCuts ? try cuts.isCut(frame.image) : false
            guard frame.timestampInMilliseconds >= next || startsShot else { continue }
            next = (frame.timestampInMilliseconds / interval + 1) * interval
            if try store.contains(contentHash: hash, timestampMs: frame.timestampInMilliseconds, in: collection) {
                record(IndexEvent(file: source, timestampMs: frame.timestampInMilliseconds, status: .skipped))
            } else {
                record(try add(frame.image, hash: hash, source: source, timestampMs: frame.timestampInMilliseconds))
            }
        }
        if let error = reader.error { throw error }
        return true
    }

    private func add(_ image: VisionImage, hash: String, source: String, timestampMs: Int?) throws -> IndexEvent {
        let record = ItemRecord(
            contentHash: hash, source: source, timestampMs: timestampMs, image: image, analysis: try analyzer.analysis(of: image))
        switch try store.add(record, to: collection) {
        case .added(let id): return IndexEvent(file: source, timestampMs: timestampMs, status: .added, id: id)
        case .alreadyIndexed(let id): return IndexEvent(file: source, timestampMs: timestampMs, status: .skipped, id: id)
        }
    }

    /// SHA-256 of a file read in 1 MiB pieces.
    static func fileHash(_ url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty { hasher.update(data: piece) }
        return hasher.finalize().hexString
    }

    /// The content hash an item of `data` (a picture's file) is stored under: its SHA-256, in hexadecimal.
    public static func contentHash(of data: Data) -> String {
        SHA256.hash(data: data).hexString
    }
}

/// What happened to one picture, or that a source is done.
public struct IndexEvent: Sendable, Hashable, Codable {
    /// The outcome.
    public enum Status: String, Sendable, Codable {
        /// Analysed and written.
        case added
        /// The collection had it already.
        case skipped
        /// It could not be read or analysed.
        case failed
        /// Every picture of the source is done.
        case finished
    }

    /// The source, as given.
    public var file: String
    /// A video frame's time in milliseconds.
    public var timestampMs: Int?
    /// The outcome.
    public var status: Status
    /// The item's id, when it was added or found.
    public var id: Int64?
    /// Why it failed.
    public var error: String?

    /// An event of `file`.
    public init(file: String, timestampMs: Int? = nil, status: Status, id: Int64? = nil, error: String? = nil) {
        self.file = file
        self.timestampMs = timestampMs
        self.status = status
        self.id = id
        self.error = error
    }
}

/// The counts of an indexing run.
public struct IndexProgress: Sendable, Hashable, Codable {
    /// Sources done.
    public var done = 0
    /// Sources in all.
    public var total: Int
    /// Pictures added.
    public var added = 0
    /// Pictures the collection had.
    public var skipped = 0
    /// Sources (or frames) that failed.
    public var failed = 0

    /// The counts before anything is done, of `total` sources.
    public init(total: Int) {
        self.total = total
    }

    mutating func count(_ event: IndexEvent) {
        switch event.status {
        case .added: added += 1
        case .skipped: skipped += 1
        case .failed: failed += 1
        case .finished: break
        }
    }
}
