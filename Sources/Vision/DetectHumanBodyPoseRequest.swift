import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Finds human bodies and their joints, as Vision's `DetectHumanBodyPoseRequest`, on BlazePose's
/// models. In a ``SequenceRequestHandler`` the landmarks of one frame place the next frame's crop.
public struct DetectHumanBodyPoseRequest: TaskBackedRequest {
    /// Most bodies to report; 1 by default, as MediaPipe's pose graph.
    public var maximumObservations = 1
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?

    /// The task the request runs.
    public typealias Job = PoseTask
    /// What the request produces: the bodies found.
    public typealias Result = [HumanBodyPoseObservation]

    /// A request for one body.
    public init() {}

    /// The pose task's options for the request.
    public var taskOptions: PoseTask.Options {
        var options = PoseTask.Options()
        options.maxPoses = maximumObservations
        return options
    }

    /// The bodies of the output.
    public func results(from output: PoseTask.Output, imageSize: CGSize) -> [HumanBodyPoseObservation] {
        output.poses.map { HumanBodyPoseObservation($0, imageSize: imageSize) }
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
