import Foundation
import Testing

@testable import SwiftVision
@testable import SwiftVisionTasks
import SwiftVisionTestSupport

/// Asking the faces task for the mesh alone (as MediaPipe's FaceLandmarker gives it) fits no irises: they take two
/// invokes of the iris model a face, more than the mesh itself, and only the landmarks' eyes use them.
@Suite struct FaceMeshOnlyTests {
    static func faces(in image: VisionImage, landmarks: Bool) throws -> [FaceAnalysis] {
        var options = FacesTask.Options()
        options.fast = true
        options.mesh = true
        options.landmarks = landmarks
        options.threads = 1
        return try FacesTask(options: options, store: .shared).engine.analyze(image)
    }

    @Test func theMeshAloneFitsNoIrisesAndTheSameMesh() throws {
        // facereg.jpg: four faces (FaceTests.people, marked by eye).
        let image = try Fixtures.image("facereg.jpg")
        let meshOnly = try Self.faces(in: image, landmarks: false)
        let withLandmarks = try Self.faces(in: image, landmarks: true)
        #expect(meshOnly.count == 4)
        #expect(meshOnly.allSatisfy { $0.mesh?.count == 468 })
        #expect(meshOnly.map(\.mesh) == withLandmarks.map(\.mesh))
        #expect(meshOnly.allSatisfy { $0.leftIris == nil && $0.rightIris == nil })
        #expect(withLandmarks.allSatisfy { $0.leftIris?.count == 5 && $0.rightIris?.count == 5 })
    }
}
