import Foundation

/// Finds face rectangles, as Vision's `DetectFaceRectanglesRequest`. In a ``SequenceRequestHandler``
/// faces are tracked from frame to frame and carry tracking IDs.
public struct DetectFaceRectanglesRequest: FaceRequest {
    public var performanceMode: FaceDetectorOptions.PerformanceMode = .accurate
    public var maximumObservations = 20
    public static let includesLandmarks = false

    public init() {}
}

/// Finds faces with their landmark regions, pupils and mesh, as Vision's `DetectFaceLandmarksRequest`.
/// In a ``SequenceRequestHandler`` the mesh follows each face from frame to frame.
public struct DetectFaceLandmarksRequest: FaceRequest {
    public var performanceMode: FaceDetectorOptions.PerformanceMode = .accurate
    public var maximumObservations = 20
    public static let includesLandmarks = true

    public init() {}
}

/// What the face requests share: their options and how they run on images and frames.
public protocol FaceRequest: SequenceVisionRequest
where Result == [FaceObservation], SequenceState == FaceTracker {
    /// `.accurate` (default, as Vision) scans tiles for small faces; `.fast` looks for near faces only.
    var performanceMode: FaceDetectorOptions.PerformanceMode { get set }
    /// Most faces to report.
    var maximumObservations: Int { get set }
    /// Whether the request finds landmarks as well as rectangles.
    static var includesLandmarks: Bool { get }
}

extension FaceRequest {
    public func perform(on image: VisionImage) throws -> [FaceObservation] {
        try analyzer().analyze(image, landmarks: Self.includesLandmarks).map { FaceObservation($0, imageSize: image.size) }
    }

    public var sequenceKey: AnyHashable {
        FaceSequenceKey(landmarks: Self.includesLandmarks, mode: performanceMode, limit: maximumObservations)
    }

    public func makeSequenceState() -> FaceTracker { FaceTracker() }

    public func perform(on image: VisionImage, state: inout FaceTracker) throws -> [FaceObservation] {
        try state.faces(in: image, timestamp: nil, analyzer: analyzer(), landmarks: Self.includesLandmarks)
            .map { FaceObservation($0, imageSize: image.size) }
    }

    private func analyzer() throws -> FaceAnalyzer {
        var options = FaceDetectorOptions()
        options.performanceMode = performanceMode
        options.maximumFaceCount = maximumObservations
        return try FaceAnalyzer.shared(options.analyzerConfiguration)
    }
}

private struct FaceSequenceKey: Hashable {
    let landmarks: Bool
    let mode: FaceDetectorOptions.PerformanceMode
    let limit: Int
}
