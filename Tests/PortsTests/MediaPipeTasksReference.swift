import Foundation
import SwiftVisionRuntime

/// MediaPipe Python's FaceDetector, FaceLandmarker and ImageSegmenter on the same models and photos
/// (Tests/Python/Reference/mediapipe_tasks_reference.py, run once with the tools venv's Python): the truth of
/// `MediaPipeFaceAndSegmentationPortTests`.
struct MediaPipeTasksReference: Decodable {
    /// One face of MediaPipe's FaceDetector, in pixels.
    struct Face: Decodable {
        var score: Float
        /// Left, top, width, height in whole pixels.
        var box: [Double]
        var keypoints: [[Double]]

        var boundingBox: CGRect { CGRect(x: box[0], y: box[1], width: box[2], height: box[3]) }
        var points: [CGPoint] { keypoints.map { CGPoint(x: $0[0], y: $0[1]) } }
    }

    /// What MediaPipe found in one image: faces, meshes (468 points in pixels each, 478 from `face_landmarker.task`)
    /// or the paths of the masks.
    struct Result: Decodable {
        var width: Int
        var height: Int
        var faces: Faces?
        var confidence: String?
        var category: String?

        /// A detector's faces or a landmarker's meshes.
        enum Faces: Decodable {
            case detections([Face])
            case meshes([[[Double]]])

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let meshes = try? container.decode([[[Double]]].self) {
                    self = .meshes(meshes)
                } else {
                    self = .detections(try container.decode([Face].self))
                }
            }
        }

        var detections: [Face] {
            if case .detections(let faces) = faces { return faces }
            return []
        }

        var meshes: [[CGPoint]] {
            if case .meshes(let meshes) = faces { return meshes.map { $0.map { CGPoint(x: $0[0], y: $0[1]) } } }
            return []
        }

        /// The confidence mask, float32 values row after row.
        func confidences() throws -> [Float] {
            let data = try Data(contentsOf: URL(fileURLWithPath: confidence ?? ""))
            return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }

        /// The category mask, one byte a pixel.
        func categories() throws -> [UInt8] {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: category ?? "")))
        }
    }

    /// The wheel's face detector and face mesh files, which the reference ran.
    var models: [String]
    /// One result per request, in order.
    var results: [Result]

    /// Runs the reference on `requests` (`faces=IMAGE`, `landmarks=IMAGE`, `segment=IMAGE`), the segmenter
    /// on the installed `selfie_segmentation.tflite`, writing the masks into `folder`.
    static func run(_ requests: [String], in folder: URL) throws -> MediaPipeTasksReference {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = SwiftVisionCache.current.root.appendingPathComponent("tools-venv/bin/python")
        process.arguments =
            [
                root.appendingPathComponent("Tests/Python/Reference/mediapipe_tasks_reference.py").path, folder.path,
                SwiftVisionCache.current.model(named: "selfie_segmentation.tflite").path,
            ] + requests
        let output = Pipe()
        let errors = folder.appendingPathComponent("errors.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = (try? String(contentsOf: errors, encoding: .utf8)).map { String($0.suffix(2000)) } ?? ""
            throw CocoaError(
                .executableLoad,
                userInfo: [NSLocalizedDescriptionKey: "mediapipe_tasks_reference.py failed (`make test` sets up its venv): \(reason)"])
        }
        return try JSONDecoder().decode(MediaPipeTasksReference.self, from: data)
    }
}
