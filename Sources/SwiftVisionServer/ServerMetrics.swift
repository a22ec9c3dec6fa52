import Foundation
import Metrics
import Prometheus
import SwiftVision
import Synchronization

/// The service's metrics, recorded through swift-metrics into a Prometheus registry that `/metrics`
/// exposes: requests by task and status, their latency, stream frames and drops, models loaded.
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
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Records one live-stream result and the frames dropped before it.
    static func recordFrame(task: String, dropped: Int) {
        _ = registry
        Counter(label: "swiftvision_stream_results_total", dimensions: [("task", task)]).increment()
        if dropped > 0 {
            Counter(label: "swiftvision_frames_dropped_total", dimensions: [("task", task)]).increment(by: dropped)
        }
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
