import Foundation
import SwiftVisionRuntime
import SwiftVisionTestSupport
import Testing

import SwiftVisionTasks

/// MediaPipe's blendshapes model fed as MediaPipe's face blendshapes graph feeds it. Truth: MediaPipe Python's
/// FaceLandmarker with the published `face_landmarker.task` (`Tests/Python/Reference/face_landmarker_task_reference.py`),
/// whose landmarks, given to ``FaceBlendshapesModel``, must give back its own blendshapes: the points chosen, their
/// order, their scale (pixels) and the reading of the scores are then MediaPipe's, whatever our mesh.
@Suite struct FaceBlendshapesModelTests {
    /// What the reference script prints, as far as this suite reads it.
    struct Reference: Decodable {
        struct Category: Decodable {
            let name: String
            let score: Float
        }

        struct Result: Decodable {
            let faces: [[[Double]]]
            let blendshapes: [[Category]]
        }

        let results: [Result]
    }

    /// Sample photos with faces MediaPipe's landmarker keeps: one close face, four small faces, one face.
    static let photos = ["astronaut.png", "facereg.jpg", "face_swapped.jpg"]

    @Test func mediaPipesLandmarksGiveMediaPipesBlendshapes() throws {
        let bundle = try Fixtures.model("face_landmarker.task")
        let output = try Fixtures.referenceOutput(
            "face_landmarker_task_reference.py", [bundle.path] + (try Self.photos.map { try Fixtures.sample($0).path }))
        let reference = try JSONDecoder().decode(Reference.self, from: output)
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("face_blendshapes.tflite")
        try PackedFiles(url: bundle).contents(ofFile: "face_blendshapes.tflite").write(to: file)
        let model = try FaceBlendshapesModel(contentsOf: file, threadCount: 1, store: ModelStore())
        var faces = 0
        for result in reference.results {
            for (mesh, categories) in zip(result.faces, result.blendshapes) {
                faces += 1
                #expect(categories.map(\.name) == FaceBlendshapesModel.names)
                let scores = try model.scores(forMesh: mesh.map { Landmark(x: $0[0], y: $0[1], z: 0) })
                let difference = zip(scores, categories).map { abs($0 - $1.score) }.max() ?? .infinity
                // float32 pixels through JSON's decimal text: a few millionths.
                #expect(difference <= 1e-5, "largest score difference \(difference)")
            }
        }
        #expect(faces == 6)
        // A mesh without the irises is refused, not read out of bounds.
        #expect(throws: VisionTaskError.self) { try model.scores(forMesh: Array(repeating: Landmark(x: 0, y: 0, z: 0), count: 468)) }
    }
}
