import CVisionShim
import Foundation

/// A closed outline through whole pixel positions, such as a contour traced in an edge map.
package struct PixelPolygon: Sendable, Equatable {
    package var points: [SIMD2<Int32>]

    /// The convex hull, counter-clockwise on the screen (OpenCV's clockwise, which takes the y axis up).
    package func convexHull() throws -> PixelPolygon {
        try transformed { input, count, output, written in sv_convex_hull(input, count, output, written) }
    }

    /// A polygon with fewer vertices that stays within `epsilon` pixels of this one (Douglas–Peucker).
    package func simplified(epsilon: Double) throws -> PixelPolygon {
        try transformed { input, count, output, written in sv_approximate_polygon(input, count, epsilon, output, written) }
    }

    /// The smallest upright rectangle holding every point (a point spans one pixel); null when empty.
    package var bounds: CGRect {
        Self.bounds(of: points)
    }

    /// The smallest upright rectangle holding every one of `points` (a point spans one pixel); null when empty.
    static func bounds<Points: Sequence<SIMD2<Int32>>>(of points: Points) -> CGRect {
        var iterator = points.makeIterator()
        guard var lower = iterator.next() else { return .null }
        var upper = lower
        while let point = iterator.next() {
            lower = pointwiseMin(lower, point)
            upper = pointwiseMax(upper, point)
        }
        return CGRect(x: Int(lower.x), y: Int(lower.y), width: Int(upper.x - lower.x) + 1, height: Int(upper.y - lower.y) + 1)
    }

    /// The enclosed area (shoelace formula).
    package var area: Double {
        abs(points.indices.reduce(0.0) { total, index in
            let a = SIMD2<Double>(points[index]), b = SIMD2<Double>(points[(index + 1) % points.count])
            return total + a.x * b.y - b.x * a.y
        }) / 2
    }

    /// The length of the closed outline.
    package var perimeter: Double {
        points.indices.reduce(0) { total, index in
            let a = SIMD2<Double>(points[index]), b = SIMD2<Double>(points[(index + 1) % points.count])
            let step = b - a
            return total + (step * step).sum().squareRoot()
        }
    }

    private func transformed(
        _ body: (UnsafePointer<Int32>, Int32, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32
    ) throws -> PixelPolygon {
        guard !points.isEmpty else { return self }
        // Written in place, never zeroed or copied: the shim writes `written` points, at most as many as it is given.
        let output = try [SIMD2<Int32>](unsafeUninitializedCapacity: points.count) { output, initialized in
            var written: Int32 = 0
            try points.withUnsafeBufferPointer { input in
                try input.withMemoryRebound(to: Int32.self) { input in
                    try output.withMemoryRebound(to: Int32.self) { output in
                        try shimCall { body(input.baseAddress!, Int32(points.count), output.baseAddress!, &written) }
                    }
                }
            }
            initialized = Int(written)
        }
        return PixelPolygon(points: output)
    }
}

extension PixelBuffer {
    /// The outlines of the non-zero regions of a gray buffer: all of them, outer and inner, or with
    /// `outerOnly` only the outermost (no hole's outline, and nothing inside a hole), which traces far
    /// fewer pixels in a busy edge map. With `isKept`, only the outlines for which it is true given their
    /// ``PixelPolygon/bounds`` and point count, tested before any is copied (a busy map has thousands of small ones).
    package func contours(
        outerOnly: Bool = false, keeping isKept: ((_ bounds: CGRect, _ pointCount: Int) -> Bool)? = nil
    ) throws -> [PixelPolygon] {
        var points: UnsafeMutablePointer<Int32>?
        var lengths: UnsafeMutablePointer<Int32>?
        var count: Int32 = 0
        try withView { view in try shimCall { sv_find_contours(view, outerOnly ? 1 : 0, &points, &lengths, &count) } }
        defer {
            sv_free(points)
            sv_free(lengths)
        }
        var result: [PixelPolygon] = []
        var offset = 0
        for index in 0..<Int(count) {
            let length = Int(lengths![index])
            defer { offset += length }
            let outline = (points! + 2 * offset).withMemoryRebound(to: SIMD2<Int32>.self, capacity: length) { start in
                let vertices = UnsafeBufferPointer(start: start, count: length)
                if let isKept, !isKept(PixelPolygon.bounds(of: vertices), length) { return nil as PixelPolygon? }
                return PixelPolygon(points: Array(vertices))
            }
            if let outline { result.append(outline) }
        }
        return result
    }
}
