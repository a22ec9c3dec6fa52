import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Finds faces, their landmarks, contours and mesh: BlazeFace detection (and, in accurate mode, a
/// closer look where the whole image leaves doubt: tiles for small faces), then the face mesh and irises; in a stream, faces keep tracking IDs and
/// the mesh follows them from frame to frame.
public struct FacesTask: VisionTask {
    /// The settings of the faces task, named as the `faces` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// The short-range model on the whole image only: faster, for faces near the camera.
        public var fast = false
        /// Locate landmarks (eyes at the pupils, ears, cheeks, nose, mouth) from the face mesh.
        public var landmarks = false
        /// Trace contours from the face mesh; nil follows ``landmarks``.
        public var contours: Bool?
        /// Report the 468 mesh points of each face.
        public var mesh = false
        /// Lowest detection confidence to report, 0–1.
        public var threshold: Float = 0.5
        /// Smallest face to report, as the face width over the image width.
        public var minFaceSize = 0.02
        /// Most faces to report, the most confident first.
        public var maxFaces = 20
        /// Threads for each model's inference; nil for the default.
        public var threads: Int?
        /// In a stream, follow each face with its mesh and give it a tracking ID; false detects afresh
        /// in every frame, without IDs (as ML Kit with tracking disabled, or MediaPipe's FaceDetector).
        public var tracking = true
        /// In a stream, end every track at a hard cut between shots, so that a face of the next shot that
        /// appears where one was gets a new ID.
        public var sceneCuts = true

        /// The default settings.
        public init() {}

        var tracesContours: Bool { contours ?? landmarks }
        var needsMesh: Bool { landmarks || tracesContours || mesh }

        func validate() throws {
            try VisionTaskError.checkThreads(threads)
            guard (0...1).contains(threshold) else { throw VisionTaskError.invalidOption("must lie in 0…1, not \(threshold)", key: "threshold") }
            guard (0...1).contains(minFaceSize) else {
                throw VisionTaskError.invalidOption("must lie in 0…1, not \(minFaceSize)", key: "minFaceSize")
            }
            guard maxFaces > 0 else { throw VisionTaskError.invalidOption("must be at least 1, not \(maxFaces)", key: "maxFaces") }
        }
    }

    /// The faces of one image or frame.
    public struct Output: Codable, Sendable, Equatable {
        /// The upright image's width in pixels.
        public var width: Int
        /// The upright image's height in pixels.
        public var height: Int
        /// The faces, most confident first (tracked faces first in a stream).
        public var faces: [FaceResult]

        /// The faces of an image `width` × `height` pixels.
        public init(width: Int, height: Int, faces: [FaceResult]) {
            self.width = width
            self.height = height
            self.faces = faces
        }
    }

    /// The tracked faces of a stream.
    public typealias StreamState = LandmarkTracker

    /// Named `faces`, with BlazeFace short- and full-range, the face mesh and the iris model.
    public static let descriptor = TaskDescriptor(
        name: "faces", title: "Faces", summary: "Faces with landmarks, contours, mesh and tracking IDs",
        tracksAcrossFrames: true,
        models: [
            "face_detection_short_range.tflite", "face_detection_full_range_sparse.tflite", "face_landmark.tflite",
            "iris_landmark.tflite",
        ], hiddenOptions: ["mesh"])
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    let engine: FaceEngine

    /// Checks the options and loads the models from `store`.
    public init(options: Options, store: ModelStore) throws {
        try self.init(options: options, meshModel: .installed, store: store)
    }

    /// As ``init(options:store:)``, with `meshModel` for the mesh (MediaPipe's FaceLandmarker given its
    /// published 478-point mesh); the detection is the same.
    package init(options: Options, meshModel: FaceMeshModel, store: ModelStore = .shared) throws {
        try options.validate()
        self.options = options
        engine = try FaceEngine(
            configuration: FaceEngine.Configuration(
                range: options.fast ? .short : .full, looksCloser: !options.fast, minimumConfidence: options.threshold,
                minimumFaceSize: options.minFaceSize, maximumFaces: options.maxFaces,
                threads: options.threads ?? LiteRT.CompilationOptions.default.threadCount, landmarks: options.needsMesh,
                irises: options.landmarks, meshModel: meshModel),
            store: store)
    }

    /// The faces in one image on its own.
    public func output(for image: VisionImage) throws -> Output {
        report(try engine.analyze(image), in: image)
    }

    /// The faces in the next frame of a stream, with tracking IDs kept from frame to frame (with
    /// ``Options/tracking``; without it, as ``output(for:)``).
    public func output(forFrame image: VisionImage, state: inout LandmarkTracker) throws -> Output {
        guard options.tracking else { return try output(for: image) }
        return report(try state.next(in: image, engine: engine, endsTracksAtCuts: options.sceneCuts), in: image)
    }

    private func report(_ faces: [FaceAnalysis], in image: VisionImage) -> Output {
        Output(width: image.width, height: image.height, faces: faces.map { FaceResult($0, options: options) })
    }
}
