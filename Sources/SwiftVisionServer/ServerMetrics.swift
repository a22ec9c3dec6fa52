import Foundation
import Metrics
import Prometheus
import SwiftVision
import Synchronization

/// The service's metrics, recorded through swift-metrics into a Prometheus registry that `/metrics`
/// exposes: requests by task and status, their latency, stream frames and drops, models loaded, and the
/// collections' additions and searches (never labelled by collection: names are the clients').
enum ServerMetrics {
    /// The registry behind the process's metrics system, bootstrapped once per process.
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// The request metrics of one task (or route), made once: making a metric looks it up in the
    /// registry by its name and labels, which every request did six times.
    private struct TaskMetrics: Sendable {
        let duration: Metrics.Timer
        /// The stages' timers, in ``stages``' order.
        let stages: [Metrics.Timer]
        /// The count of answers by status.
        var requests: [Int: Metrics.Counter] = [:]

        /// The counter of `status` answers, made on the first.
        mutating func counter(of status: Int, task: String) -> Metrics.Counter {
            if let counter = requests[status] { return counter }
            let counter = Metrics.Counter(label: "swiftvision_requests_total", dimensions: [("task", task), ("status", String(status))])
            requests[status] = counter
            return counter
        }

        init(task: String) {
            duration = Metrics.Timer(label: "swiftvision_request_duration_seconds", dimensions: [("task", task)])
            stages = ServerMetrics.stages.map {
                Metrics.Timer(label: "swiftvision_request_stage_seconds", dimensions: [("task", task), ("stage", $0)])
            }
        }
    }

    private static let stages = ["queue", "decode", "inference", "encode"]

    /// The metrics made so far, by task; tasks are the registry's and the routes' names, a bounded set.
    private static let made = Mutex<[String: TaskMetrics]>([:])

    /// The metrics of `task`, with its counter of `status` answers when given one.
    private static func metrics(of task: String, status: Int? = nil) -> (TaskMetrics, Metrics.Counter?) {
        _ = registry
        return made.withLock { made in
            if made[task] == nil { made[task] = TaskMetrics(task: task) }
            let counter = status.map { made[task]!.counter(of: $0, task: task) }
            return (made[task]!, counter)
        }
    }

    /// Records one answered request.
    static func record(task: String, status: Int, duration: Duration) {
        let (metrics, requests) = metrics(of: task, status: status)
        requests?.increment()
        metrics.duration.recordNanoseconds(duration.wholeNanoseconds)
    }

    /// Records where one answered request's time went, as `swiftvision_request_stage_seconds{task,stage}`.
    static func record(task: String, stages: StageTimings) {
        let timers = metrics(of: task).0.stages
        for (timer, duration) in zip(timers, [stages.queue, stages.decode, stages.inference, stages.encode]) {
            timer.recordNanoseconds(duration.wholeNanoseconds)
        }
    }

    /// Records one live-stream result and the frames dropped before it.
    static func recordFrame(task: String, dropped: Int) {
        _ = registry
        Counter(label: "swiftvision_stream_results_total", dimensions: [("task", task)]).increment()
        if dropped > 0 {
            Counter(label: "swiftvision_frames_dropped_total", dimensions: [("task", task)]).increment(by: dropped)
        }
    }

    /// Records one picture posted to a collection: `added`, or found there already.
    static func recordCollectionItem(added: Bool) {
        _ = registry
        Counter(label: "swiftvision_collection_items_total", dimensions: [("outcome", added ? "added" : "already_indexed")]).increment()
    }

    /// Records one collection search and how long the store took to answer it.
    static func recordCollectionSearch(approximate: Bool, ranked: Bool, duration: Duration) {
        _ = registry
        let kind = !ranked ? "filters" : approximate ? "approximate" : "exact"
        Metrics.Timer(label: "swiftvision_collection_search_seconds", dimensions: [("kind", kind)]).recordNanoseconds(
            duration.wholeNanoseconds)
    }

    /// Live-stream connections open now.
    static let openStreams = Atomic<Int>(0)

    /// Counts a live-stream connection that opened.
    static func streamOpened() {
        _ = registry
        Gauge(label: "swiftvision_streams_open").record(openStreams.add(1, ordering: .relaxed).newValue)
    }

    /// Counts a live-stream connection that closed.
    static func streamClosed() {
        _ = registry
        Gauge(label: "swiftvision_streams_open").record(openStreams.subtract(1, ordering: .relaxed).newValue)
    }

    /// The Prometheus text exposition of every metric, with the model store's figures brought up to date.
    static func exposition(limiter: RequestLimiter) -> String {
        _ = registry
        let statistics = ModelStore.shared.statistics
        Gauge(label: "swiftvision_models_loaded").record(statistics.modelsLoaded)
        Gauge(label: "swiftvision_model_bytes_loaded").record(statistics.bytesLoaded)
        let load = limiter.load
        Gauge(label: "swiftvision_inferences_running").record(load.running)
        Gauge(label: "swiftvision_inferences_waiting").record(load.waiting)
        return registry.emitToString()
    }
}
