/// An analysis that an ``ImageRequestHandler`` performs on an image, as Vision's `VNRequest`.
///
/// A request keeps the results of its last run, so requests are classes and are not `Sendable`:
/// use each one from one thread at a time.
public protocol VisionRequest: AnyObject {
    /// Runs the request on `image` (results in its upright pixels), replacing the results.
    func perform(on image: VisionImage) throws
}
