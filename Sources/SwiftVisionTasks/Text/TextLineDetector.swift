import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// PaddleOCR's PP-OCRv4 mobile text detector (a Differentiable Binarization network, from the Apache-2.0 wheel
/// `rapidocr-onnxruntime` 1.4.4, converted by the model zoo): the lines of text in a photo, each as the corners of
/// a turned rectangle in upright pixels, post-processed as PaddleOCR's `DBPostProcess` with rapidocr's settings.
/// Safe to share: the interpreter runs inferences in parallel.
package struct TextLineDetector: Sendable {
    /// The model file in the cache. Its input is BGR, [1, H, W, 3], (x / 255 − 0.5) / 0.5, with H and W any
    /// multiples of 32; its output the probability that a pixel is text, [1, H, W, 1].
    package static let defaultModelName = "ppocr_v4_text_detection.tflite"

    /// The image is scaled so that its shorter side has this many pixels when it has fewer (rapidocr's
    /// `limit_side_len` 736 with `limit_type: min`).
    static let shortSide = 736.0
    /// The longest side the model is given, whatever the image: rapidocr leaves larger images at their size, which
    /// for a 12-megapixel photo is 12 times the work of an ICDAR photo (1312 × 736); here a photo is scaled down to
    /// this, so the detector's cost stays within 2.2 times that of an ICDAR photo.
    static let maximumSide = 1920.0
    /// A pixel is text where the model's probability exceeds this (PaddleOCR's and rapidocr's `thresh`).
    static let pixelThreshold: Float = 0.3
    /// A box is kept when the mean probability inside it reaches this (rapidocr's `box_thresh`).
    static let minimumBoxScore: Float = 0.5
    /// A box grows by its area × this ÷ its perimeter on every side, from the shrunk text kernel the network was
    /// trained to find to the text's extent (rapidocr's `unclip_ratio`).
    static let unclipRatio = 1.6
    /// Boxes whose shorter side is below this many pixels of the probability map are dropped, before growing (and
    /// below it + 2 after): PaddleOCR's `min_size`.
    static let minimumSide = 3.0
    /// At most this many regions are examined (PaddleOCR's `max_candidates`).
    static let maximumCandidates = 1000

    private let interpreter: Interpreter

    /// Loads the detector at `url` through `store`.
    init(url: URL, store: ModelStore) throws {
        interpreter = try store.interpreter(contentsOf: url, options: .default)
        let model = interpreter.model
        guard model.inputs.count == 1, model.inputs[0].elementType == .float32, model.inputs[0].shape.count == 4,
            model.inputs[0].shape[3] == 3, model.outputs.count == 1, model.outputs[0].elementType == .float32
        else {
            throw LiteRTError.incompatibleModel("\(url.lastPathComponent) is not a DB text detector ([1, H, W, 3] → [1, H, W, 1])")
        }
    }

    /// The model's input size for an image of `width` × `height`: the shorter side scaled up to ``shortSide``, the
    /// longer side down to ``maximumSide``, each rounded to a multiple of 32 (at least 32), as rapidocr rounds.
    static func inputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let (w, h) = (Double(width), Double(height))
        var ratio = min(w, h) < shortSide ? shortSide / min(w, h) : 1
        ratio = min(ratio, maximumSide / max(w, h))
        func rounded(_ side: Double) -> Int { max(32, Int(((side * ratio).rounded(.towardZero) / 32).rounded()) * 32) }
        return (rounded(w), rounded(h))
    }

    /// The lines of text in `image`, as the corners of turned rectangles in its upright pixels (top left, top
    /// right, bottom right, bottom left, as PaddleOCR orders them), in no particular order.
    func lines(in image: VisionImage) throws -> [Quadrilateral] {
        let (width, height) = Self.inputSize(width: image.width, height: image.height)
        let format = ImageTensorFormat(
            width: width, height: height, channelOrder: .bgr,
            elementType: .float32(.signedUnit))
        let probabilities = try interpreter.invoke(inputShapes: [[1, height, width, 3]]) { inputs in
            try image.write(into: inputs[0], format: format)
        } readingOutputs: { outputs in
            guard outputs[0].count == width * height * 4 else {
                throw LiteRTError.incompatibleModel("the text detector's output is not [1, \(height), \(width), 1]")
            }
            return Array(outputs[0].bindMemory(to: Float.self))
        }
        let map = ProbabilityMap(width: width, height: height, values: probabilities)
        let (scaleX, scaleY) = (Double(image.width) / Double(width), Double(image.height) / Double(height))
        return try map.boxes().compactMap { box in
            let corners = box.corners.corners.map { point in
                CGPoint(
                    x: min(max((point.x * scaleX).rounded(), 0), Double(image.width - 1)),
                    y: min(max((point.y * scaleY).rounded(), 0), Double(image.height - 1)))
            }
            let quadrilateral = Self.clockwise(corners)
            let sides = (
                hypot(quadrilateral.topRight.x - quadrilateral.topLeft.x, quadrilateral.topRight.y - quadrilateral.topLeft.y),
                hypot(quadrilateral.bottomLeft.x - quadrilateral.topLeft.x, quadrilateral.bottomLeft.y - quadrilateral.topLeft.y))
            // rapidocr's `filter_tag_det_res`: boxes 3 pixels or less across are dropped.
            return Int(sides.0) > 3 && Int(sides.1) > 3 ? quadrilateral : nil
        }
    }

    /// Four corners as top left, top right, bottom right and bottom left: the two leftmost (by x) are the left
    /// side, each side's upper point first, as PaddleOCR's `order_points_clockwise`.
    static func clockwise(_ points: [CGPoint]) -> Quadrilateral {
        let sorted = points.sorted { $0.x < $1.x }
        let left = sorted[0..<2].sorted { $0.y < $1.y }
        let right = sorted[2..<4].sorted { $0.y < $1.y }
        return Quadrilateral(topLeft: left[0], topRight: right[0], bottomRight: right[1], bottomLeft: left[1])
    }
}

/// The detector's probability map and its Differentiable Binarization post-processing (PaddleOCR's
/// `DBPostProcess`, `score_mode: fast`, with dilation).
struct ProbabilityMap {
    let width: Int
    let height: Int
    /// Row-major probabilities, 0–1.
    let values: [Float]

    /// The text boxes in the map's pixels: each region above ``TextLineDetector/pixelThreshold`` (dilated by a 2 × 2
    /// square, as PaddleOCR's `use_dilation`) as its smallest turned rectangle, kept when its mean probability
    /// reaches ``TextLineDetector/minimumBoxScore``, then grown by the unclip distance.
    func boxes() throws -> [RotatedRect] {
        var mask = [UInt8](repeating: 0, count: width * height)
        // cv2.dilate with a 2 × 2 kernel (anchor at its centre, (1, 1)): a pixel is set when it or its left, upper
        // or upper-left neighbour is above the threshold.
        for y in 0..<height {
            let row = y * width, below = y + 1 < height
            for x in 0..<width where values[row + x] > TextLineDetector.pixelThreshold {
                let right = x + 1 < width
                mask[row + x] = 255
                if right { mask[row + x + 1] = 255 }
                if below { mask[row + width + x] = 255 }
                if right && below { mask[row + width + x + 1] = 255 }
            }
        }
        let binary = try PixelBuffer(format: .gray, width: width, height: height, bytes: mask)
        var boxes: [RotatedRect] = []
        for contour in try binary.contours().prefix(TextLineDetector.maximumCandidates) {
            guard let box = try Self.smallestRectangle(around: contour),
                min(box.size.width, box.size.height) >= TextLineDetector.minimumSide,
                score(inside: box.corners) >= TextLineDetector.minimumBoxScore
            else { continue }
            let (w, h) = (box.size.width, box.size.height)
            // For a rectangle, PaddleOCR's polygon offset (pyclipper, round joins) followed by the smallest
            // rectangle around it moves every side out by the distance.
            let distance = w * h * TextLineDetector.unclipRatio / (2 * (w + h))
            let grown = RotatedRect(center: box.center, size: CGSize(width: w + 2 * distance, height: h + 2 * distance), rotation: box.rotation)
            guard min(grown.size.width, grown.size.height) >= TextLineDetector.minimumSide + 2 else { continue }
            boxes.append(grown)
        }
        return boxes
    }

    /// The mean probability over the pixels inside `quadrilateral` (the corners truncated to whole pixels, as
    /// PaddleOCR's `box_score_fast` fills them; a pixel counts when its centre lies within half a pixel of it).
    func score(inside quadrilateral: Quadrilateral) -> Float {
        let corners = quadrilateral.applying { CGPoint(x: $0.x.rounded(.towardZero), y: $0.y.rounded(.towardZero)) }
        let bounds = corners.boundingBox
        let minX = min(max(Int(bounds.minX), 0), width - 1)
        let maxX = min(max(Int(bounds.maxX), 0), width - 1)
        let minY = min(max(Int(bounds.minY), 0), height - 1)
        let maxY = min(max(Int(bounds.maxY), 0), height - 1)
        var (sum, count) = (Float(0), 0)
        for y in minY...maxY {
            for x in minX...maxX where corners.contains(CGPoint(x: Double(x), y: Double(y)), tolerance: 0.5) {
                sum += values[y * width + x]
                count += 1
            }
        }
        return count == 0 ? 0 : sum / Float(count)
    }

    /// The smallest turned rectangle around a contour (OpenCV's `minAreaRect`): over its convex hull, the rectangle
    /// with a side along one of the hull's edges that has the least area. Nil for an empty contour.
    static func smallestRectangle(around contour: PixelPolygon) throws -> RotatedRect? {
        let hull = try contour.convexHull().points.map { CGPoint(x: Double($0.x), y: Double($0.y)) }
        guard let first = hull.first else { return nil }
        guard hull.count > 1 else { return RotatedRect(center: first, size: .zero, rotation: 0) }
        var best: (area: Double, rect: RotatedRect)?
        for index in hull.indices {
            let (a, b) = (hull[index], hull[(index + 1) % hull.count])
            let length = hypot(b.x - a.x, b.y - a.y)
            guard length > 0 else { continue }
            let (ux, uy) = ((b.x - a.x) / length, (b.y - a.y) / length)
            var (minU, maxU, minV, maxV) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
            for point in hull {
                let (u, v) = (point.x * ux + point.y * uy, -point.x * uy + point.y * ux)
                (minU, maxU, minV, maxV) = (min(minU, u), max(maxU, u), min(minV, v), max(maxV, v))
            }
            let area = (maxU - minU) * (maxV - minV)
            guard best.map({ area < $0.area }) ?? true else { continue }
            let (cu, cv) = ((minU + maxU) / 2, (minV + maxV) / 2)
            let center = CGPoint(x: cu * ux - cv * uy, y: cu * uy + cv * ux)
            best = (area, RotatedRect(center: center, size: CGSize(width: maxU - minU, height: maxV - minV), rotation: atan2(uy, ux)))
        }
        return best?.rect
    }
}
