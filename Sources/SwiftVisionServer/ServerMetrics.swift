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

    /// Records one answered request.
    static func record(task: String, status: Int, duration: Duration) {
        _ = registry
        Counter(label: "swiftvision_requests_total", dimensions: [("task", task), ("status", String(status))]).increment()
        Metrics.Timer(label: "swiftvision_request_duration_seconds", dimensions: [("task", task)]).recordNanoseconds(
            duration.wholeNanoseconds)
    }

    /// Records where one answered request's time went, as `swiftvision_request_stage_seconds{task,stage}`.
    static func record(task: String, stages: StageTimings) {
        _ = registry
        for (stage, duration) in [("queue", stages.queue), ("decode", stages.decode), ("inference", stages.inference), ("encode", stages.encode)] {
            Metrics.Timer(label: "swiftvision_request_stage_seconds", dimensions: [("task", task), ("stage", stage)]).recordNanoseconds(
                duration.wholeNanoseconds)
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
