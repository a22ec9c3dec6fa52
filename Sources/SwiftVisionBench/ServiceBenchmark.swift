import Foundation
import SwiftVision

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The service: `POST /v1/{faces,labels,objects}` through HTTP (wrk on loopback, keep-alive, and the
/// bench's own client for where each request's time goes) against the limit that the library sets in
/// the same run — the cores times one call's rate, and what every core calling it back to back really
/// gives — then a bounded load run with the statuses counted and the server's resident memory sampled.
enum ServiceBenchmark {
    static let loadPhoto = "coffee.png"
    static let loadRequests = 10_000
    /// The tasks timed, each on one photo.
    static let tasks: [(task: String, photo: String)] = [("faces", "zidane.jpg"), ("labels", "zidane.jpg"), ("objects", "zidane.jpg")]
    static let connectionCounts = [1, 2, 4, 16, 64]
    /// Seconds of each wrk row.
    static let rowSeconds = 4

    static func run(cache: SwiftVisionCache) throws {
        try Wrk.withScripts(section: "service") { try run(cache: cache, wrk: $0, folder: $1) }
    }

    private static func run(cache: SwiftVisionCache, wrk: URL, folder: URL) throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let server = try Server.start(threads: SwiftVisionBench.threads, maxConcurrent: cores)
        defer { server.stop() }

        print("\nservice — POST /v1/{task}, \(SwiftVisionBench.threads) inference thread a request, --max-concurrent \(cores) (the cores), --max-queue \(4 * cores)")
        print("limit: \(cores) cores ÷ the library's per-call time (decode + task, called in this process on the same bytes, median of 60);")
        print("at once: the library's answers/s with \(cores) threads calling it back to back for 3 s, each its own task (as the slots):")
        print("         what these cores give for the work with no HTTP at all — two calls at once share caches and memory")
        print("load: wrk 4.1 on loopback, keep-alive, \(rowSeconds) s a row, honouring Retry-After (rate, 503 share, latency of every answer);")
        print("      the bench's own client (latency of the 200s and the Server-Timing stages, at 1 connection, at the cores and at 4×)")
        for (name, photo) in tasks {
            let body = try Data(contentsOf: cache.sample(named: photo))
            let library = try libraryCall(task: name, body: body)
            let libraryP50 = library.percentile(0.5)
            let limit = Double(cores) * 1000 / libraryP50
            let atOnce = try libraryAtOnce(task: name, body: body, callers: cores, seconds: 3)
            let script = try luaScript(posting: body, contentType: "image/jpeg", in: folder, name: "\(name).lua", retryAfter: 1000)
            let url = "http://127.0.0.1:\(server.port)/v1/\(name)"
            HostLoad.shared.beginTable()
            print(String(
                format: "\n%@ (%@): library %.2f ms p50, %.2f ms p99 → limit %d × %.1f = %.1f answers/s", name, photo, libraryP50,
                library.percentile(0.99), cores, 1000 / libraryP50, limit))
            print(String(
                format: "  %d callers at once: %.2f ms p50, %.2f ms p99 a call, %.2f ms CPU a call → %.1f answers/s (%.2f of that limit)",
                cores, atOnce.latencies.percentile(0.5), atOnce.latencies.percentile(0.99), atOnce.cpuMilliseconds, atOnce.perSecond,
                atOnce.perSecond / limit)
                + (HostLoad.shared.rowEnded() ? "  busy" : ""))
            // Warm the server's task and models before the rows.
            _ = HTTPLoad.run(port: server.port, path: "/v1/\(name)", body: body, contentType: "image/jpeg", connections: 1, seconds: 5, requests: 3)
            _ = HostLoad.shared.rowEnded()
            print("connections  200/s  × limit  × at once  503 share  p50 ms  p99 ms  p99/p50  server CPU ms a 200  wrk's cores")
            for connections in connectionCounts {
                let (serverBefore, clientBefore) = (server.cpuSeconds(), childrenCPUSeconds())
                let result = try Wrk.run(wrk, url: url, script: script, connections: connections, seconds: rowSeconds)
                let (serverCPU, clientCPU) = (server.cpuSeconds() - serverBefore, childrenCPUSeconds() - clientBefore)
                let answered = result.statuses.values.reduce(0, +)
                let good = Double(result.statuses[200] ?? 0) / Swift.max(result.seconds, 1e-9)
                let refused = answered > 0 ? Double(result.statuses[503] ?? 0) / Double(answered) : 0
                let ratio = HostLoad.shared.rowEnded()
                    ? "   busy       busy" : String(format: "%7.2f  %9.2f", good / limit, good / atOnce.perSecond)
                print(String(format: "%11d  %5.1f  ", connections, good) + ratio + String(
                    format: "  %8.0f%%  %6.2f  %6.2f  %7.2f  %19.2f  %11.2f", refused * 100, result.p50, result.p99,
                    result.p99 / Swift.max(result.p50, 1e-9), serverCPU * 1000 / Double(Swift.max(result.statuses[200] ?? 0, 1)),
                    clientCPU / Swift.max(result.seconds, 1e-9)))
            }
            for connections in [1, cores, 4 * cores] {
                let answers = HTTPLoad.run(
                    port: server.port, path: "/v1/\(name)", body: body, contentType: "image/jpeg", connections: connections,
                    seconds: 3, requests: connections == 1 ? 150 : .max)
                printStages(answers, connections: connections, libraryP50: libraryP50, busy: HostLoad.shared.rowEnded())
            }
        }

        try printFloor(body: try Data(contentsOf: cache.sample(named: tasks[0].photo)), task: tasks[0].task, servicePort: server.port)

        HostLoad.shared.beginTable()
        print("\nload run — \(loadRequests) POST /v1/labels with \(loadPhoto), 32 connections, --max-concurrent \(cores)")
        let loadBody = try Data(contentsOf: cache.sample(named: loadPhoto))
        // wrk runs for a set time: a short run gives the rate, then the counted run lasts long enough for
        // every connection to reach its share of the requests and stop.
        let calibrationScript = try luaScript(posting: loadBody, contentType: "image/png", in: folder, name: "calibration.lua")
        let url = "http://127.0.0.1:\(server.port)/v1/labels"
        let rate = try Wrk.run(wrk, url: url, script: calibrationScript, connections: 32, seconds: 3).requestsPerSecond
        let seconds = Int((Double(loadRequests) / Swift.max(rate, 1) * 1.3).rounded(.up)) + 2
        let loadScript = try luaScript(
            posting: loadBody, contentType: "image/png", in: folder, name: "load.lua", stopAfter: loadRequests)
        let sampled = Shared<[Double]>([])
        let sampler = Thread {
            while !Thread.current.isCancelled {
                let resident = server.residentMiB()
                sampled.value.append(resident)
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        sampler.start()
        let load = try Wrk.run(wrk, url: url, script: loadScript, connections: 32, seconds: seconds)
        sampler.cancel()
        Thread.sleep(forTimeInterval: 0.3)
        let samples = sampled.value
        let warm = samples.dropFirst(samples.count / 5)
        print(String(
            format: "requests %d at about %.0f/s (3 s calibration run), p50 %.1f ms, p99 %.1f ms (every answer, 503s included)",
            load.statuses.values.reduce(0, +), rate, load.p50, load.p99))
        print("statuses: " + load.statuses.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", ")
            + (load.statuses.keys.contains { $0 >= 500 && $0 != 503 } ? "  — 5xx other than 503!" : "  (no 5xx but 503)"))
        print(String(
            format: "server RSS: %.1f MiB after the first fifth, %.1f MiB peak, %.1f MiB at the end", warm.first ?? 0,
            warm.max() ?? 0, samples.last ?? 0))
        HostLoad.shared.endTable()
    }

    /// The tasks streamed, each sending one photo as every frame.
    static let streamedTasks: [(task: String, photo: String)] = [("faces", "zidane.jpg"), ("labels", "zidane.jpg")]
    static let streamCounts = [1, 4, 16]
    /// A camera's frame rate, the rate of the paced rows.
    static let cameraRate = 30.0

    /// The live stream, `GET /v1/stream/{task}`: results per second per stream and in total with 1, 4 and
    /// 16 streams, each sending as the page does, at a camera's rate and as fast as it may, against the
    /// limit that the library sets in the same run.
    static func runStreams(cache: SwiftVisionCache) throws {
        let cores = HostLoad.shared.cores
        print("\nservice streams — GET /v1/stream/{task}, \(SwiftVisionBench.threads) inference thread a frame, --max-concurrent \(cores), --max-streams 16")
        print("each stream sends the photo's JPEG as every frame, as the page does: at most \(StreamLoad.maxAhead) frames beyond the one the server")
        print("works on; \"camera\": \(Int(cameraRate)) frames/s, a frame that comes while the stream is that far ahead is skipped by the client;")
        print("\"unpaced\": the next frame as soon as the stream may send it. The server keeps one frame in flight and the newest waiting")
        print("per stream, and drops (and counts) the older waiting ones: no stream queues more than one frame.")
        print("limit: min(streams, \(cores) cores) ÷ the library's per-frame time (decode + the task with the stream's state, same bytes,")
        print("median of 60), and for camera rows no more than the frames offered; latency: from a frame sent to its result read")
        let server = try Server.start(threads: SwiftVisionBench.threads, maxConcurrent: cores)
        defer { server.stop() }
        for (name, photo) in streamedTasks {
            try printStreamTable(task: name, body: try Data(contentsOf: cache.sample(named: photo)), photo: photo, port: server.port)
        }
        HostLoad.shared.endTable()
    }

    /// The stream rows of one task: camera-paced and unpaced, at each stream count.
    private static func printStreamTable(task name: String, body: Data, photo: String, port: Int) throws {
        let cores = HostLoad.shared.cores
        let library = try libraryFrame(task: name, body: body)
        let frameP50 = library.percentile(0.5)
        HostLoad.shared.beginTable()
        print(String(
            format: "\n%@ (%@): library %.2f ms a frame p50, %.2f ms p99 → %.1f frames/s a core", name, photo, frameP50,
            library.percentile(0.99), 1000 / frameP50))
        let path = "/v1/stream/\(name)"
        // Warm the server's task and models before the rows.
        _ = StreamLoad.run(port: port, path: path, frame: body, streams: 1, framesPerSecond: nil, seconds: 1)
        _ = HostLoad.shared.rowEnded()
        print("streams  mode      sent/s  results/s  per stream (min–max)  limit/s  × limit  dropped  skipped  refused  p50 ms  p99 ms  p99/p50")
        for rate in [cameraRate, nil] {
            for streams in streamCounts {
                let outcome = StreamLoad.run(
                    port: port, path: path, frame: body, streams: streams, framesPerSecond: rate, seconds: Double(rowSeconds))
                let seconds = Swift.max(outcome.seconds, 1e-9)
                let results = Double(outcome.results.reduce(0, +)) / seconds
                var limit = Double(Swift.min(streams, cores)) * 1000 / frameP50
                if let rate { limit = Swift.min(limit, rate * Double(streams)) }
                let p50 = outcome.latencies.percentile(0.5), p99 = outcome.latencies.percentile(0.99)
                let busy = HostLoad.shared.rowEnded()
                let perStream = outcome.results.map { Double($0) / seconds }
                print(String(
                    format: "%7d  %-8@  %6.1f  %9.1f  %8.1f (%.1f–%.1f)  %7.1f  ", streams, rate == nil ? "unpaced" : "camera",
                    Double(outcome.sent) / seconds, results, results / Double(streams), perStream.min() ?? 0, perStream.max() ?? 0, limit)
                    + (busy ? "   busy" : String(format: "%7.2f", results / limit))
                    + String(
                        format: "  %7d  %7d  %7d  %6.2f  %6.2f  %7.2f", outcome.dropped, outcome.skipped, outcome.refused, p50, p99,
                        p99 / Swift.max(p50, 1e-9))
                    + (outcome.failed > 0 ? "  (\(outcome.failed) streams refused)" : ""))
            }
        }
    }

    /// The floor under the service's HTTP overhead, at 1 connection with the bench's own client: a bare
    /// Hummingbird route that collects `body` and answers `task`'s JSON for it, and the service answering
    /// a request whose work is next to nothing (barcodes on a 16×16 JPEG), with its Server-Timing stages.
    static func printFloor(body: Data, task name: String, servicePort: Int) throws {
        guard let entry = TaskRegistry.standard.entry(named: name) else { preconditionFailure("\(name) is not a registered task") }
        let echo = try HummingbirdEcho(port: servicePort + 1, answer: try answer(entry.type, defaults: entry.defaultOptions, body: body))
        defer { echo.stop() }
        let tiny = try VisionImage(data: body).cropped(to: CGRect(x: 0, y: 0, width: 16, height: 16)).encoded(as: .jpeg(quality: 90))
        HostLoad.shared.beginTable()
        print("\nthe floor, 1 connection, the bench's own client, ms p50 / p99")
        for (label, port, path, sent) in [
            ("bare Hummingbird echo of the \(name) request (\(body.count) bytes in, the same answer bytes out)", echo.port, "/echo", body),
            ("bare Hummingbird echo of a 16×16 JPEG (\(tiny.count) bytes in, the same answer bytes out)", echo.port, "/echo", tiny),
            ("the service, POST /v1/barcodes with that 16×16 JPEG", servicePort, "/v1/barcodes", tiny),
        ] {
            _ = HTTPLoad.run(port: port, path: path, body: sent, contentType: "image/jpeg", connections: 1, seconds: 1, requests: 50)
            _ = HostLoad.shared.rowEnded()
            let served = HTTPLoad.run(port: port, path: path, body: sent, contentType: "image/jpeg", connections: 1, seconds: 3, requests: 1000)
                .filter { $0.status == 200 }
            let total = served.map(\.milliseconds)
            var line = "\(label): \(served.count) × 200, total " + String(format: "%.3f / %.3f", total.percentile(0.5), total.percentile(0.99))
            if port == servicePort {
                let stages = served.map { $0.stages.values.reduce(0, +) }
                let queue = served.compactMap { $0.stages["queue"] }
                line += String(
                    format: ", Server-Timing stages together %.3f (queue: the hop to an inference thread %.3f), the rest %.3f",
                    stages.percentile(0.5), queue.percentile(0.5), zip(total, stages).map { $0 - $1 }.percentile(0.5))
            }
            print(line + (HostLoad.shared.rowEnded() ? "  busy" : ""))
        }
    }

    /// The task's JSON answer for `body`, as the service encodes it.
    private static func answer<Job: VisionTask>(_ type: Job.Type, defaults: Data, body: Data) throws -> Data {
        let task: Job = try servedTask(defaults: defaults)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(try task.output(for: try VisionImage(data: body)))
    }

    /// The library's time for one call of `task` on `body` (decode, then the task), in milliseconds.
    static func libraryCall(task name: String, body: Data) throws -> [Double] {
        guard let entry = TaskRegistry.standard.entry(named: name) else { preconditionFailure("\(name) is not a registered task") }
        return try libraryCall(entry.type, defaults: entry.defaultOptions, body: body)
    }

    private static func libraryCall<Job: VisionTask>(_ type: Job.Type, defaults: Data, body: Data) throws -> [Double] {
        let task: Job = try servedTask(defaults: defaults)
        return try latencies(count: 60) { _ = try task.output(for: try VisionImage(data: body)) }
    }

    /// The library with `callers` threads calling it at once, back to back for `seconds` — each caller its
    /// own task, as each of the server's slots has — with no HTTP, client or queue: the most answers a second
    /// these cores give for this work, and each call's time (decode, then the task) in milliseconds.
    static func libraryAtOnce(task name: String, body: Data, callers: Int, seconds: Double) throws -> LibraryAtOnce {
        guard let entry = TaskRegistry.standard.entry(named: name) else { preconditionFailure("\(name) is not a registered task") }
        return try libraryAtOnce(entry.type, defaults: entry.defaultOptions, body: body, callers: callers, seconds: seconds)
    }

    private static func libraryAtOnce<Job: VisionTask>(
        _ type: Job.Type, defaults: Data, body: Data, callers: Int, seconds: Double
    ) throws -> LibraryAtOnce {
        let tasks: [Job] = try (0..<callers).map { _ in try servedTask(defaults: defaults) }
        for task in tasks { _ = try task.output(for: try VisionImage(data: body)) }
        let times = Shared<[[Double]]>(Array(repeating: [], count: callers))
        let failure = Shared<(any Error)?>(nil)
        let ready = DispatchGroup(), done = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        let clock = ContinuousClock()
        let end = Shared<ContinuousClock.Instant>(clock.now)
        for (index, task) in tasks.enumerated() {
            ready.enter()
            done.enter()
            Thread {
                defer { done.leave() }
                ready.leave()
                start.wait()
                var own: [Double] = []
                let deadline = end.value
                do {
                    while clock.now < deadline {
                        own.append(try clock.measure { _ = try task.output(for: try VisionImage(data: body)) }.inMilliseconds)
                    }
                } catch {
                    failure.value = error
                }
                times.value[index] = own
            }.start()
        }
        ready.wait()
        let cpuBefore = IngestProfile.cpuMilliseconds(CLOCK_PROCESS_CPUTIME_ID)
        let begin = clock.now
        end.value = begin + .milliseconds(Int(seconds * 1000))
        for _ in 0..<callers { start.signal() }
        done.wait()
        let elapsed = clock.now - begin
        if let error = failure.value { throw error }
        let all = times.value.flatMap { $0 }
        return LibraryAtOnce(
            perSecond: Double(all.count) * 1000 / elapsed.inMilliseconds, latencies: all,
            cpuMilliseconds: (IngestProfile.cpuMilliseconds(CLOCK_PROCESS_CPUTIME_ID) - cpuBefore) / Double(Swift.max(all.count, 1)))
    }

    /// What ``libraryAtOnce(task:body:callers:seconds:)`` measured.
    struct LibraryAtOnce {
        /// Calls a second, all callers together.
        var perSecond: Double
        /// Each call's time, in milliseconds.
        var latencies: [Double]
        /// This process's CPU time over the run divided by the calls.
        var cpuMilliseconds: Double
    }

    /// The CPU time of this process's children that have ended and been waited for (wrk's, once a row
    /// is over), in seconds.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }


    /// The library's time for one frame of a stream of `body` (decode, then the task with the stream's
    /// state carried from frame to frame), in milliseconds.
    static func libraryFrame(task name: String, body: Data) throws -> [Double] {
        guard let entry = TaskRegistry.standard.entry(named: name) else { preconditionFailure("\(name) is not a registered task") }
        return try libraryFrame(entry.type, defaults: entry.defaultOptions, body: body)
    }

    private static func libraryFrame<Job: VisionTask>(_ type: Job.Type, defaults: Data, body: Data) throws -> [Double] {
        let task: Job = try servedTask(defaults: defaults)
        var state = try task.makeStreamState()
        return try latencies(count: 60) { _ = try task.output(forFrame: try VisionImage(data: body), state: &state) }
    }

    /// The task as the server makes it: the defaults with its thread count (tasks without `threads` ignore it).
    private static func servedTask<Job: VisionTask>(defaults: Data) throws -> Job {
        var object = try JSONSerialization.jsonObject(with: defaults) as? [String: Any] ?? [:]
        object["threads"] = SwiftVisionBench.threads
        return try Job(options: try JSONDecoder().decode(Job.Options.self, from: try JSONSerialization.data(withJSONObject: object)))
    }

    /// One row of where the 200s' time went: the client's latency and each Server-Timing stage, p50 and p99.
    static func printStages(_ answers: [HTTPLoad.Answer], connections: Int, libraryP50: Double, busy: Bool) {
        let served = answers.filter { $0.status == 200 }
        let total = served.map(\.milliseconds)
        func figures(_ values: [Double]) -> String {
            String(format: "%.2f / %.2f", values.percentile(0.5), values.percentile(0.99))
        }
        let stages = ["queue", "decode", "inference", "encode"].map { stage in
            "\(stage) " + figures(served.compactMap { $0.stages[stage] })
        }
        // What each request spends outside the server's stages: the HTTP exchange both ways and the hops
        // between threads — time in which its connection has nothing for a slot to work on.
        let outside = served.map { $0.milliseconds - $0.stages.values.reduce(0, +) }
        let refused = answers.count - served.count
        var line = String(format: "own client, %2d connection%@: %d × 200, %d other; ms p50 / p99: total ", connections,
            connections == 1 ? "" : "s", served.count, refused) + figures(total) + ", " + stages.joined(separator: ", ")
            + ", outside them " + figures(outside)
        if connections == 1 {
            line += busy ? "; HTTP overhead busy" : String(format: "; HTTP overhead at p50 %+.2f ms", total.percentile(0.5) - libraryP50)
        } else {
            line += busy ? "; p99/p50 busy" : String(format: "; p99/p50 %.2f", total.percentile(0.99) / Swift.max(total.percentile(0.5), 1e-9))
        }
        print(line)
    }

    /// Wall times of `count` calls of `body` after one warm-up, in milliseconds.
    static func latencies(count: Int, _ body: () throws -> Void) rethrows -> [Double] {
        try body()
        let clock = ContinuousClock()
        return try (0..<count).map { _ in try clock.measure(body).inMilliseconds }
    }

    /// A wrk script that POSTs `body` (kept in a file beside it) and counts the statuses; with
    /// `stopAfter`, each connection stops once the run has sent that many requests in all; with
    /// `retryAfter`, a wrk thread waits that many milliseconds before its next request after each 503.
    static func luaScript(
        posting body: Data, contentType: String, in folder: URL, name: String, stopAfter: Int? = nil, threadCount: Int = 2,
        retryAfter: Int = 0
    ) throws -> URL {
        let bodyFile = folder.appendingPathComponent(name + ".body")
        try body.write(to: bodyFile)
        let limit = stopAfter.map { "local limit = \($0)" } ?? "local limit = nil"
        // A client that honours Retry-After: after a 503, the thread's next request waits (wrk calls
        // delay() before each request only when the script defines it).
        let backoff = retryAfter > 0 ? """
            function delay()
                if backoffs > 0 then
                    backoffs = backoffs - 1
                    return \(retryAfter)
                end
                return 0
            end
            """ : ""
        let script = """
            local file = io.open("\(bodyFile.path)", "rb")
            wrk.method = "POST"
            wrk.body = file:read("*a")
            file:close()
            wrk.headers["Content-Type"] = "\(contentType)"
            \(limit)
            local threads = {}
            function setup(thread)
                table.insert(threads, thread)
                thread:set("share", limit and math.ceil(limit / \(threadCount)) or 0)
            end
            function init(args)
                statuses = {}
                answered = 0
            end
            backoffs = 0
            \(backoff)
            function response(status, headers, body)
                if status == 503 then backoffs = backoffs + 1 end
                statuses[status] = (statuses[status] or 0) + 1
                answered = answered + 1
                if share > 0 and answered >= share then wrk.thread:stop() end
            end
            function done(summary, latency, requests)
                local totals = {}
                for _, thread in ipairs(threads) do
                    for status, count in pairs(thread:get("statuses")) do
                        totals[status] = (totals[status] or 0) + count
                    end
                end
                for status, count in pairs(totals) do io.write(string.format("STATUS %d %d\\n", status, count)) end
                io.write(string.format("LATENCY %f %f\\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
                io.write(string.format("SUMMARY %d %f\\n", summary.requests, summary.duration / 1e6))
            end
            """
        let url = folder.appendingPathComponent(name)
        try script.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}

extension Array where Element == Double {
    /// The value at fraction `p` of the sorted samples (nearest rank).
    func percentile(_ p: Double) -> Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Swift.max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
    }
}

/// wrk, run to its end, and what its script printed.
enum Wrk {
    struct Result {
        var requestsPerSecond: Double
        var p50: Double
        var p99: Double
        var seconds: Double
        var statuses: [Int: Int]
    }

    /// Runs `body` with wrk's path and an empty temporary folder for its scripts, removed afterwards; where
    /// wrk is not installed, prints that `section` was skipped instead.
    static func withScripts(section: String, _ body: (URL, URL) throws -> Void) throws {
        let wrk = URL(fileURLWithPath: "/usr/bin/wrk")
        guard FileManager.default.isExecutableFile(atPath: wrk.path) else {
            print("\(section): skipped, wrk is not installed (make bench installs it)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-\(section)-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(wrk, folder)
    }

    /// Runs wrk with `threads` threads (at most 2 by default, never more than the connections).
    static func run(_ wrk: URL, url: String, script: URL, connections: Int, seconds: Int, threads: Int = 2) throws -> Result {
        let data = try PeerProcess.standardOutput(
            of: wrk, arguments: ["-t", "\(min(connections, threads))", "-c", "\(connections)", "-d", "\(seconds)s", "-s", script.path, url])
        var result = Result(requestsPerSecond: 0, p50: 0, p99: 0, seconds: 0, statuses: [:])
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "STATUS" where fields.count == 3: result.statuses[Int(fields[1]) ?? 0] = Int(fields[2]) ?? 0
            case "LATENCY" where fields.count == 3: (result.p50, result.p99) = (Double(fields[1]) ?? 0, Double(fields[2]) ?? 0)
            case "SUMMARY" where fields.count == 3:
                result.seconds = Double(fields[2]) ?? 0
                result.requestsPerSecond = result.seconds > 0 ? (Double(fields[1]) ?? 0) / result.seconds : 0
            default: break
            }
        }
        return result
    }
}

/// `swiftvision serve` from the same build, on a free loopback port.
final class Server: @unchecked Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static func start(threads: Int, maxConcurrent: Int) throws -> Server {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("swiftvision")
        let port = 18_000 + Int(getpid() % 1000)
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "serve", "--port", "\(port)", "--threads", "\(threads)", "--max-concurrent", "\(maxConcurrent)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = Server(process: process, port: port)
        for _ in 0..<100 {
            if server.isHealthy() { return server }
            Thread.sleep(forTimeInterval: 0.1)
        }
        server.stop()
        throw ServerNotStarted(port: port)
    }

    func isHealthy() -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let healthy = Shared(false)
        URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:\(port)/healthz")!) { _, response, _ in
            healthy.value = (response as? HTTPURLResponse)?.statusCode == 200
            semaphore.signal()
        }.resume()
        _ = semaphore.wait(timeout: .now() + 2)
        return healthy.value
    }

    /// The CPU time the server has used so far (user and system, all its threads), in seconds.
    func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // After the command's closing parenthesis: state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The server's resident memory now (VmRSS), in MiB.
    func residentMiB() -> Double {
        memoryMiB("VmRSS", process: "\(process.processIdentifier)")
    }

    /// SIGTERM, then SIGKILL if the server has not ended after 5 s (it may have inherited SIGTERM blocked).
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<50 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// The service did not come up.
struct ServerNotStarted: Error, CustomStringConvertible {
    let port: Int
    var description: String { "swiftvision serve did not answer /healthz on port \(port)" }
}

/// A value set on one thread and read on another.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
