import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// How hard the face requests look for faces.
public enum FacePerformanceMode: Sendable, Hashable, CaseIterable {
    /// The short-range model on the whole image: faces within about 2 m.
    case fast
    /// The full-range model, then a closer look (tiles) where it leaves doubt: the small faces of group photos.
    case accurate
}

/// Finds face rectangles, as Vision's `DetectFaceRectanglesRequest`. In a ``SequenceRequestHandler``
/// faces are tracked from frame to frame and carry tracking IDs.
public struct DetectFaceRectanglesRequest: FaceRequest {
    /// `.accurate` (default, as Vision) looks closer (tiles) for small faces; `.fast` looks for near faces only.
    public var performanceMode: FacePerformanceMode = .accurate
    /// Most faces to report, the most confident first.
    public var maximumObservations = 20
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?
    /// What the request produces: the faces, the most confident first.
    public typealias Result = [FaceObservation]
    /// False: rectangles only, without landmark regions or mesh.
    public static let includesLandmarks = false

    /// A request in accurate mode for at most 20 faces.
    public init() {}
}

/// Finds faces with their landmark regions, pupils and mesh, as Vision's `DetectFaceLandmarksRequest`.
/// In a ``SequenceRequestHandler`` the mesh follows each face from frame to frame.
public struct DetectFaceLandmarksRequest: FaceRequest {
    /// `.accurate` (default, as Vision) looks closer (tiles) for small faces; `.fast` looks for near faces only.
    public var performanceMode: FacePerformanceMode = .accurate
    /// Most faces to report, the most confident first.
    public var maximumObservations = 20
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?
    /// What the request produces: the faces, the most confident first.
    public typealias Result = [FaceObservation]
    /// True: landmark regions, pupils and the face mesh as well as rectangles.
    public static let includesLandmarks = true

    /// A request in accurate mode for at most 20 faces.
    public init() {}
}

/// What the face requests share: their options and how they run on images and frames.
public protocol FaceRequest: TaskBackedRequest where Result == [FaceObservation], Job == FacesTask {
    /// `.accurate` (default, as Vision) looks closer (tiles) for small faces; `.fast` looks for near faces only.
    var performanceMode: FacePerformanceMode { get set }
    /// Most faces to report.
    var maximumObservations: Int { get set }
    /// Whether the request finds landmarks as well as rectangles.
    static var includesLandmarks: Bool { get }
}

extension FaceRequest {
    /// The faces task's options: the mode, the limit, and landmarks with the mesh for the landmarks request.
    public var taskOptions: FacesTask.Options {
        var options = FacesTask.Options()
        options.fast = performanceMode == .fast
        options.maxFaces = maximumObservations
        options.landmarks = Self.includesLandmarks
        options.mesh = Self.includesLandmarks
        return options
    }

    /// The faces of the output, the most confident first.
    public func results(from output: FacesTask.Output, imageSize: CGSize) -> [FaceObservation] {
        output.faces.map { FaceObservation($0, imageSize: imageSize) }
    }
}
