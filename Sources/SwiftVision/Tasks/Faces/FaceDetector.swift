import Foundation
import Synchronization

/// Finds faces, their landmarks and contours (ML Kit's `FaceDetector`, on MediaPipe's models).
///
/// Safe to share between threads; calls are served one at a time. For video, feed frames in order to
/// ``results(inVideoFrame:timestampInMilliseconds:)``: faces keep tracking IDs and the face mesh follows
/// them from frame to frame, so the detector runs only now and then.
public final class FaceDetector: Sendable {
    public let options: FaceDetectorOptions
    private let analyzer: FaceAnalyzer
    private let tracker = Mutex<FaceTracker?>(FaceTracker())

    /// Loads the models (installed by `swiftvision setup`).
    public init(options: FaceDetectorOptions = FaceDetectorOptions()) throws {
        self.options = options
        analyzer = try FaceAnalyzer.shared(options.analyzerConfiguration)
    }

    /// The faces in one image; with ``FaceDetectorOptions/isTrackingEnabled`` successive calls form a stream.
    public func results(in image: VisionImage) throws -> [Face] {
        if options.isTrackingEnabled { return try track(image, timestamp: nil) }
        return try analyzer.analyze(image, landmarks: options.needsMesh).map { Face($0, options: options) }
    }

    /// The faces in one image, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [Face] {
        try await Task.detached(priority: .userInitiated) { try self.results(in: image) }.value
    }

    /// The faces in the next frame of a video, with tracking IDs. Timestamps must increase.
    public func results(inVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> [Face] {
        try track(image, timestamp: timestamp)
    }

    /// Forgets tracked faces; the next frame starts a new stream.
    public func reset() {
        tracker.withLock { if $0 != nil { $0 = FaceTracker() } }
    }

    /// Ends the stream; later calls fail with ``FaceDetectorError/closed``.
    public func close() {
        tracker.withLock { $0 = nil }
    }

    private func track(_ image: VisionImage, timestamp: Int?) throws -> [Face] {
        try tracker.withLock { tracker in
            guard tracker != nil else { throw FaceDetectorError.closed }
            return try tracker!.faces(in: image, timestamp: timestamp, analyzer: analyzer, landmarks: options.needsMesh)
                .map { Face($0, options: options) }
        }
    }
}
