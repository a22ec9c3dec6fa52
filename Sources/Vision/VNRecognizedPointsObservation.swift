import Foundation
import SwiftVisionCore

/// The name of a recognised point, as Vision's `VNRecognizedPointKey`.
public typealias VNRecognizedPointKey = String
/// The name of a group of recognised points, as Vision's `VNRecognizedPointGroupKey`.
public typealias VNRecognizedPointGroupKey = String

/// A point in 0–1 of an image, origin at the lower left, as Vision's `VNPoint`.
open class VNPoint: @unchecked Sendable {
    /// The point.
    public let location: CGPoint

    /// The point at `location`.
    public init(location: CGPoint) {
        self.location = location
    }

    /// The point at (`x`, `y`).
    public convenience init(x: Double, y: Double) {
        self.init(location: CGPoint(x: x, y: y))
    }

    /// The point's x, 0–1 from the left.
    public var x: Double { location.x }
    /// The point's y, 0–1 from the bottom.
    public var y: Double { location.y }
}

/// A point that a request found, with its confidence, as Vision's `VNDetectedPoint`.
open class VNDetectedPoint: VNPoint, @unchecked Sendable {
    /// How sure the request is of the point, 0–1.
    public let confidence: VNConfidence

    init(location: CGPoint, confidence: VNConfidence) {
        self.confidence = confidence
        super.init(location: location)
    }
}

/// A point that a request found and named, as Vision's `VNRecognizedPoint`: a body or hand joint.
open class VNRecognizedPoint: VNDetectedPoint, @unchecked Sendable {
    /// The point's name, such as a joint name's raw value.
    public let identifier: VNRecognizedPointKey

    init(identifier: VNRecognizedPointKey, location: CGPoint, confidence: VNConfidence) {
        self.identifier = identifier
        super.init(location: location, confidence: confidence)
    }
}

/// Named points in groups, as Vision's `VNRecognizedPointsObservation`: the base of the body and hand
/// pose observations, whose joint names and group names are these keys.
open class VNRecognizedPointsObservation: VNObservation, @unchecked Sendable {
    /// Every point by name.
    private let points: [VNRecognizedPointKey: VNRecognizedPoint]
    /// The names of the points, in the model's order.
    public let availableKeys: [VNRecognizedPointKey]
    /// The groups and the names of their points, in order.
    private let groups: [(key: VNRecognizedPointGroupKey, members: [VNRecognizedPointKey])]

    init(
        uuid: UUID, confidence: VNConfidence, points: [VNRecognizedPoint],
        groups: [(key: VNRecognizedPointGroupKey, members: [VNRecognizedPointKey])]
    ) {
        self.points = Dictionary(uniqueKeysWithValues: points.map { ($0.identifier, $0) })
        availableKeys = points.map(\.identifier)
        self.groups = groups
        super.init(uuid: uuid, confidence: confidence)
    }

    /// The names of the groups of points.
    public var availableGroupKeys: [VNRecognizedPointGroupKey] { groups.map(\.key) }

    /// The point named `pointKey`; throws ``VNErrorCode/invalidArgument`` for a name the observation lacks.
    public func recognizedPoint(forKey pointKey: VNRecognizedPointKey) throws -> VNRecognizedPoint {
        guard let point = points[pointKey] else {
            throw NSError.vision(.invalidArgument, "no point named \(pointKey); available: \(availableKeys)")
        }
        return point
    }

    /// The points of the group `groupKey` by name; throws ``VNErrorCode/invalidArgument`` for an unknown group.
    public func recognizedPoints(
        forGroupKey groupKey: VNRecognizedPointGroupKey
    ) throws -> [VNRecognizedPointKey: VNRecognizedPoint] {
        guard let group = groups.first(where: { $0.key == groupKey }) else {
            throw NSError.vision(.invalidArgument, "no group of points named \(groupKey); available: \(availableGroupKeys)")
        }
        return try Dictionary(uniqueKeysWithValues: group.members.map { ($0, try recognizedPoint(forKey: $0)) })
    }
}

extension Dictionary {
    /// The dictionary with each key made into `transform(key)`; the keys stay distinct.
    func mapKeys<Other: Hashable>(_ transform: (Key) -> Other) -> [Other: Value] {
        Dictionary<Other, Value>(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}

/// What the body and hand pose observations share, as Vision gives each of them: joints named by
/// `JointName` in groups named by `JointsGroupName`, over the points of a ``VNRecognizedPointsObservation``.
public protocol VNJointsObservation: VNRecognizedPointsObservation {
    /// The name of a joint.
    associatedtype JointName: RawRepresentable<VNRecognizedPointKey> & Hashable
    /// The name of a group of joints.
    associatedtype JointsGroupName: RawRepresentable<VNRecognizedPointGroupKey>
    /// Every joint, in the order of the Swift-style observation's joint names.
    static var jointNames: [JointName] { get }
    /// Each group with its joints.
    static var jointsGroups: [(name: JointsGroupName, joints: [JointName])] { get }
}

extension VNJointsObservation {
    /// The joint `jointName`.
    public func recognizedPoint(_ jointName: JointName) throws -> VNRecognizedPoint {
        try recognizedPoint(forKey: jointName.rawValue)
    }

    /// The joints of the group `jointsGroupName` by name.
    public func recognizedPoints(_ jointsGroupName: JointsGroupName) throws -> [JointName: VNRecognizedPoint] {
        try recognizedPoints(forGroupKey: jointsGroupName.rawValue).mapKeys { JointName(rawValue: $0)! }
    }

    /// The names of the joints the observation has.
    public var availableJointNames: [JointName] { availableKeys.compactMap(JointName.init) }
    /// The names of the groups of joints.
    public var availableJointsGroupNames: [JointsGroupName] { availableGroupKeys.compactMap(JointsGroupName.init) }

    /// The points of the joints found, from their locations in ``jointNames``' order (nil for a joint
    /// not found).
    static func points(_ joints: [(location: CGPoint, confidence: VNConfidence)?]) -> [VNRecognizedPoint] {
        zip(jointNames, joints).compactMap { name, joint in
            joint.map { VNRecognizedPoint(identifier: name.rawValue, location: $0.location, confidence: $0.confidence) }
        }
    }

    /// The groups by their keys.
    static var groupKeys: [(key: VNRecognizedPointGroupKey, members: [VNRecognizedPointKey])] {
        jointsGroups.map { ($0.name.rawValue, $0.joints.map(\.rawValue)) }
    }
}
