import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// Called when a request has been performed, with the request (its ``VNRequest/results`` set) and its
/// error, as Vision's `VNRequestCompletionHandler`.
public typealias VNRequestCompletionHandler = (VNRequest, (any Error)?) -> Void
/// A width over height, as Vision's `VNAspectRatio`.
public typealias VNAspectRatio = Float
/// Speed against precision of a tracker, as Vision's `VNRequestTrackingLevel`: `.fast` (the default) or `.accurate`.
public typealias VNRequestTrackingLevel = TrackTask.Level

/// An analysis that a ``VNImageRequestHandler`` or a ``VNSequenceRequestHandler`` performs, as Vision's
/// `VNRequest`. Each `VN…` request is a shell over the Swift-style request of the same name (Vision's
/// names since iOS 18), so both run the same code.
///
/// As Swift cannot narrow an inherited property's type, ``results`` is `[VNObservation]?` on every
/// request: cast it (`request.results as? [VNRectangleObservation]`), as code for iOS 14 and earlier does.
open class VNRequest {
    /// Called each time a handler has performed the request.
    public let completionHandler: VNRequestCompletionHandler?
    /// The observations of the last perform; nil before it, or when it failed.
    public internal(set) var results: [VNObservation]?
    /// The version of Vision's algorithm the request asks for, as Vision's `revision`; the newest by
    /// default. Every revision in ``supportedRevisions`` runs SwiftVision's one engine; another fails the
    /// request with ``VNErrorCode/unsupportedRevision``.
    public lazy var revision = type(of: self).defaultRevision
    /// Whether the request may run at a lower priority, as Vision's `preferBackgroundProcessing`; false by
    /// default. A hint Vision may ignore, and so does SwiftVision: a request runs on the thread that performs it.
    public var preferBackgroundProcessing = false
    /// Whether the request must run on the CPU alone, as Vision's `usesCPUOnly` (deprecated in iOS 17);
    /// false by default. Every request here runs on the CPU, whichever it is.
    public var usesCPUOnly = false

    /// Vision's revisions of the request (its `…Revision1` constants and on), as Vision's
    /// `supportedRevisions`: `[1]` unless a request has more.
    open class var supportedRevisions: IndexSet { [1] }
    /// The revision a new request asks for: the newest.
    open class var defaultRevision: Int { supportedRevisions.last ?? 1 }
    /// The newest revision.
    open class var currentRevision: Int { supportedRevisions.last ?? 1 }

    /// A request that calls `completionHandler` each time it has been performed.
    public init(completionHandler: VNRequestCompletionHandler? = nil) {
        self.completionHandler = completionHandler
    }

    /// The observations in `image`; in a sequence, its next frame. Each request overrides it.
    func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        []
    }

    /// Performs the request, sets ``results`` and calls the completion handler; returns the error, as
    /// Vision's `NSError` (``VNErrorDomain``), which the completion handler gets too.
    func perform(on image: Result<VisionImage, any Error>, sequence: SequenceRequestHandler?) -> NSError? {
        do {
            guard type(of: self).supportedRevisions.contains(revision) else {
                throw NSError.vision(.unsupportedRevision, "revision \(revision) of \(type(of: self)) is not supported")
            }
            results = try observations(in: image.get(), sequence: sequence)
            completionHandler?(self, nil)
            return nil
        } catch {
            let error = NSError.vision(error)
            results = nil
            completionHandler?(self, error)
            return error
        }
    }

    /// The results of the Swift-style `request` on `image`: in a sequence, its next frame, so that the
    /// request's state (tracks, crops, mask smoothing) carries from frame to frame.
    func results<Request: SequenceVisionRequest>(
        of request: Request, on image: VisionImage, sequence: SequenceRequestHandler?
    ) throws -> Request.Result {
        try sequence.map { try $0.perform(request, on: image) } ?? request.perform(on: image)
    }
}

/// A request on one image or part of it, as Vision's `VNImageBasedRequest`.
open class VNImageBasedRequest: VNRequest {
    /// The part of the image to analyse, in 0–1 of the image, origin at the lower left; the whole image by default.
    public var regionOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)

    /// The part of `image` inside ``regionOfInterest``: every request analyses only it, and its results
    /// are normalised to it, as Vision's are (``VNImageRectForNormalizedRectUsingRegionOfInterest(_:_:_:_:)``
    /// takes them back to the image).
    func imageInRegionOfInterest(_ image: VisionImage) throws -> VisionImage {
        try image.region(ofInterest: regionOfInterest).image
    }
}

/// Finds rectangles, as Vision's `VNDetectRectanglesRequest`; its results are ``VNRectangleObservation``s.
public final class VNDetectRectanglesRequest: VNImageBasedRequest {
    /// Smallest width over height to report; Vision's default 0.5.
    public var minimumAspectRatio: VNAspectRatio = 0.5
    /// Largest width over height to report; 1 by default.
    public var maximumAspectRatio: VNAspectRatio = 1
    /// Most degrees a corner may differ from 90; Vision's default 30.
    public var quadratureTolerance: Float = 30
    /// Smallest size, as a fraction of the image's shorter side; Vision's default 0.2.
    public var minimumSize: Float = 0.2
    /// Lowest confidence to report; Vision's default 0.
    public var minimumConfidence: VNConfidence = 0
    /// Most rectangles to report, 0 for all; Vision's default 1.
    public var maximumObservations = 1

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        var request = DetectRectanglesRequest()
        request.minimumAspectRatio = minimumAspectRatio
        request.maximumAspectRatio = maximumAspectRatio
        request.quadratureTolerance = quadratureTolerance
        request.minimumSize = minimumSize
        request.minimumConfidence = minimumConfidence
        request.maximumObservations = maximumObservations
        return try request.perform(on: imageInRegionOfInterest(image)).map(VNRectangleObservation.init)
    }
}

/// Finds faces, as Vision's `VNDetectFaceRectanglesRequest`; its results are ``VNFaceObservation``s. In a
/// ``VNSequenceRequestHandler`` faces are tracked from frame to frame.
public final class VNDetectFaceRectanglesRequest: VNImageBasedRequest {
    /// Vision's revisions 1 to 3, all served by the one engine.
    override public class var supportedRevisions: IndexSet { IndexSet(1...3) }

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        try results(of: DetectFaceRectanglesRequest(), on: imageInRegionOfInterest(image), sequence: sequence)
            .map(VNFaceObservation.init)
    }
}

/// Finds faces with their landmarks, as Vision's `VNDetectFaceLandmarksRequest`; its results are
/// ``VNFaceObservation``s with ``VNFaceObservation/landmarks``.
public final class VNDetectFaceLandmarksRequest: VNImageBasedRequest {
    /// Vision's revisions 1 to 3, all served by the one engine.
    override public class var supportedRevisions: IndexSet { IndexSet(1...3) }

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        try results(of: DetectFaceLandmarksRequest(), on: imageInRegionOfInterest(image), sequence: sequence)
            .map(VNFaceObservation.init)
    }
}

/// Follows an observation from frame to frame, as Vision's `VNTrackingRequest`: perform it with a
/// ``VNSequenceRequestHandler``, frame after frame, starting with the frame the observation belongs to.
/// Its result keeps the observation's `uuid`; set it as the next frame's ``inputObservation`` (or keep the
/// seed) to continue the track.
open class VNTrackingRequest: VNImageBasedRequest {
    /// The seed, or the previous frame's result.
    public var inputObservation: VNDetectedObjectObservation
    /// The tracker: `.fast` (OpenCV's KCF, Vision's default) or `.accurate` (CSRT).
    public var trackingLevel: VNRequestTrackingLevel = .fast
    /// Releases the tracker after this frame.
    public var isLastFrame = false

    init(inputObservation: VNDetectedObjectObservation, completionHandler: VNRequestCompletionHandler?) {
        self.inputObservation = inputObservation
        super.init(completionHandler: completionHandler)
    }

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        var request = TrackObjectRequest(detectedObjectObservation: inputObservation.seed)
        request.trackingLevel = trackingLevel
        request.isLastFrame = isLastFrame
        return [observation(try results(of: request, on: image, sequence: sequence))]
    }

    /// The tracker's result as this request reports it.
    func observation(_ tracked: DetectedObjectObservation) -> VNDetectedObjectObservation {
        VNDetectedObjectObservation(uuid: tracked.uuid, confidence: tracked.confidence, boundingBox: tracked.boundingBox)
    }
}

/// Follows an object, as Vision's `VNTrackObjectRequest`; its result is a ``VNDetectedObjectObservation``.
public final class VNTrackObjectRequest: VNTrackingRequest {
    /// Vision's revisions 1 to 2, all served by the one engine.
    override public class var supportedRevisions: IndexSet { IndexSet(1...2) }

    /// A request to follow `detectedObjectObservation` (a seed box, a rectangle or a face).
    public init(detectedObjectObservation: VNDetectedObjectObservation, completionHandler: VNRequestCompletionHandler? = nil) {
        super.init(inputObservation: detectedObjectObservation, completionHandler: completionHandler)
    }
}

/// Follows a rectangle, as Vision's `VNTrackRectangleRequest`; its result is a ``VNRectangleObservation``
/// whose corners are those of the tracked box.
public final class VNTrackRectangleRequest: VNTrackingRequest {
    /// A request to follow `rectangleObservation`, under its `uuid`.
    public init(rectangleObservation: VNRectangleObservation, completionHandler: VNRequestCompletionHandler? = nil) {
        super.init(inputObservation: rectangleObservation, completionHandler: completionHandler)
    }

    override func observation(_ tracked: DetectedObjectObservation) -> VNDetectedObjectObservation {
        let box = tracked.boundingBox
        return VNRectangleObservation(
            uuid: tracked.uuid, confidence: tracked.confidence,
            corners: Quadrilateral(
                topLeft: CGPoint(x: box.minX, y: box.maxY), topRight: CGPoint(x: box.maxX, y: box.maxY),
                bottomRight: CGPoint(x: box.maxX, y: box.minY), bottomLeft: CGPoint(x: box.minX, y: box.minY)))
    }
}
