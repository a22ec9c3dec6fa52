import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// What every observation of a Vision-style request has, as Vision's `VNObservation`.
public protocol VisionObservation: Sendable, Identifiable where ID == UUID {
    /// Identifies the observation (Vision's `uuid`): made when the observation is made, new for each
    /// one, and kept by its copies.
    var uuid: UUID { get }
    /// How sure the request is of the observation, 0–1.
    var confidence: Float { get }
}

extension VisionObservation {
    /// The observation's ``uuid``.
    public var id: UUID { uuid }
}
