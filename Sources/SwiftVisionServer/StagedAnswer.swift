import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SwiftVision

/// Where one request's time went on the server: waiting for an inference slot, decoding the image,
/// the inference, and encoding the answer. Sent as the `Server-Timing` header and recorded in the
/// `swiftvision_request_stage_seconds` histograms.
struct StageTimings: Sendable {
    var queue: Duration = .zero
    var decode: Duration = .zero
    var inference: Duration = .zero
    var encode: Duration = .zero

    /// The `Server-Timing` header's value, in milliseconds: `queue;dur=0.02, decode;dur=3.10, …`.
    var headerValue: String {
        "queue;dur=\(queue.milliseconds(decimals: 3)), decode;dur=\(decode.milliseconds(decimals: 3)), "
            + "inference;dur=\(inference.milliseconds(decimals: 3)), encode;dur=\(encode.milliseconds(decimals: 3))"
    }
}

extension RequestLimiter.Admission {
    /// The largest image decoded on the request's own thread; larger ones decode on a decoding thread,
    /// so that no connection thread is held for long (a 2-megapixel JPEG decodes in a few milliseconds).
    static let inlineDecodePixels = 2_100_000

    /// The JSON answer of `task` for `file`, and where its time went: see ``staged(decoding:closing:_:encode:)``.
    func answer(
        _ task: any ServedTask, for file: ImageUpload.File, closing channel: (any Channel)?
    ) async throws -> (json: Data, timings: StageTimings) {
        try await staged(decoding: [file], closing: channel) { images -> any Encodable & Sendable in
            try task.output(for: images[0])
        } encode: { (output: any Encodable & Sendable) in
            try serviceEncoder.encode(output)
        }
    }

    /// The JSON answer of `work` on the decoded `files`, and where its time went: the images are decoded
    /// before the inference slot is asked for (on the request's thread, or a decoding thread for a large
    /// image) while other inferences run, only `work` holds a slot, and `encode` runs after the slot is
    /// given back. Throws 504 past the deadline, like ``run(closing:_:)``.
    func staged<Output: Sendable>(
        decoding files: [ImageUpload.File], closing channel: (any Channel)?,
        _ work: @escaping @Sendable ([VisionImage]) throws -> Output, encode: (Output) throws -> Data
    ) async throws -> (json: Data, timings: StageTimings) {
        let clock = ContinuousClock()
        var timings = StageTimings()
        let decodeStart = clock.now
        var images: [VisionImage] = []
        for file in files {
            images.append(file.pixelCount <= Self.inlineDecodePixels ? try file.decode() : try await limiter.offload { try file.decode() })
        }
        timings.decode = decodeStart.duration(to: clock.now)
        guard clock.now < deadline else { throw APIError.timedOut }
        let queued = clock.now
        let decoded = images
        let (output, started, ended) = try await run(closing: channel) {
            let started = clock.now
            let output = try work(decoded)
            return (output, started, clock.now)
        }
        timings.queue = queued.duration(to: started)
        timings.inference = started.duration(to: ended)
        let encodeStart = clock.now
        let json = try encode(output)
        timings.encode = encodeStart.duration(to: clock.now)
        return (json, timings)
    }
}

extension Response {
    /// The response with `timings` in its `Server-Timing` header, recorded for `task`.
    func timed(_ timings: StageTimings, task: String) -> Response {
        ServerMetrics.record(task: task, stages: timings)
        var response = self
        response.headers[HTTPField.Name("Server-Timing")!] = timings.headerValue
        return response
    }
}
