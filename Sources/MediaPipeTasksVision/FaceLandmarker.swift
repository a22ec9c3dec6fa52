import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``FaceLandmarker``, as MediaPipe's `FaceLandmarkerOptions`: a class, set on a `let`. By default
/// the models are the installed short-range BlazeFace and 468-point face mesh (`face_detection_short_range.tflite`,
/// `face_landmark.tflite`); `baseOptions.modelAssetPath` may name a copy of `face_landmark.tflite`, or MediaPipe's
/// published `face_landmarker.task`, whose detector is the installed one and whose 478-point mesh with irises
/// (`face_landmarks_detector.tflite`) is then run from the bundle, as MediaPipe runs it, and so are the blendshapes
/// (`face_blendshapes.tflite`) when asked for. Transformation matrixes are not ported: asking for them is refused
/// when the landmarker is made.
public final class FaceLandmarkerOptions: TaskOptions, @unchecked Sendable {
    /// Most faces to find.
    public var numFaces = 1
    /// Lowest detector score that starts a face, 0–1.
    public var minFaceDetectionConfidence: Float = 0.5
    /// Lowest face presence of the mesh that keeps a face, 0–1; the faces task keeps faces from 0.5, the
    /// only value accepted.
    public var minFacePresenceConfidence: Float = 0.5
    /// Lowest face presence that keeps a face tracked from the previous frame, 0–1; as
    /// ``minFacePresenceConfidence``, 0.5 only.
    public var minTrackingConfidence: Float = 0.5
    /// Whether to return each face's 52 blendshape scores, from the blendshapes model of MediaPipe's
    /// `face_landmarker.task` (which `baseOptions.modelAssetPath` must then name: the model reads the 478-point mesh
    /// with irises).
    public var outputFaceBlendshapes = false
    /// Whether to return each face's transformation matrix; refused (MediaPipe's face geometry is not ported).
    public var outputFacialTransformationMatrixes = false
    /// Receives the results of ``FaceLandmarker/detectAsync(image:timestampInMilliseconds:)``, in order, in
    /// `.liveStream` mode; held weakly.
    public weak var faceLandmarkerLiveStreamDelegate: (any FaceLandmarkerLiveStreamDelegate)?

    /// The presence the face engine keeps faces from.
    static let presence: Float = 0.5

    /// What MediaPipe's published `face_landmarker.task` must hold: its detector is the installed short-range
    /// BlazeFace; its 478-point mesh, not installed, is run from the bundle.
    static let bundle = [
        BundledModel(
            name: "face_detector.tflite", installed: "face_detection_short_range.tflite",
            sha256: "b4578f35940bf5a1a655214a1cce5cab13eba73c1297cd78e1a04c2380b0152f"),
        BundledModel(
            name: meshFile, installed: nil, sha256: meshSHA256,
            difference: "MediaPipe's published 478-point mesh with irises from 256×256 crops"),
    ]

    /// The mesh's name in MediaPipe's `face_landmarker.task`.
    static let meshFile = "face_landmarks_detector.tflite"
    /// The SHA-256 of the mesh in MediaPipe's published `face_landmarker.task`.
    static let meshSHA256 = "c7d54204ce0448474c7f3fa9af494787c0965cbdd6f20fc72867e43046bd43d5"
    /// The blendshapes model's name in MediaPipe's `face_landmarker.task`.
    static let blendshapesFile = "face_blendshapes.tflite"

    /// MediaPipe's defaults: one face, image mode, every threshold 0.5, no blendshapes or matrixes.
    public override init() {}

    /// The task for these, once the model and the options the task cannot serve are checked: the short-range
    /// detector on the whole image, then the mesh (the bundle's, for MediaPipe's `face_landmarker.task`), then the
    /// bundle's blendshapes when asked for; in a stream the mesh follows each face.
    func task() throws -> FaceLandmarkerTask {
        let bundled = try InstalledModel.check(
            baseOptions.modelPath, installed: "face_landmark.tflite", bundle: Self.bundle, task: "FaceLandmarker")
        guard !outputFacialTransformationMatrixes else {
            throw VisionTaskError.invalidOption("outputFacialTransformationMatrixes: MediaPipe's face geometry is not available here")
        }
        for (name, value) in [("minFacePresenceConfidence", minFacePresenceConfidence), ("minTrackingConfidence", minTrackingConfidence)]
        where value != Self.presence {
            throw VisionTaskError.invalidOption("\(name): the face mesh keeps faces from a presence of \(Self.presence) only, not \(value)")
        }
        var options = FacesTask.Options()
        options.fast = true
        options.mesh = true
        options.contours = false
        options.minFaceSize = 0
        options.maxFaces = numFaces
        options.threshold = minFaceDetectionConfidence
        options.threads = threadCount
        let mesh = try bundled[Self.meshFile].map {
            FaceMeshModel.withIrises(in: try Self.extracted(Self.meshFile, contents: $0, sha256: Self.meshSHA256))
        }
        let faces = try FacesTask(options: options, meshModel: mesh ?? .installed)
        return FaceLandmarkerTask(faces: faces, blendshapes: outputFaceBlendshapes ? try blendshapesModel(with: mesh) : nil)
    }

    /// The blendshapes model of the `face_landmarker.task` at the model path, whose mesh, `mesh`, it reads; refused
    /// (an invalid argument, as MediaPipe refuses blendshapes without their model) for the installed 468-point mesh
    /// and for a bundle without the model.
    private func blendshapesModel(with mesh: FaceMeshModel?) throws -> FaceBlendshapesModel {
        guard let path = baseOptions.modelPath, mesh != nil else {
            throw VisionTaskError.invalidOption(
                "outputFaceBlendshapes: the blendshapes model comes in MediaPipe's face_landmarker.task and reads its 478-point mesh;"
                    + " set baseOptions.modelAssetPath to that bundle")
        }
        let files = PackedFiles(url: URL(fileURLWithPath: path))
        guard try files.names().contains(Self.blendshapesFile) else {
            throw VisionTaskError.invalidOption("outputFaceBlendshapes: \(path) holds no \(Self.blendshapesFile), the blendshapes model")
        }
        let contents = try files.contents(ofFile: Self.blendshapesFile)
        let file = try Self.extracted(Self.blendshapesFile, contents: contents, sha256: PackedFiles.sha256(of: contents))
        return try FaceBlendshapesModel(contentsOf: file, threadCount: threadCount, store: .shared)
    }

    /// The file holding `contents`, the model `name` of a bundle: written once into the cache's models folder (the
    /// user's own, not the shared temporary folder) under its SHA-256, `sha256`, for the runtime to map.
    private static func extracted(_ name: String, contents: Data, sha256: String) throws -> URL {
        let folder = SwiftVisionCache.current.models.appendingPathComponent("from-bundles", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(sha256)-\(name)")
        if (try? Data(contentsOf: file)) != contents {
            try contents.write(to: file, options: .atomic)
        }
        return file
    }
}

/// Receives live-stream results of a ``FaceLandmarker``, as MediaPipe's `FaceLandmarkerLiveStreamDelegate`.
/// Called on the landmarker's own queue, one frame at a time, in timestamp order.
public protocol FaceLandmarkerLiveStreamDelegate: NSObjectProtocol, Sendable {
    /// The result of the frame sent with `timestampInMilliseconds`, or the error that stopped it.
    func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}

/// Finds faces, their mesh landmarks (MediaPipe's `FaceLandmarker`: 478 with MediaPipe's `face_landmarker.task`,
/// 468 with the installed mesh) and, with the bundle, their blendshapes in single images, video frames
/// or a live stream: the faces task in its fast mode with the mesh (detections below its sure score are
/// kept only where the mesh and a second look confirm a face); in video and live streams each face's mesh
/// places its next crop. Safe to share between threads.
public final class FaceLandmarker: Sendable {
    /// The options the landmarker was made with.
    public let options: FaceLandmarkerOptions
    private let api: VisionTaskApi<FaceLandmarkerTask, FaceLandmarkerResult>

    /// Loads the models; fails for options the faces task cannot serve (see ``FaceLandmarkerOptions``).
    public init(options: FaceLandmarkerOptions = FaceLandmarkerOptions()) throws {
        self.options = options
        let reference = WeakReference<FaceLandmarker>()
        let deliver = VisionTaskApi<FaceLandmarkerTask, FaceLandmarkerResult>.delivery(
            to: options.faceLandmarkerLiveStreamDelegate, of: reference
        ) { $0.faceLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) }
        api = try VisionTaskApi(
            task: { try options.task() }, runningMode: options.runningMode, result: FaceLandmarkerResult.init,
            deliver: deliver)
        reference.object = self
    }

    /// A landmarker in image mode for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// The faces of one image, in `.image` mode.
    public func detect(image: VisionImage) throws -> FaceLandmarkerResult {
        try api.run(image)
    }

    /// The faces of the next frame of a video, in `.video` mode; timestamps must increase.
    public func detect(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> FaceLandmarkerResult {
        try api.run(videoFrame: image, timestampInMilliseconds: timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps must
    /// increase. Results go to the delegate, in order; one frame is processed at a time and the newest
    /// frame that arrives meanwhile goes next (older waiting ones are dropped).
    public func detectAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try api.send(image, timestampInMilliseconds: timestamp)
    }

    /// Ends the landmarker; later calls fail with ``TasksErrorCode/invalidArgumentError``, as in MediaPipe.
    public func close() {
        api.close()
    }
}

/// What ``FaceLandmarker`` found in one image, as MediaPipe's `FaceLandmarkerResult`: one entry per face.
public struct FaceLandmarkerResult: Sendable {
    /// Each face's mesh landmarks, in MediaPipe's order: 478 (the 468 of the mesh, then each iris's centre and four
    /// edge points) from MediaPipe's `face_landmarker.task`, 468 from the installed mesh; normalised to 0…1 of the
    /// upright image's width and height (`z` on the scale of `x`, smaller nearer).
    public let faceLandmarks: [[NormalizedLandmark]]
    /// Each face's 52 blendshape scores with ``FaceLandmarkerOptions/outputFaceBlendshapes``, in the order of
    /// ``faceLandmarks``; empty without it. As MediaPipe gives them: one head (index 0, no name) whose categories are
    /// in the model's order, not by score, each with its index, MediaPipe's name (`_neutral`, `browDownLeft`, …,
    /// `noseSneerRight`: ARKit's blendshapes after `_neutral`) and no display name.
    public let faceBlendshapes: [Classifications]
    /// Each face's transformation matrix; always empty, as
    /// ``FaceLandmarkerOptions/outputFacialTransformationMatrixes`` is refused.
    public let facialTransformationMatrixes: [TransformMatrix]
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int

    init(_ output: FaceLandmarkerTask.Output, timestamp: Int) {
        let (width, height) = (Double(output.faces.width), Double(output.faces.height))
        // A sure face the mesh does not fit keeps no mesh in the faces task; MediaPipe drops it.
        faceLandmarks = output.faces.faces.compactMap(\.mesh).map { mesh in
            mesh.map { NormalizedLandmark(x: $0.x / width, y: $0.y / height, z: $0.z / width, visibility: nil, presence: nil) }
        }
        faceBlendshapes = output.blendshapes.map { scores in
            let categories = zip(FaceBlendshapesModel.names, scores).enumerated().map { index, named in
                ResultCategory(index: index, score: named.1, categoryName: named.0, displayName: nil)
            }
            return Classifications(headIndex: 0, headName: nil, categories: categories)
        }
        facialTransformationMatrixes = []
        timestampInMilliseconds = timestamp
    }
}

/// A row-major matrix, as MediaPipe's `TransformMatrix`.
public struct TransformMatrix: Sendable, Hashable {
    /// The values, row after row.
    public let data: [Float]
    /// Rows.
    public let rows: Int
    /// Columns.
    public let columns: Int
}
