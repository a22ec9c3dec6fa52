import Foundation

/// Four corners of a shape such as a document seen in perspective, in one coordinate space.
public struct Quadrilateral: Sendable, Equatable, Codable {
    /// The top-left corner.
    public var topLeft: CGPoint
    /// The top-right corner.
    public var topRight: CGPoint
    /// The bottom-right corner.
    public var bottomRight: CGPoint
    /// The bottom-left corner.
    public var bottomLeft: CGPoint

    /// A quadrilateral with the given corners.
    public init(topLeft: CGPoint, topRight: CGPoint, bottomRight: CGPoint, bottomLeft: CGPoint) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The corners of `rect`, with "top" at its smaller y.
    public init(rect: CGRect) {
        self.init(
            topLeft: CGPoint(x: rect.minX, y: rect.minY), topRight: CGPoint(x: rect.maxX, y: rect.minY),
            bottomRight: CGPoint(x: rect.maxX, y: rect.maxY), bottomLeft: CGPoint(x: rect.minX, y: rect.maxY))
    }

    /// Corners in drawing order: top left, top right, bottom right, bottom left.
    public var corners: [CGPoint] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The smallest upright rectangle that holds all corners.
    public var boundingBox: CGRect { corners.boundingBox }

    /// The quadrilateral, given in `space` of an image of `imageSize`, expressed in `target`.
    /// Corner names keep their meaning; only the coordinates change.
    public func converted(from space: CoordinateSpace, to target: CoordinateSpace, imageSize: CGSize) -> Quadrilateral {
        applying { $0.converted(from: space, to: target, imageSize: imageSize) }
    }
}
