import CVisionShim

/// The local maxima of a gray image's gradient classified against a pair of Canny thresholds, not yet
/// traced into edges: what ``PixelBuffer/fastCannyEdges(low:high:later:)`` keeps for its second pair.
package struct CannyMaxima: Sendable {
    /// A byte for each pixel of the image and of a border of one pixel around it: bits 2 and 3 say whether
    /// the pixel is a local maximum above the pair's low and high threshold.
    let classes: PixelBuffer

    /// The pair's Canny edges, 255 on edges and 0 elsewhere: pixel for pixel what
    /// ``PixelBuffer/fastCannyEdges(low:high:)`` gives for it.
    package func edges() throws -> PixelBuffer {
        try PixelBuffer.make(format: .gray, width: classes.width - 2, height: classes.height - 2) { destination in
            try classes.withView { view in try shimCall { sv_trace_canny(view, destination) } }
        }
    }
}
