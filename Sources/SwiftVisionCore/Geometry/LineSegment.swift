import CVisionShim

/// A straight piece of edge between two points, in pixels.
package struct LineSegment: Sendable, Equatable {
    package var start: SIMD2<Double>
    package var end: SIMD2<Double>

    package init(start: SIMD2<Double>, end: SIMD2<Double>) {
        self.start = start
        self.end = end
    }

    package var length: Double { ((end - start) * (end - start)).sum().squareRoot() }
    /// The unit vector from start to end.
    package var direction: SIMD2<Double> { (end - start) / length }

    /// The signed distance of `point` from the line through the segment (positive to the right of its direction).
    package func offset(of point: SIMD2<Double>) -> Double {
        let d = direction, v = point - start
        return v.x * d.y - v.y * d.x
    }

    /// How far along the segment's line `point` projects, from `start`.
    package func position(of point: SIMD2<Double>) -> Double {
        ((point - start) * direction).sum()
    }

    /// The point where the lines through this segment and `other` cross, or nil when they are parallel.
    package func intersection(with other: LineSegment) -> SIMD2<Double>? {
        let r = end - start, s = other.end - other.start
        let cross = r.x * s.y - r.y * s.x
        guard abs(cross) > 1e-9 else { return nil }
        let q = other.start - start
        return start + r * ((q.x * s.y - q.y * s.x) / cross)
    }
}

extension PixelBuffer {
    /// Straight edge segments of a gray buffer (the LSD line segment detector, with OpenCV's default settings).
    package func lineSegments() throws -> [LineSegment] {
        var values: UnsafeMutablePointer<Float>?
        var count: Int32 = 0
        try withView { view in try shimCall { sv_line_segments(view, &values, &count) } }
        defer { sv_free(values) }
        return (0..<Int(count)).map { index in
            let v = values! + 4 * index
            return LineSegment(start: SIMD2(Double(v[0]), Double(v[1])), end: SIMD2(Double(v[2]), Double(v[3])))
        }
    }
}
