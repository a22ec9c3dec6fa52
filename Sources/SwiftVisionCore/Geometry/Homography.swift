import CVisionShim
import Foundation

/// A plane-to-plane perspective mapping: a 3×3 matrix acting on (x, y, 1).
public struct Homography: Sendable, Equatable {
    /// The nine elements, row by row.
    public let elements: [Double]

    /// The mapping given by nine row-major elements.
    public init(elements: [Double]) {
        precondition(elements.count == 9, "a homography has 9 elements")
        self.elements = elements
    }

    /// The mapping that takes each corner of `source` onto the same corner of `destination`.
    public init(from source: Quadrilateral, to destination: Quadrilateral) throws {
        let from = source.corners.flatMap { [Double($0.x), Double($0.y)] }
        let to = destination.corners.flatMap { [Double($0.x), Double($0.y)] }
        var elements = [Double](repeating: 0, count: 9)
        try shimCall { sv_perspective_transform(from, to, &elements) }
        guard elements.allSatisfy(\.isFinite) else {
            throw ImageError.invalidRegion("the quadrilateral \(source) is degenerate")
        }
        self.init(elements: elements)
    }

    /// Where `point` lands.
    public func apply(to point: CGPoint) -> CGPoint {
        let e = elements, x = Double(point.x), y = Double(point.y)
        let w = e[6] * x + e[7] * y + e[8]
        return CGPoint(x: (e[0] * x + e[1] * y + e[2]) / w, y: (e[3] * x + e[4] * y + e[5]) / w)
    }
}
