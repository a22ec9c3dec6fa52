import Foundation
import SwiftVisionRuntime

/// MediaPipe's face blendshapes model (`face_blendshapes.tflite` in MediaPipe's published `face_landmarker.task`),
/// run as MediaPipe's `FaceBlendshapesGraph` runs it: 146 of a face's 478 mesh points (``meshIndices``), each as
/// its x and y in pixels of the upright image (`LandmarksToTensorCalculator` scales the normalised points by the
/// image's width and height, z left out), in one float tensor `[1, 146, 2]`; the first output holds the 52 scores,
/// taken as they are (no activation, no threshold, model order), named by ``names``. Safe to share; inferences run
/// in parallel as the interpreter allows.
package struct FaceBlendshapesModel: Sendable {
    /// The mesh points the model reads, in the order it reads them: MediaPipe's landmark subset of the face
    /// blendshapes graph (`face_blendshapes_graph.cc`), the last ten being the two irises (468–477).
    package static let meshIndices = [
        0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54, 55, 58, 61, 63, 65, 66, 67, 70, 78, 80,
        81, 82, 84, 87, 88, 91, 93, 95, 103, 105, 107, 109, 127, 132, 133, 136, 144, 145, 146, 148, 149, 150, 152, 153,
        154, 155, 157, 158, 159, 160, 161, 162, 163, 168, 172, 173, 176, 178, 181, 185, 191, 195, 197, 234, 246, 249, 251,
        263, 267, 269, 270, 276, 282, 283, 284, 285, 288, 291, 293, 295, 296, 297, 300, 308, 310, 311, 312, 314, 317, 318,
        321, 323, 324, 332, 334, 336, 338, 356, 361, 362, 365, 373, 374, 375, 377, 378, 379, 380, 381, 382, 384, 385, 386,
        387, 388, 389, 390, 397, 398, 400, 402, 405, 409, 415, 454, 466, 468, 469, 470, 471, 472, 473, 474, 475, 476, 477,
    ]

    /// The names of the model's 52 scores, in output order, as MediaPipe's graph labels them (ARKit's blendshape
    /// names, after `_neutral`).
    package static let names = [
        "_neutral", "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight", "cheekPuff",
        "cheekSquintLeft", "cheekSquintRight", "eyeBlinkLeft", "eyeBlinkRight", "eyeLookDownLeft", "eyeLookDownRight",
        "eyeLookInLeft", "eyeLookInRight", "eyeLookOutLeft", "eyeLookOutRight", "eyeLookUpLeft", "eyeLookUpRight",
        "eyeSquintLeft", "eyeSquintRight", "eyeWideLeft", "eyeWideRight", "jawForward", "jawLeft", "jawOpen", "jawRight",
        "mouthClose", "mouthDimpleLeft", "mouthDimpleRight", "mouthFrownLeft", "mouthFrownRight", "mouthFunnel",
        "mouthLeft", "mouthLowerDownLeft", "mouthLowerDownRight", "mouthPressLeft", "mouthPressRight", "mouthPucker",
        "mouthRight", "mouthRollLower", "mouthRollUpper", "mouthShrugLower", "mouthShrugUpper", "mouthSmileLeft",
        "mouthSmileRight", "mouthStretchLeft", "mouthStretchRight", "mouthUpperUpLeft", "mouthUpperUpRight",
        "noseSneerLeft", "noseSneerRight",
    ]

    /// The mesh the model reads points of: the 478-point mesh with irises.
    package static let meshPoints = 478

    private let interpreter: Interpreter

    /// Loads the model in `file` from `store`, refusing a model without the graph's input and output.
    package init(contentsOf file: URL, threadCount: Int, store: ModelStore) throws {
        interpreter = try store.interpreter(contentsOf: file, options: LiteRT.CompilationOptions(threadCount: threadCount))
        let input = interpreter.inputs.first
        guard interpreter.inputs.count == 1, input?.elementType == .float32, input?.elementCount == Self.meshIndices.count * 2,
            let output = interpreter.outputs.first, output.elementType == .float32, output.elementCount == Self.names.count
        else {
            throw LiteRTError.incompatibleModel(
                "\(file.lastPathComponent) is not MediaPipe's face blendshapes model: it should take [1, \(Self.meshIndices.count), 2]"
                    + " float points and give \(Self.names.count) float scores first; it takes "
                    + interpreter.inputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", ") + " and gives "
                    + interpreter.outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
    }

    /// The 52 scores, in ``names``' order, of the face whose 478-point `mesh` (in pixels of the upright image) is given.
    package func scores(forMesh mesh: [Landmark]) throws -> [Float] {
        guard mesh.count == Self.meshPoints else {
            throw VisionTaskError.engineFailed("face blendshapes read a mesh of \(Self.meshPoints) points, not \(mesh.count)")
        }
        return try interpreter.invoke { inputs in
            let values = inputs[0].bindMemory(to: Float.self)
            for (slot, index) in Self.meshIndices.enumerated() {
                values[slot * 2] = Float(mesh[index].x)
                values[slot * 2 + 1] = Float(mesh[index].y)
            }
        } readingOutputs: { outputs in
            Array(outputs[0].bindMemory(to: Float.self).prefix(Self.names.count))
        }
    }
}
