import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// Which hand, as Vision's `VNChirality`, with Apple's values.
public enum VNChirality: Int, Sendable, CaseIterable {
    /// The subject's left hand.
    case left = -1
    /// Not known.
    case unknown = 0
    /// The subject's right hand.
    case right = 1
}

/// Finds human hands and their joints, as Vision's `VNDetectHumanHandPoseRequest`, with the engine of
/// ``DetectHumanHandPoseRequest`` (MediaPipe's palm detector and hand landmark model); its results are
/// ``VNHumanHandPoseObservation``s. In a ``VNSequenceRequestHandler`` each hand's joints place its next
/// frame's crop.
public final class VNDetectHumanHandPoseRequest: VNImageBasedRequest {
    /// Most hands to report; 2 by default, as in Vision.
    public var maximumHandCount = 2

    /// The joints an observation has, as Vision's `supportedJointNames()`.
    public func supportedJointNames() throws -> [VNHumanHandPoseObservation.JointName] {
        VNHumanHandPoseObservation.jointNames
    }

    /// The groups of joints an observation has, as Vision's `supportedJointsGroupNames()`.
    public func supportedJointsGroupNames() throws -> [VNHumanHandPoseObservation.JointsGroupName] {
        VNHumanHandPoseObservation.jointsGroups.map(\.name)
    }

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        guard maximumHandCount > 0 else {
            throw VisionTaskError.invalidOption("maximumHandCount must be at least 1, not \(maximumHandCount)")
        }
        var request = DetectHumanHandPoseRequest()
        request.maximumHandCount = maximumHandCount
        return try results(of: request, on: imageInRegionOfInterest(image), sequence: sequence).map(VNHumanHandPoseObservation.init)
    }
}

/// A hand's joints, as Vision's `VNHumanHandPoseObservation`: Vision's 21 joints in 0–1 of the image,
/// origin at the lower left, and which hand it is.
public final class VNHumanHandPoseObservation: VNRecognizedPointsObservation, VNJointsObservation, @unchecked Sendable {
    /// A hand joint, as Vision's `VNHumanHandPoseObservation.JointName`, with Vision's raw values.
    public struct JointName: RawRepresentable, Hashable, Sendable {
        /// Vision's name of the joint, such as `VNHLKWRI`.
        public let rawValue: VNRecognizedPointKey

        /// The joint named `rawValue`.
        public init(rawValue: VNRecognizedPointKey) {
            self.rawValue = rawValue
        }

        /// The wrist.
        public static let wrist = JointName(rawValue: "VNHLKWRI")
        /// The thumb's carpometacarpal joint.
        public static let thumbCMC = JointName(rawValue: "VNHLKTCMC")
        /// The thumb's metacarpophalangeal joint.
        public static let thumbMP = JointName(rawValue: "VNHLKTMP")
        /// The thumb's interphalangeal joint.
        public static let thumbIP = JointName(rawValue: "VNHLKTIP")
        /// The thumb's tip.
        public static let thumbTip = JointName(rawValue: "VNHLKTTIP")
        /// The index finger's knuckle.
        public static let indexMCP = JointName(rawValue: "VNHLKIMCP")
        /// The index finger's middle joint.
        public static let indexPIP = JointName(rawValue: "VNHLKIPIP")
        /// The index finger's end joint.
        public static let indexDIP = JointName(rawValue: "VNHLKIDIP")
        /// The index finger's tip.
        public static let indexTip = JointName(rawValue: "VNHLKITIP")
        /// The middle finger's knuckle.
        public static let middleMCP = JointName(rawValue: "VNHLKMMCP")
        /// The middle finger's middle joint.
        public static let middlePIP = JointName(rawValue: "VNHLKMPIP")
        /// The middle finger's end joint.
        public static let middleDIP = JointName(rawValue: "VNHLKMDIP")
        /// The middle finger's tip.
        public static let middleTip = JointName(rawValue: "VNHLKMTIP")
        /// The ring finger's knuckle.
        public static let ringMCP = JointName(rawValue: "VNHLKRMCP")
        /// The ring finger's middle joint.
        public static let ringPIP = JointName(rawValue: "VNHLKRPIP")
        /// The ring finger's end joint.
        public static let ringDIP = JointName(rawValue: "VNHLKRDIP")
        /// The ring finger's tip.
        public static let ringTip = JointName(rawValue: "VNHLKRTIP")
        /// The little finger's knuckle.
        public static let littleMCP = JointName(rawValue: "VNHLKPMCP")
        /// The little finger's middle joint.
        public static let littlePIP = JointName(rawValue: "VNHLKPPIP")
        /// The little finger's end joint.
        public static let littleDIP = JointName(rawValue: "VNHLKPDIP")
        /// The little finger's tip.
        public static let littleTip = JointName(rawValue: "VNHLKPTIP")

    }

    /// A group of hand joints, as Vision's `VNHumanHandPoseObservation.JointsGroupName`.
    public struct JointsGroupName: RawRepresentable, Hashable, Sendable {
        /// Vision's name of the group.
        public let rawValue: VNRecognizedPointGroupKey

        /// The group named `rawValue`.
        public init(rawValue: VNRecognizedPointGroupKey) {
            self.rawValue = rawValue
        }

        /// The thumb's four joints.
        public static let thumb = JointsGroupName(rawValue: "VNHLRKT")
        /// The index finger's four joints.
        public static let indexFinger = JointsGroupName(rawValue: "VNHLRKI")
        /// The middle finger's four joints.
        public static let middleFinger = JointsGroupName(rawValue: "VNHLRKM")
        /// The ring finger's four joints.
        public static let ringFinger = JointsGroupName(rawValue: "VNHLRKR")
        /// The little finger's four joints.
        public static let littleFinger = JointsGroupName(rawValue: "VNHLRKP")
        /// Every joint.
        public static let all = JointsGroupName(rawValue: "VNIPOAll")
    }

    /// The 21 joints in MediaPipe's order, that of ``HumanHandPoseObservation/JointName``'s cases.
    public static let jointNames: [JointName] = [
        .wrist, .thumbCMC, .thumbMP, .thumbIP, .thumbTip, .indexMCP, .indexPIP, .indexDIP, .indexTip, .middleMCP,
        .middlePIP, .middleDIP, .middleTip, .ringMCP, .ringPIP, .ringDIP, .ringTip, .littleMCP, .littlePIP, .littleDIP,
        .littleTip,
    ]

    /// Each group with its joints: the four of each finger after the wrist, in order, then all.
    public static let jointsGroups: [(name: JointsGroupName, joints: [JointName])] =
        [JointsGroupName.thumb, .indexFinger, .middleFinger, .ringFinger, .littleFinger].enumerated().map { finger, name in
            (name, Array(jointNames[1 + 4 * finger..<5 + 4 * finger]))
        } + [(.all, jointNames)]

    /// Which hand it is: the subject's, taking the image as a back camera's (unmirrored).
    public let chirality: VNChirality

    /// The hand ``DetectHumanHandPoseRequest`` found, under its `uuid`.
    init(_ hand: HumanHandPoseObservation) {
        chirality = switch hand.chirality {
        case .left: .left
        case .right: .right
        case .unknown: .unknown
        }
        let joints = HumanHandPoseObservation.JointName.allCases.map { hand.joint(for: $0).map { ($0.location, $0.confidence) } }
        super.init(uuid: hand.uuid, confidence: hand.confidence, points: Self.points(joints), groups: Self.groupKeys)
    }
}
