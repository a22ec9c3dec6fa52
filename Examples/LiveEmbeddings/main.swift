// Embeds a camera's frames in MediaPipe's live-stream mode and says how alike each is to the first,
// written as an iOS app does with ImageEmbedder and its live-stream delegate: only the frames differ
// (SwiftVision's VideoReader, from a video file or `camera:N`, where an app has its camera's sample buffers).
//
//     swift run example-live-embeddings VIDEO|camera:N
// prints, per result: the frame's timestamp in ms and its cosine similarity to the first result's frame.
import Foundation
import MediaPipeTasksVision
import SwiftVisionCore

/// Receives the embedder's results, as an app's view controller does.
final class SimilarityPrinter: NSObject, ImageEmbedderLiveStreamDelegate, @unchecked Sendable {
    private var reference: Embedding?
    private var newest = Int.min
    private let lock = NSLock()

    /// The timestamp of the newest result.
    var newestTimestamp: Int { lock.withLock { newest } }

    func imageEmbedder(
        _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?, timestampInMilliseconds: Int,
        error: (any Error)?
    ) {
        lock.withLock { newest = max(newest, timestampInMilliseconds) }
        guard let embedding = result?.embeddingResult.embeddings.first else {
            FileHandle.standardError.write(Data("error at \(timestampInMilliseconds) ms: \(error?.localizedDescription ?? "no embedding")\n".utf8))
            return
        }
        lock.withLock {
            let first = reference ?? embedding
            reference = first
            let similarity = (try? ImageEmbedder.cosineSimilarity(embedding1: first, embedding2: embedding))?.doubleValue ?? .nan
            print(String(format: "%d %.4f", timestampInMilliseconds, similarity))
        }
    }
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: example-live-embeddings VIDEO|camera:N\n".utf8))
    exit(64)
}

do {
    let source = CommandLine.arguments[1]
    let video =
        source.hasPrefix("camera:")
        ? try VideoReader(camera: Int(source.dropFirst("camera:".count)) ?? 0)
        : try VideoReader(url: URL(fileURLWithPath: source))
    let printer = SimilarityPrinter()
    let options = ImageEmbedderOptions()
    options.runningMode = .liveStream
    options.l2Normalize = true
    options.imageEmbedderLiveStreamDelegate = printer
    let embedder = try ImageEmbedder(options: options)
    let frameInterval = 1 / max(video.framesPerSecond, 1)
    var lastSent = Int.min
    for frame in video {
        // Frames come at the camera's pace; one that arrives while the embedder is busy is dropped, as on iOS.
        try embedder.embedAsync(image: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
        lastSent = frame.timestampInMilliseconds
        if !video.isLive { Thread.sleep(forTimeInterval: frameInterval) }
    }
    // The newest frame is never dropped: its result ends the run.
    let deadline = Date().addingTimeInterval(10)
    while printer.newestTimestamp < lastSent, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
} catch {
    FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
    exit(1)
}
