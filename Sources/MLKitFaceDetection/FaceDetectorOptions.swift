import Dispatch
import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``FaceDetector``, as ML Kit's `FaceDetectorOptions`: a class, set on a `let`, with ML Kit's defaults.
public final class FaceDetectorOptions: @unchecked Sendable {
    /// Speed against recall.
    public enum PerformanceMode: String, Sendable, CaseIterable, Codable {
        /// The short-range model (faces within about 2 m) on the whole image, as MediaPipe runs it.
        case fast
        /// The full-range model (faces up to about 5 m) on the whole image, then a closer look where that
        /// leaves doubt: overlapping tiles where it hints at faces too small for it (or everywhere when it
        /// finds no face), which finds the small faces of group photos, and a larger view of each face not
        /// sure enough to skip the checks.
        ///
        /// In both modes each face is confirmed by the face mesh and by a second look of the short-range
        /// model at the upright crop around the mesh, which drops animal faces.
        case accurate
    }

    /// Whether to locate landmarks (eyes, ears, cheeks, nose, mouth) from the face mesh.
    public enum LandmarkMode: Sendable {
        /// No landmarks.
        case none
        /// Every landmark.
        case all
    }

    /// Whether to trace contours (face oval, eyebrows, eyes, lips, nose, cheeks) from the face mesh.
    public enum ContourMode: Sendable {
        /// No contours.
        case none
        /// Every contour.
        case all
    }

    /// Whether to classify faces as smiling or with open eyes, as ML Kit's `FaceDetectorClassificationMode`.
    public enum ClassificationMode: Sendable {
        /// No classification.
        case none
        /// Every classification; none is made here yet, so each face's `has…Probability` stays false.
        case all
    }

    /// Speed against recall; ML Kit's default is `.fast`.
    public var performanceMode: PerformanceMode = .fast
    /// Whether to locate landmarks.
    public var landmarkMode: LandmarkMode = .none
    /// Whether to trace contours.
    public var contourMode: ContourMode = .none
    /// Whether to classify smiles and open eyes; kept so that ML Kit code compiles (no classifier runs).
    public var classificationMode: ClassificationMode = .none
    /// Smallest face to report, as the face width over the image width; ML Kit's default 0.1. Set 0.02
    /// to keep the faces at the back of group photos.
    public var minFaceSize: CGFloat = 0.1
    /// Lowest detection confidence to report, 0–1.
    public var minimumConfidence: Float = 0.5
    /// Most faces to report, the most confident first.
    public var maximumFaceCount = 20
    /// Gives faces tracking IDs across successive calls of ``FaceDetector/results(in:)``, as a stream.
    public var isTrackingEnabled = false
    /// Threads for each model's inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount
    /// Where ``FaceDetector/process(_:completion:)`` calls its completion: the main queue, as on iOS, which
    /// a program must serve (`dispatchMain()`, `RunLoop.main.run()`); set another queue in a program
    /// without a main loop.
    public var callbackQueue: DispatchQueue = .main

    /// ML Kit's defaults.
    public init() {}

    var needsMesh: Bool { landmarkMode == .all || contourMode == .all }

    /// The faces task's options for these.
    var taskOptions: FacesTask.Options {
        var options = FacesTask.Options()
        options.fast = performanceMode == .fast
        options.landmarks = landmarkMode == .all
        options.contours = contourMode == .all
        options.mesh = needsMesh
        options.threshold = minimumConfidence
        options.minFaceSize = Double(minFaceSize)
        options.maxFaces = maximumFaceCount
        options.threads = threadCount
        return options
    }
}

/// ML Kit's name for ``FaceDetectorOptions/PerformanceMode``.
public typealias FaceDetectorPerformanceMode = FaceDetectorOptions.PerformanceMode
/// ML Kit's name for ``FaceDetectorOptions/LandmarkMode``.
public typealias FaceDetectorLandmarkMode = FaceDetectorOptions.LandmarkMode
/// ML Kit's name for ``FaceDetectorOptions/ContourMode``.
public typealias FaceDetectorContourMode = FaceDetectorOptions.ContourMode
/// ML Kit's name for ``FaceDetectorOptions/ClassificationMode``.
public typealias FaceDetectorClassificationMode = FaceDetectorOptions.ClassificationMode
