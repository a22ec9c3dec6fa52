import Foundation
import SwiftVision

/// The service on more cores: the service section's load with the server held to 1, 2, 4, 8 … of the
/// host's CPUs and as many inference slots (`--max-concurrent`), against the limit that many cores give
/// (one call's rate times the slots) and against the library alone with as many threads calling it at
/// once: what docs/deploy.md's figures for bigger hosts come from.
///
/// wrk runs on the CPUs the server is not held to (on all of them once the server has every CPU), so
/// that up to half the host the client takes nothing from the slots.
enum ServiceScalingBenchmark {
    /// The slot counts measured, up to the host's CPUs.
    static let slotCounts = [1, 2, 4, 8, 16, 32, 64]
    /// Seconds of each wrk row.
    static let rowSeconds = 4

    static func run(cache: SwiftVisionCache) throws {
        try Wrk.withScripts(section: "service-scaling") { try run(cache: cache, wrk: $0, folder: $1) }
    }

    private static func run(cache: SwiftVisionCache, wrk: URL, folder: URL) throws {
        let cores = HostLoad.shared.cores
        let counts = slotCounts.filter { $0 <= cores }
        print("\nservice scaling — POST /v1/{task}, \(SwiftVisionBench.threads) inference thread a request; the server held to the first n CPUs")
        print("with --max-concurrent n (default --max-queue 4n); wrk on the other CPUs (all of them when n is every CPU), 2n and 4n")
        print("connections, \(rowSeconds) s a row, honouring Retry-After. limit: n ÷ one call's time (decode + task, median of 60, one thread);")
        print("at once: the library alone with n threads calling it back to back for 3 s, what n of these cores give with no HTTP")
        for (name, photo) in ServiceBenchmark.tasks {
            let body = try Data(contentsOf: cache.sample(named: photo))
            let library = try ServiceBenchmark.libraryCall(task: name, body: body)
            let callRate = 1000 / library.percentile(0.5)
            let script = try ServiceBenchmark.luaScript(
                posting: body, contentType: "image/jpeg", in: folder, name: "\(name).lua", retryAfter: 1000)
            HostLoad.shared.beginTable()
            print(String(
                format: "\n%@ (%@): library %.2f ms p50, %.2f ms p99 a call on one thread → %.1f answers/s a slot", name, photo,
                library.percentile(0.5), library.percentile(0.99), callRate))
            print("slots  at once/s  × n·call  connections  200/s  × limit  × at once  503 share  p50 ms  p99 ms  p99/p50")
            for slots in counts {
                let atOnce = try ServiceBenchmark.libraryAtOnce(task: name, body: body, callers: slots, seconds: 3)
                let atOnceBusy = HostLoad.shared.rowEnded()
                let server = try CPUAffinity.onCPUs(0..<slots) { try Server.start(threads: SwiftVisionBench.threads, maxConcurrent: slots) }
                defer { server.stop() }
                _ = HTTPLoad.run(port: server.port, path: "/v1/\(name)", body: body, contentType: "image/jpeg", connections: 1, seconds: 5, requests: 3)
                _ = HostLoad.shared.rowEnded()
                let clientCPUs = slots < cores ? slots..<cores : 0..<cores
                for multiple in [2, 4] {
                    let connections = multiple * slots
                    let result = try CPUAffinity.onCPUs(clientCPUs) {
                        try Wrk.run(
                            wrk, url: "http://127.0.0.1:\(server.port)/v1/\(name)", script: script, connections: connections,
                            seconds: rowSeconds, threads: Swift.min(connections, Swift.max(2, clientCPUs.count / 2)))
                    }
                    let busy = HostLoad.shared.rowEnded() || atOnceBusy
                    let answered = result.statuses.values.reduce(0, +)
                    let good = Double(result.statuses[200] ?? 0) / Swift.max(result.seconds, 1e-9)
                    let refused = answered > 0 ? Double(result.statuses[503] ?? 0) / Double(answered) : 0
                    let limit = Double(slots) * callRate
                    func ratio(_ value: Double, width: Int) -> String {
                        let text = busy ? "busy" : String(format: "%.2f", value)
                        return String(repeating: " ", count: Swift.max(0, width - text.count)) + text
                    }
                    print(
                        String(format: "%5d  %9.1f  ", slots, atOnce.perSecond) + ratio(atOnce.perSecond / limit, width: 8)
                            + String(format: "  %11d  %5.1f  ", connections, good) + ratio(good / limit, width: 7) + "  "
                            + ratio(good / atOnce.perSecond, width: 9)
                            + String(
                                format: "  %8.0f%%  %6.2f  %6.2f  %7.2f", refused * 100, result.p50, result.p99,
                                result.p99 / Swift.max(result.p50, 1e-9)))
                }
            }
            HostLoad.shared.endTable()
        }
    }
}
