import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// MediaPipe's hand landmark model (`hand_landmark_full.tflite` or `hand_landmark_lite.tflite`) run on a
/// turned square crop of one hand, decoded as `hand_landmark_cpu.pbtxt` does.
struct HandLandmarkModel: Sendable {
    /// The landmarks of one crop, in upright pixels.
    struct Found: Sendable {
        /// The hand flag: how likely the crop holds a hand, 0–1.
        var presence: Float
        /// The model's score that the hand is a left one in the image as given (MediaPipe's first class,
        /// `Left`; `Right` scores one minus it).
        var leftScore: Float
        /// The 21 landmarks; `z` on the scale of `x`.
        var landmarks: [Landmark]
        /// The 21 world landmarks in metres, origin at the hand's centre.
        var world: [Landmark]
    }

    static let landmarkCount = 21

    private let interpreter: Interpreter
    private let format: ImageTensorFormat

    init(name: String, options: LiteRT.CompilationOptions, store: ModelStore, cache: SwiftVisionCache = .current) throws {
        interpreter = try store.interpreter(contentsOf: cache.model(named: name), options: options)
        // ImageToTensorCalculator in hand_landmark_cpu.pbtxt: 224×224, 0…1, edges repeated (its default border).
        var format = try ImageTensorFormat(tensor: interpreter.inputs[0], normalization: .unit)
        format.extendsEdges = true
        self.format = format
        // The outputs in the model's order, as the graph's SplitTensorVectorCalculator takes them: landmarks,
        // hand flag, handedness, world landmarks.
        let counts = interpreter.outputs.map(\.elementCount)
        let expected = [Self.landmarkCount * 3, 1, 1, Self.landmarkCount * 3]
        guard counts == expected else {
            throw LiteRTError.incompatibleModel("\(name) should output \(expected) values, has \(counts)")
        }
    }

    /// The hand in `region` of `image`, or nil when the hand flag is below `minimumPresence`.
    func landmarks(in image: VisionImage, region: RotatedRect, minimumPresence: Float) throws -> Found? {
        let size = Double(format.width)
        return try interpreter.invoke { inputs in
            try image.write(into: inputs[0], format: format, region: region.sampledAsMediaPipe(tensorWidth: format.width, tensorHeight: format.height))
        } readingOutputs: { outputs in
            // The flag and the handedness are already probabilities: MediaPipe reads them as they are.
            let presence = outputs[1].bindMemory(to: Float.self)[0]
            guard presence >= minimumPresence else { return nil }
            let raw = outputs[0].bindMemory(to: Float.self)
            // TensorsToLandmarksCalculator: x, y over the input size, z over the width and `normalize_z` 0.4;
            // LandmarkProjectionCalculator: into the turned crop, z scaled by the crop's width.
            let landmarks = (0..<Self.landmarkCount).map { index in
                let position = region.point(atNormalized: Double(raw[index * 3]) / size, Double(raw[index * 3 + 1]) / size)
                let z = Double(raw[index * 3 + 2]) / size / 0.4 * region.size.width
                return Landmark(x: position.x, y: position.y, z: z)
            }
            // WorldLandmarkProjectionCalculator: turned by the crop's rotation.
            let world = outputs[3].bindMemory(to: Float.self)
            let (sine, cosine) = (sin(region.rotation), cos(region.rotation))
            let worldPoints = (0..<Self.landmarkCount).map { index in
                let (x, y) = (Double(world[index * 3]), Double(world[index * 3 + 1]))
                return Landmark(x: cosine * x - sine * y, y: sine * x + cosine * y, z: Double(world[index * 3 + 2]))
            }
            return Found(
                presence: presence, leftScore: outputs[2].bindMemory(to: Float.self)[0], landmarks: landmarks, world: worldPoints)
        }
    }
}
