import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// MediaPipe's face mesh (``FaceMeshModel``: the installed 468-point `face_landmark.tflite`, or the 478-point
/// mesh of MediaPipe's `face_landmarker.task`) and iris (`iris_landmark.tflite`) models, run on crops turned
/// upright by the eye line. Each model is loaded the first time it is needed (the mesh
/// only for landmarks, tracking and faces not sure enough to skip its check; the iris only for landmarks),
/// so runs that never need one never pay for it; later calls reuse it.
final class FaceLandmarkModels: Sendable {
    /// A loaded model, its input format and the index of its points.
    private struct Model: Sendable {
        let interpreter: Interpreter
        let format: ImageTensorFormat
        let points: Int
    }

    /// The mesh model, the index of its face presence and how many points it gives.
    private struct MeshModel: Sendable {
        let model: Model
        let presence: Int
        let count: Int
    }

    private let mesh: LoadedOnFirstUse<MeshModel>
    private let iris: LoadedOnFirstUse<Model>

    init(options: LiteRT.CompilationOptions, store: ModelStore, meshModel: FaceMeshModel = .installed, cache: SwiftVisionCache = .current) throws {
        let meshFile = meshModel.file ?? cache.model(named: "face_landmark.tflite")
        let count = meshModel.points
        mesh = LoadedOnFirstUse {
            let mesh = try store.interpreter(contentsOf: meshFile, options: options)
            // MediaPipe splits the mesh's outputs into the points and, next, the face presence.
            guard let points = mesh.outputs.firstIndex(where: { $0.elementCount == count * 3 }),
                let presence = mesh.outputs.firstIndex(where: { $0.elementCount == 1 })
            else {
                throw LiteRTError.incompatibleModel(
                    "\(meshFile.lastPathComponent) is not a face mesh of \(count) points: it lacks an output of \(count * 3) values or the face presence")
            }
            let format = try ImageTensorFormat(tensor: mesh.inputs[0], normalization: .unit)
            return MeshModel(model: Model(interpreter: mesh, format: format, points: points), presence: presence, count: count)
        }
        let irisFile = cache.model(named: "iris_landmark.tflite")
        iris = LoadedOnFirstUse {
            let iris = try store.interpreter(contentsOf: irisFile, options: options)
            guard let points = iris.outputs.firstIndex(where: { $0.elementCount == 5 * 3 }) else {
                throw LiteRTError.incompatibleModel("the iris model does not have the expected outputs")
            }
            return Model(interpreter: iris, format: try ImageTensorFormat(tensor: iris.inputs[0], normalization: .unit), points: points)
        }
    }

    /// The mesh points inside `region` (468, or 478 with the irises last) and the probability that a face is there.
    func meshPoints(in image: VisionImage, region: RotatedRect) throws -> (points: [FaceMeshPoint], presence: Float) {
        let loaded = try self.mesh.value()
        let (mesh, presence, count) = (loaded.model, loaded.presence, loaded.count)
        var mapping: TensorImageMapping?
        let depthScale = Double(region.size.width) / Double(mesh.format.width)
        return try mesh.interpreter.invoke { inputs in
            mapping = try image.write(into: inputs[0], format: mesh.format, region: region)
        } readingOutputs: { outputs in
            let raw = outputs[mesh.points].bindMemory(to: Float.self)
            let logit = outputs[presence].bindMemory(to: Float.self)[0]
            let points = (0..<count).map { index in
                let point = mapping!.imagePoint(fromTensorPoint: CGPoint(x: Double(raw[index * 3]), y: Double(raw[index * 3 + 1])))
                return FaceMeshPoint(x: point.x, y: point.y, z: Double(raw[index * 3 + 2]) * depthScale)
            }
            return (points, 1 / (1 + exp(-logit)))
        }
    }

    /// The five iris points (centre first) of the eye whose corners are `outer` and `inner`.
    /// The model knows the eye on the image's left; the other eye is mirrored into it.
    func iris(in image: VisionImage, from outer: CGPoint, to inner: CGPoint, mirrored: Bool) throws -> [CGPoint] {
        let width = hypot(inner.x - outer.x, inner.y - outer.y) * 2.3
        var region = RotatedRect(
            center: CGPoint(x: (outer.x + inner.x) / 2, y: (outer.y + inner.y) / 2), size: CGSize(width: width, height: width),
            rotation: RotatedRect.rotation(from: mirrored ? inner : outer, to: mirrored ? outer : inner))
        if mirrored { region = region.mirrored() }
        let iris = try iris.value()
        var mapping: TensorImageMapping?
        return try iris.interpreter.invoke { inputs in
            mapping = try image.write(into: inputs[0], format: iris.format, region: region)
        } readingOutputs: { outputs in
            let raw = outputs[iris.points].bindMemory(to: Float.self)
            return (0..<5).map { mapping!.imagePoint(fromTensorPoint: CGPoint(x: Double(raw[$0 * 3]), y: Double(raw[$0 * 3 + 1]))) }
        }
    }
}
