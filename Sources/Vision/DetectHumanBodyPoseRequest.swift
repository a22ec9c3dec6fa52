import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Finds human bodies and their joints, as Vision's `DetectHumanBodyPoseRequest`, on BlazePose's
/// models. In a ``SequenceRequestHandler`` the landmarks of one frame place the next frame's crop.
public struct DetectHumanBodyPoseRequest: SequenceVisionRequest {
    /// Most bodies to report; 1 by default, as MediaPipe's pose graph.
    public var maximumObservations = 1
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?

    /// A request for one body.
    public init() {}

    /// The bodies in `image`.
    public func perform(on image: VisionImage) throws -> [HumanBodyPoseObservation] {
        observations(try PoseTask(options: taskOptions).output(for: image))
    }

    /// Requests with the same limit share a sequence.
    public var sequenceKey: AnyHashable { taskOptions }

    /// A runner of the pose task in video mode.
    public func makeSequenceState() throws -> TaskRunner<PoseTask> {
        TaskRunner(task: try PoseTask(options: taskOptions), runningMode: .video)
    }

    /// The bodies in the next frame of the sequence.
    public func perform(on image: VisionImage, state: inout TaskRunner<PoseTask>) throws -> [HumanBodyPoseObservation] {
        observations(try state.run(videoFrame: image))
    }

    private var taskOptions: PoseTask.Options {
        var options = PoseTask.Options()
        options.maxPoses = maximumObservations
        return options
    }

    private func observations(_ output: PoseTask.Output) -> [HumanBodyPoseObservation] {
        output.poses.map { HumanBodyPoseObservation($0, imageSize: CGSize(width: output.width, height: output.height)) }
    }
}

/// A body found by ``DetectHumanBodyPoseRequest`` (Vision's `HumanBodyPoseObservation`): Vision's 19
/// joints, in Vision's normalised coordinates (lower-left origin).
public struct HumanBodyPoseObservation: VisionObservation, Equatable {
    /// Vision's joints; left and right are the subject's.
    public enum JointName: String, Sendable, CaseIterable, Hashable {
        /// The head.
        case nose, leftEye, rightEye, leftEar, rightEar
        /// The torso and arms; the neck is midway between the shoulders.
        case neck, leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
        /// The hips and legs; the root is midway between the hips.
        case root, leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle

        /// The BlazePose landmarks the joint lies on: one, or two whose midpoint it is.
        var landmarks: [PoseLandmarkType] {
            switch self {
            case .neck: [.leftShoulder, .rightShoulder]
            case .root: [.leftHip, .rightHip]
            default: [PoseLandmarkType(rawValue: rawValue)!]
            }
        }
    }

    /// One joint (Vision's `Joint`).
    public struct Joint: Sendable, Equatable {
        /// Which joint.
        public let jointName: JointName
        /// Where it is, in 0…1 of the image, origin at the lower left.
        public let location: CGPoint
        /// How likely it is visible (BlazePose's visibility; the lower of the two for a midpoint), 0–1.
        public let confidence: Float
    }

    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// The landmark model's confidence that the body is there, 0–1.
    public let confidence: Float
    /// The box around the body's landmarks in 0…1 of the image, origin at the lower left.
    public let boundingBox: CGRect
    /// Every joint by name.
    public let joints: [JointName: Joint]

    init(_ pose: PoseResult, imageSize: CGSize) {
        uuid = UUID()
        confidence = pose.score
        boundingBox = pose.boundingBox.rect.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: imageSize)
        joints = Dictionary(uniqueKeysWithValues: JointName.allCases.map { name in
            let landmarks = name.landmarks.map(pose.landmark)
            let count = Double(landmarks.count)
            let pixel = CGPoint(x: landmarks.map(\.x).reduce(0, +) / count, y: landmarks.map(\.y).reduce(0, +) / count)
            return (
                name,
                Joint(
                    jointName: name, location: pixel.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: imageSize),
                    confidence: landmarks.map { $0.visibility ?? 0 }.min() ?? 0)
            )
        })
    }

    /// The joint `name` (Vision's `joint(for:)`).
    public func joint(for name: JointName) -> Joint? {
        joints[name]
    }

    /// The names of the joints the observation has (Vision's `availableJointNames`): all 19.
    public var availableJointNames: [JointName] { JointName.allCases }
}
