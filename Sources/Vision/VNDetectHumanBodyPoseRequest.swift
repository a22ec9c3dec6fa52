import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// Finds a human body and its joints, as Vision's `VNDetectHumanBodyPoseRequest`, with the engine of
/// ``DetectHumanBodyPoseRequest`` (BlazePose); its results are ``VNHumanBodyPoseObservation``s. In a
/// ``VNSequenceRequestHandler`` the joints of one frame place the next frame's crop.
public final class VNDetectHumanBodyPoseRequest: VNImageBasedRequest {
    /// The joints an observation has, as Vision's `supportedJointNames()`.
    public func supportedJointNames() throws -> [VNHumanBodyPoseObservation.JointName] {
        VNHumanBodyPoseObservation.jointNames
    }

    /// The groups of joints an observation has, as Vision's `supportedJointsGroupNames()`.
    public func supportedJointsGroupNames() throws -> [VNHumanBodyPoseObservation.JointsGroupName] {
        VNHumanBodyPoseObservation.jointsGroups.map(\.name)
    }

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        try results(of: DetectHumanBodyPoseRequest(), on: imageInRegionOfInterest(image), sequence: sequence).map(VNHumanBodyPoseObservation.init)
    }
}

/// A body's joints, as Vision's `VNHumanBodyPoseObservation`: Vision's 19 joints in 0–1 of the image,
/// origin at the lower left, each with BlazePose's visibility as its confidence.
public final class VNHumanBodyPoseObservation: VNRecognizedPointsObservation, VNJointsObservation, @unchecked Sendable {
    /// A body joint, as Vision's `VNHumanBodyPoseObservation.JointName`, with Vision's raw values; left
    /// and right are the subject's.
    public struct JointName: RawRepresentable, Hashable, Sendable {
        /// Vision's name of the joint, such as `left_shoulder_1_joint`.
        public let rawValue: VNRecognizedPointKey

        /// The joint named `rawValue`.
        public init(rawValue: VNRecognizedPointKey) {
            self.rawValue = rawValue
        }

        /// The nose.
        public static let nose = JointName(rawValue: "head_joint")
        /// The left eye.
        public static let leftEye = JointName(rawValue: "left_eye_joint")
        /// The right eye.
        public static let rightEye = JointName(rawValue: "right_eye_joint")
        /// The left ear.
        public static let leftEar = JointName(rawValue: "left_ear_joint")
        /// The right ear.
        public static let rightEar = JointName(rawValue: "right_ear_joint")
        /// The neck: midway between the shoulders.
        public static let neck = JointName(rawValue: "neck_1_joint")
        /// The left shoulder.
        public static let leftShoulder = JointName(rawValue: "left_shoulder_1_joint")
        /// The right shoulder.
        public static let rightShoulder = JointName(rawValue: "right_shoulder_1_joint")
        /// The left elbow.
        public static let leftElbow = JointName(rawValue: "left_forearm_joint")
        /// The right elbow.
        public static let rightElbow = JointName(rawValue: "right_forearm_joint")
        /// The left wrist.
        public static let leftWrist = JointName(rawValue: "left_hand_joint")
        /// The right wrist.
        public static let rightWrist = JointName(rawValue: "right_hand_joint")
        /// The root: midway between the hips.
        public static let root = JointName(rawValue: "root")
        /// The left hip.
        public static let leftHip = JointName(rawValue: "left_upLeg_joint")
        /// The right hip.
        public static let rightHip = JointName(rawValue: "right_upLeg_joint")
        /// The left knee.
        public static let leftKnee = JointName(rawValue: "left_leg_joint")
        /// The right knee.
        public static let rightKnee = JointName(rawValue: "right_leg_joint")
        /// The left ankle.
        public static let leftAnkle = JointName(rawValue: "left_foot_joint")
        /// The right ankle.
        public static let rightAnkle = JointName(rawValue: "right_foot_joint")

    }

    /// A group of body joints, as Vision's `VNHumanBodyPoseObservation.JointsGroupName`.
    public struct JointsGroupName: RawRepresentable, Hashable, Sendable {
        /// Vision's name of the group.
        public let rawValue: VNRecognizedPointGroupKey

        /// The group named `rawValue`.
        public init(rawValue: VNRecognizedPointGroupKey) {
            self.rawValue = rawValue
        }

        /// The nose, eyes and ears.
        public static let face = JointsGroupName(rawValue: "VNBLKFACE")
        /// The neck, shoulders, root and hips.
        public static let torso = JointsGroupName(rawValue: "VNBLKTORSO")
        /// The left shoulder, elbow and wrist.
        public static let leftArm = JointsGroupName(rawValue: "VNBLKLARM")
        /// The right shoulder, elbow and wrist.
        public static let rightArm = JointsGroupName(rawValue: "VNBLKRARM")
        /// The left hip, knee and ankle.
        public static let leftLeg = JointsGroupName(rawValue: "VNBLKLLEG")
        /// The right hip, knee and ankle.
        public static let rightLeg = JointsGroupName(rawValue: "VNBLKRLEG")
        /// Every joint.
        public static let all = JointsGroupName(rawValue: "VNIPOAll")
    }

    /// The 19 joints, in the order of ``HumanBodyPoseObservation/JointName``'s cases.
    public static let jointNames: [JointName] = [
        .nose, .leftEye, .rightEye, .leftEar, .rightEar, .neck, .leftShoulder, .rightShoulder, .leftElbow, .rightElbow,
        .leftWrist, .rightWrist, .root, .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
    ]

    /// Each group with its joints.
    public static let jointsGroups: [(name: JointsGroupName, joints: [JointName])] = [
        (.face, [.nose, .leftEye, .rightEye, .leftEar, .rightEar]),
        (.torso, [.neck, .leftShoulder, .rightShoulder, .root, .leftHip, .rightHip]),
        (.leftArm, [.leftShoulder, .leftElbow, .leftWrist]), (.rightArm, [.rightShoulder, .rightElbow, .rightWrist]),
        (.leftLeg, [.leftHip, .leftKnee, .leftAnkle]), (.rightLeg, [.rightHip, .rightKnee, .rightAnkle]),
        (.all, jointNames),
    ]

    /// The body ``DetectHumanBodyPoseRequest`` found, under its `uuid`.
    init(_ body: HumanBodyPoseObservation) {
        let joints = HumanBodyPoseObservation.JointName.allCases.map { body.joint(for: $0).map { ($0.location, $0.confidence) } }
        super.init(uuid: body.uuid, confidence: body.confidence, points: Self.points(joints), groups: Self.groupKeys)
    }
}
