import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// What the learned embedder (the embeddings task's EfficientNet-Lite0, each box stretched to its input) makes
/// of a tracked object's seed, to tell a tracker the scene carried out of the frame with the object from one
/// that had drifted onto the background, and to find the object again in the second case.
///
/// A box's score is the cosine of its embedding to the seed box's minus the highest cosine to 16 boxes of the
/// seed frame round the seed (1 and 1.5 seed sizes away in 8 directions, those wholly inside the frame): above
/// 0 it looks more like the object than like what surrounded it at the seed. On DEV (12 published sequences,
/// every 10th frame, 202 frames) this difference passed 0.5 % of the boxes clear of the object against the
/// seed frame's own background, where the cosine alone passed 76–79 % (eval/README.md, "Seeded tracking").
/// The model is loaded, and the seed and its surroundings embedded from the kept seed frame, only when a box
/// is first scored: a track that never needs it pays nothing.
struct SeedLikeness {
    /// The most windows of each size a search scores round the last place (11 × 11 at a stride of half a
    /// window): the search the bar was set with on DEV (eval/README.md).
    static let searchWindowLimit = 121
    /// The sizes a search tries, relative to the object's last size: on DEV, ×1 and ×0.75 keep the re-seats
    /// at 0.15 off the background (118 of 202 frames, 99 on the object, 19 partly, 0 on background).
    static let searchScales = [1.0, 0.75]

    private let seedFrame: VisionImage
    private let seedBox: CGRect
    private let store: ModelStore
    private var reference: (model: ImageVectorModel, seed: [Float], background: [[Float]])?

    /// The seed `box` (upright pixels, inside the frame) of `frame`; the model comes from `store` when first
    /// needed.
    init(frame: VisionImage, box: CGRect, store: ModelStore) {
        seedFrame = frame
        seedBox = box
        self.store = store
    }

    /// The score of each of `boxes` of `frame` (the part of each inside the frame).
    mutating func scores(in frame: VisionImage, boxes: [CGRect]) throws -> [Double] {
        let reference = try loadedReference()
        return try boxes.map { box in
            let vector = try Self.embedding(of: frame, box: box, model: reference.model)
            let nearest = reference.background.map { Self.dot(vector, $0) }.max() ?? 0
            return Self.dot(vector, reference.seed) - nearest
        }
    }

    /// The window of `frame` round `centre` that scores highest, among windows of `size` × ``searchScales`` on a
    /// grid at a stride of half a window (at most ``searchWindowLimit`` of each size, nearest `centre`), refined
    /// by shifts of a quarter of its size and sizes ×0.8 and ×1.25 while its score rises (two rounds); nil when
    /// no window fits. At most 2 × 121 + 2 × 26 = 294 embeddings.
    mutating func search(in frame: VisionImage, around centre: CGPoint, size: CGSize) throws -> (box: CGRect, score: Double)? {
        let windows = Self.searchScales.flatMap { scale in
            Self.grid(width: frame.width, height: frame.height, size: CGSize(width: size.width * scale, height: size.height * scale), around: centre)
        }
        guard !windows.isEmpty else { return nil }
        let values = try scores(in: frame, boxes: windows)
        var best = (box: windows[values.indices.max { values[$0] < values[$1] }!], score: values.max()!)
        for _ in 0..<2 {
            let candidates = Self.neighbours(of: best.box, width: frame.width, height: frame.height)
            guard !candidates.isEmpty else { break }
            let refined = try scores(in: frame, boxes: candidates)
            guard let index = refined.indices.max(by: { refined[$0] < refined[$1] }), refined[index] > best.score else { break }
            best = (candidates[index], refined[index])
        }
        return best
    }

    /// Windows of `size` (at least 8 pixels a side, at most the frame) inside a `width`×`height` frame at a
    /// stride of half a window; when the frame holds more than ``searchWindowLimit``, those of a square round
    /// `centre` holding that many.
    private static func grid(width: Int, height: Int, size: CGSize, around centre: CGPoint) -> [CGRect] {
        let w = max(8, min(size.width, Double(width))), h = max(8, min(size.height, Double(height)))
        let (strideX, strideY) = (w / 2, h / 2)
        var (x0, x1, y0, y1) = (0.0, Double(width) - w, 0.0, Double(height) - h)
        if (Int(x1 / strideX) + 1) * (Int(y1 / strideY) + 1) > searchWindowLimit {
            let reach = Double(Int(Double(searchWindowLimit).squareRoot()) / 2)
            x0 = max(0, centre.x - w / 2 - reach * strideX)
            x1 = min(Double(width) - w, centre.x - w / 2 + reach * strideX)
            y0 = max(0, centre.y - h / 2 - reach * strideY)
            y1 = min(Double(height) - h, centre.y - h / 2 + reach * strideY)
        }
        return stride(from: y0, through: y1 + 1e-6, by: strideY).flatMap { y in
            stride(from: x0, through: x1 + 1e-6, by: strideX).map { x in CGRect(x: x, y: y, width: w, height: h) }
        }
    }

    /// The windows next to `box`: shifted by a quarter of its size and sized ×0.8, ×1 or ×1.25 about the
    /// shifted centre, kept inside a `width`×`height` frame; `box` itself left out.
    private static func neighbours(of box: CGRect, width: Int, height: Int) -> [CGRect] {
        var found: [CGRect] = []
        for scale in [0.8, 1.0, 1.25] {
            let w = min(box.width * scale, Double(width)), h = min(box.height * scale, Double(height))
            guard w >= 8, h >= 8 else { continue }
            for dx in [-0.25, 0, 0.25] {
                for dy in [-0.25, 0, 0.25] {
                    let x = max(0, min(Double(width) - w, box.midX + dx * box.width - w / 2))
                    let y = max(0, min(Double(height) - h, box.midY + dy * box.height - h / 2))
                    let window = CGRect(x: x, y: y, width: w, height: h)
                    if window != box { found.append(window) }
                }
            }
        }
        return found
    }

    /// The model and the embeddings of the seed and its surroundings, made on first use.
    private mutating func loadedReference() throws -> (model: ImageVectorModel, seed: [Float], background: [[Float]]) {
        if let reference { return reference }
        let model = try ImageVectorModel(
            url: SwiftVisionCache.current.model(named: EmbeddingsTask.baseModelName), threadCount: nil, store: store)
        let bounds = CGRect(x: 0, y: 0, width: seedFrame.width, height: seedFrame.height)
        let around = [1.0, 1.5].flatMap { distance in
            [(1.0, 0.0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)].map { dx, dy in
                seedBox.offsetBy(dx: dx * distance * seedBox.width, dy: dy * distance * seedBox.height)
            }
        }.filter { bounds.contains($0) }
        let made = (
            model: model, seed: try Self.embedding(of: seedFrame, box: seedBox, model: model),
            background: try around.map { try Self.embedding(of: seedFrame, box: $0, model: model) }
        )
        reference = made
        return made
    }

    /// The unit-length embedding of the part of `box` inside `image`, stretched to the model's input.
    private static func embedding(of image: VisionImage, box: CGRect, model: ImageVectorModel) throws -> [Float] {
        let bounds = CGRect(x: 0, y: 0, width: image.width, height: image.height)
        let values = try model.outputs(for: image, region: box.intersection(bounds))[0]
        return Embedding(values: values, l2Normalize: true, quantize: false, headIndex: 0, headName: nil).values
    }

    private static func dot(_ first: [Float], _ second: [Float]) -> Double {
        Double(zip(first, second).reduce(0) { $0 + $1.0 * $1.1 })
    }
}
