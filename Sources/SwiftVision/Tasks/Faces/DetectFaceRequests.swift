import Foundation

/// Finds face rectangles, as Vision's `DetectFaceRectanglesRequest`. In a ``SequenceRequestHandler``
/// faces are tracked from frame to frame and carry tracking IDs.
public struct DetectFaceRectanglesRequest: SequenceVisionRequest {
    /// `.accurate` (default, as Vision) scans tiles for small faces; `.fast` looks for near faces only.
    public var performanceMode: FaceDetectorOptions.PerformanceMode = .accurate
    /// Most faces to report.
    public var maximumObservations = 20

    public init() {}

    public func perform(on image: VisionImage) throws -> [FaceObservation] {
        try faceRequestResults(image, landmarks: false, mode: performanceMode, limit: maximumObservations)
    }

    public var sequenceKey: AnyHashable { FaceSequenceKey(landmarks: false, mode: performanceMode, limit: maximumObservations) }
    public func makeSequenceState() -> FaceTracker { FaceTracker() }
    public func perform(on image: VisionImage, state: inout FaceTracker) throws -> [FaceObservation] {
        try faceRequestResults(image, landmarks: false, mode: performanceMode, limit: maximumObservations, tracker: &state)
    }
}

/// Finds faces with their landmark regions, pupils and mesh, as Vision's `DetectFaceLandmarksRequest`.
public struct DetectFaceLandmarksRequest: SequenceVisionRequest {
    public var performanceMode: FaceDetectorOptions.PerformanceMode = .accurate
    public var maximumObservations = 20

    public init() {}

    public func perform(on image: VisionImage) throws -> [FaceObservation] {
        try faceRequestResults(image, landmarks: true, mode: performanceMode, limit: maximumObservations)
    }

    public var sequenceKey: AnyHashable { FaceSequenceKey(landmarks: true, mode: performanceMode, limit: maximumObservations) }
    public func makeSequenceState() -> FaceTracker { FaceTracker() }
    public func perform(on image: VisionImage, state: inout FaceTracker) throws -> [FaceObservation] {
        try faceRequestResults(image, landmarks: true, mode: performanceMode, limit: maximumObservations, tracker: &state)
    }
}

private struct FaceSequenceKey: Hashable {
    let landmarks: Bool
    let mode: FaceDetectorOptions.PerformanceMode
    let limit: Int
}

private func faceAnalyzer(mode: FaceDetectorOptions.PerformanceMode, limit: Int) throws -> FaceAnalyzer {
    var options = FaceDetectorOptions()
    options.performanceMode = mode
    options.maximumFaceCount = limit
    return try FaceAnalyzer.shared(options.analyzerConfiguration)
}

private func faceRequestResults(
    _ image: VisionImage, landmarks: Bool, mode: FaceDetectorOptions.PerformanceMode, limit: Int
) throws -> [FaceObservation] {
    try faceAnalyzer(mode: mode, limit: limit).analyze(image, landmarks: landmarks)
        .map { FaceObservation($0, imageSize: image.size) }
}

private func faceRequestResults(
    _ image: VisionImage, landmarks: Bool, mode: FaceDetectorOptions.PerformanceMode, limit: Int, tracker: inout FaceTracker
) throws -> [FaceObservation] {
    try tracker.faces(in: image, timestamp: nil, analyzer: faceAnalyzer(mode: mode, limit: limit), landmarks: landmarks)
        .map { FaceObservation($0, imageSize: image.size) }
}
