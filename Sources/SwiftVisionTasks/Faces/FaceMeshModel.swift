import Foundation

/// The face mesh model the faces task runs: the installed 468-point `face_landmark.tflite` (192×192 crops; the
/// faces task's own), or the 478-point mesh with irises of MediaPipe's published `face_landmarker.task`
/// (`face_landmarks_detector.tflite`, 256×256 crops), which MediaPipe's FaceLandmarker runs. Both see the crop
/// MediaPipe's FaceLandmarker prepares (the detection's box turned by its eye key points, made square and 1.5
/// times as large) and give their points in MediaPipe's order.
package struct FaceMeshModel: Hashable, Sendable {
    /// The model's file; nil for the installed `face_landmark.tflite`.
    package let file: URL?
    /// How many points the model gives for a face.
    package let points: Int

    /// The installed 468-point `face_landmark.tflite`.
    package static let installed = FaceMeshModel(file: nil, points: 468)

    /// The 478-point mesh with irises (the 468 points, then the five points of each iris, centre first) in `file`.
    package static func withIrises(in file: URL) -> FaceMeshModel {
        FaceMeshModel(file: file, points: 478)
    }
}
