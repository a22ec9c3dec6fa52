import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Removes overlapping detections of the same object.
enum NonMaxSuppression {
    /// MediaPipe's weighted suppression: each kept detection is the score-weighted mean of the boxes and
    /// key points that overlap the best one by more than `threshold` IoU, with the best score.
    static func weighted(_ detections: [Detection], threshold: Double, limit: Int = .max) -> [Detection] {
        var remaining = detections.sorted { $0.score > $1.score }
        var kept: [Detection] = []
        while let best = remaining.first, kept.count < limit {
            let overlapping = remaining.filter { best.intersectionOverUnion(with: $0) > threshold }
            remaining.removeAll { best.intersectionOverUnion(with: $0) > threshold }
            kept.append(overlapping.count > 1 ? merge(overlapping, score: best.score) : best)
            if overlapping.isEmpty { remaining.removeFirst() }
        }
        return kept
    }

    /// Classic suppression, class by class: keeps the best detection and drops those of the same
    /// ``Detection/labelIndex`` overlapping it by more than `threshold`.
    static func hard(_ detections: [Detection], threshold: Double, limit: Int = .max) -> [Detection] {
        var kept: [Detection] = []
        for detection in detections.sorted(by: { $0.score > $1.score }) where kept.count < limit {
            let suppressed = kept.contains {
                $0.labelIndex == detection.labelIndex && $0.intersectionOverUnion(with: detection) > threshold
            }
            if !suppressed { kept.append(detection) }
        }
        return kept
    }

    private static func merge(_ detections: [Detection], score: Float) -> Detection {
        let total = detections.reduce(0) { $0 + Double($1.score) }
        func mean(_ value: (Detection) -> Double) -> Double {
            detections.reduce(0) { $0 + value($1) * Double($1.score) } / total
        }
        let box = CGRect(
            x: mean { $0.boundingBox.minX }, y: mean { $0.boundingBox.minY }, width: mean { $0.boundingBox.width },
            height: mean { $0.boundingBox.height })
        let keypoints = detections[0].keypoints.indices.map { index in
            CGPoint(x: mean { $0.keypoints[index].x }, y: mean { $0.keypoints[index].y })
        }
        return Detection(boundingBox: box, score: score, keypoints: keypoints)
    }
}
