import ArgumentParser
import Foundation
import Logging
import SwiftVisionServer

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch a video file, an RTSP stream or a camera and print its events as they happen.",
        discussion: """
            Runs the source as `serve` runs the sources of POST /v1/sources: paced to its frame rate, at most \
            --fps frames a second through the task's live stream, reconnecting with backoff when a stream ends \
            or stalls. Events (object.entered, object.left, face.appeared, face.left, barcode.read, \
            text.matched, segment.person_present, segment.person_absent) are printed one per line, as JSON Lines \
            with --json, and posted, signed, to --webhook; the tasks that make them are objects, faces, barcodes, \
            segment and text (with --match). Ctrl-C stops it; a file ends at its end unless --loop. \
            docs/sources.md describes the events and the signature.
            """)

    @Argument(help: "A video file, rtsp://HOST/PATH or camera:N.")
    var url: String

    @Option(help: "The task the frames go through: objects, faces, barcodes, segment, or text with --match.")
    var task = "objects"

    @Option(help: "The task's options as a JSON object, e.g. '{\"multiple\": true, \"classify\": true}'.")
    var options: String?

    @Option(help: "Frames a second sent to the task, at most (0.1…60).")
    var fps = 5.0

    @Flag(help: "Start a file again at its end.")
    var loop = false

    @Option(help: "A word or phrase to watch for in a text source's recognised text (text.matched events); repeatable.")
    var match: [String] = []

    @Option(help: "POST each event to this http:// URL, signed (X-SwiftVision-Signature).")
    var webhook: String?

    @Option(help: "The webhook's secret (16…256 characters); prefer $SWIFTVISION_WEBHOOK_SECRET, which `ps` does not show.")
    var webhookSecret: String?

    @Flag(help: "Print events as JSON Lines.")
    var json = false

    @Option(help: "Threads for each inference (default: the task's).")
    var threads: Int?

    @OptionGroup var logging: LoggingOptions

    /// Refuses a task whose output makes no event: the command would watch and print nothing.
    func validate() throws {
        if let reason = SourceWatch.whyNoEvents(forTask: task, phrases: match) { throw ValidationError("--task \(reason)") }
    }

    /// Seconds to wait at the end for webhook posts still being retried.
    static let drainSeconds = 30

    func run() throws {
        var logger = Logger(label: "swiftvision.watch")
        logger.logLevel = logging.verbose ? .debug : .warning
        let secret = webhookSecret ?? ProcessInfo.processInfo.environment["SWIFTVISION_WEBHOOK_SECRET"]
        let json = json
        let watch: SourceWatch
        do {
            watch = try SourceWatch(
                url: url, task: task, options: options, fps: fps, loop: loop, match: match, webhookURL: webhook,
                webhookSecret: webhook == nil ? nil : secret, threads: threads, logger: logger
            ) { event in
                print(json ? event : Self.describe(event))
                fflush(nil)
            }
        } catch {
            throw ValidationError((error as? APIError)?.message ?? "\(error)")
        }
        Interruption.install()
        watch.start()
        while !watch.waitUntilFinished(timeout: .milliseconds(100)) {
            if Interruption.isRequested { watch.stop() }
        }
        for _ in 0..<(Self.drainSeconds * 10) where watch.undelivered > 0 && !Interruption.isRequested {
            Thread.sleep(forTimeInterval: 0.1)
        }
        if watch.undelivered > 0 { Diagnostics.note("\(watch.undelivered) webhook posts were not delivered") }
        Diagnostics.note(watch.statusJSON)
        if let failure = watch.failure {
            Diagnostics.note("Error: \(failure)")
            throw ExitCode(1)
        }
    }

    /// `object.entered person #3 at 120,40 200x310` from an event's JSON.
    static func describe(_ event: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any] else { return event }
        var words = [object["type"] as? String ?? "event"]
        if let label = object["label"] as? String { words.append(label) }
        if let value = object["value"] as? String { words.append(value) }
        if let id = object["trackingID"] as? Int { words.append("#\(id)") }
        if let box = object["box"] as? [String: Double], let x = box["x"], let y = box["y"], let w = box["width"], let h = box["height"] {
            words.append("at \(Int(x)),\(Int(y)) \(Int(w))x\(Int(h))")
        }
        return words.joined(separator: " ")
    }
}
