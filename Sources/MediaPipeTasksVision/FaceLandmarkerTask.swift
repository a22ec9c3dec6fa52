import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// What ``FaceLandmarker`` runs: the faces task with the mesh, then, where the options ask for blendshapes, MediaPipe's
/// blendshapes model on each face's mesh, as MediaPipe's face landmarks detector graph runs its blendshapes graph on
/// the landmarks it reports.
struct FaceLandmarkerTask: VisionTask {
    /// The faces of one image or frame, and the blendshape scores of each face that has a mesh.
    struct Output: Codable, Sendable {
        /// The faces task's output.
        var faces: FacesTask.Output
        /// The 52 scores of each face with a mesh, in the order of those faces; empty without the blendshapes model.
        var blendshapes: [[Float]]
    }

    typealias StreamState = LandmarkTracker

    static var descriptor: TaskDescriptor { FacesTask.descriptor }
    static var defaultOptions: FacesTask.Options { FacesTask.defaultOptions }

    /// The faces task.
    let faces: FacesTask
    /// The blendshapes model; nil when they are not asked for.
    let blendshapes: FaceBlendshapesModel?

    var options: FacesTask.Options { faces.options }

    /// The faces task made with `options`, without blendshapes.
    init(options: FacesTask.Options, store: ModelStore) throws {
        self.init(faces: try FacesTask(options: options, store: store), blendshapes: nil)
    }

    /// `faces`, followed by `blendshapes` when given.
    init(faces: FacesTask, blendshapes: FaceBlendshapesModel?) {
        self.faces = faces
        self.blendshapes = blendshapes
    }

    func output(for image: VisionImage) throws -> Output {
        try scored(faces.output(for: image))
    }

    func output(forFrame image: VisionImage, state: inout LandmarkTracker) throws -> Output {
        try scored(faces.output(forFrame: image, state: &state))
    }

    /// `output` with the blendshapes of its meshes.
    private func scored(_ output: FacesTask.Output) throws -> Output {
        let meshes = output.faces.compactMap(\.mesh)
        return Output(faces: output, blendshapes: try blendshapes.map { model in try meshes.map { try model.scores(forMesh: $0) } } ?? [])
    }
}
