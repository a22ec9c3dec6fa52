import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Finds human hands and their joints, as Vision's `DetectHumanHandPoseRequest`, on MediaPipe's palm
/// detector and hand landmark model. In a ``SequenceRequestHandler`` each hand's landmarks place its
/// next frame's crop.
public struct DetectHumanHandPoseRequest: TaskBackedRequest {
    /// Most hands to report; 2 by default, as Vision.
    public var maximumHandCount = 2
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?

    /// The task the request runs.
    public typealias Job = HandsTask
    /// What the request produces: the hands found.
    public typealias Result = [HumanHandPoseObservation]

    /// A request for up to two hands.
    public init() {}

    /// The hands task's options for the request.
    public var taskOptions: HandsTask.Options {
        var options = HandsTask.Options()
        options.maxHands = maximumHandCount
        return options
    }

    /// The hands of the output.
    public func results(from output: HandsTask.Output, imageSize: CGSize) -> [HumanHandPoseObservation] {
        output.hands.map { HumanHandPoseObservation($0, imageSize: imageSize) }
    }
}

/// A hand found by ``DetectHumanHandPoseRequest`` (Vision's `HumanHandPoseObservation`): Vision's 21
/// joints, in Vision's normalised coordinates (lower-left origin).
public struct HumanHandPoseObservation: VisionObservation, Equatable {
    /// Vision's hand joints: the wrist, then the thumb and each finger from the palm to the tip (MediaPipe's
    /// 21 landmarks, in its order).
    public enum JointName: String, Sendable, CaseIterable, Hashable {
        /// The wrist.
        case wrist
        /// The thumb: carpometacarpal, metacarpophalangeal and interphalangeal joints, and the tip.
        case thumbCMC, thumbMP, thumbIP, thumbTip
        /// The index finger: knuckle, middle and end joints, and the tip.
        case indexMCP, indexPIP, indexDIP, indexTip
        /// The middle finger.
        case middleMCP, middlePIP, middleDIP, middleTip
        /// The ring finger.
        case ringMCP, ringPIP, ringDIP, ringTip
        /// The little finger.
        case littleMCP, littlePIP, littleDIP, littleTip
    }

    /// Which hand (Vision's `HumanHandPoseObservation.Chirality`).
    public enum Chirality: String, Sendable, Hashable {
        /// The subject's left hand.
        case left
        /// The subject's right hand.
        case right
        /// Not known.
        case unknown
    }

    /// One joint (Vision's `Joint`).
    public struct Joint: Sendable, Equatable {
        /// Which joint.
        public let jointName: JointName
        /// Where it is, in 0…1 of the image, origin at the lower left.
        public let location: CGPoint
        /// The landmark model's confidence in the joint, 0–1: its hand flag, as the model gives no
        /// confidence per joint.
        public let confidence: Float
    }

    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// The landmark model's confidence that the hand is there, 0–1.
    public let confidence: Float
    /// The subject's hand, taking the image as a back camera's (unmirrored): MediaPipe labels hands as
    /// seen in a mirror, so its `Left` is the subject's right hand.
    public let chirality: Chirality
    /// The box around the hand's landmarks in 0…1 of the image, origin at the lower left.
    public let boundingBox: CGRect
    /// Every joint by name.
    public let joints: [JointName: Joint]

    init(_ hand: HandResult, imageSize: CGSize) {
        uuid = UUID()
        confidence = hand.score
        chirality = hand.handedness == .left ? .right : .left
        boundingBox = hand.boundingBox.rect.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: imageSize)
        joints = Dictionary(uniqueKeysWithValues: zip(JointName.allCases, hand.landmarks).map { name, landmark in
            let location = landmark.point.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: imageSize)
            return (name, Joint(jointName: name, location: location, confidence: hand.score))
        })
    }

    /// The joint `name` (Vision's `joint(for:)`).
    public func joint(for name: JointName) -> Joint? {
        joints[name]
    }

    /// The names of the joints the observation has (Vision's `availableJointNames`): all 21.
    public var availableJointNames: [JointName] { JointName.allCases }
}
