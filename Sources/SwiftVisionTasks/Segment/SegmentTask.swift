import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Separates people from the background: MediaPipe's selfie segmentation model
/// (`selfie_segmentation.tflite`, 256×256) run as MediaPipe's `SelfieSegmentationCpu` graph runs it,
/// giving one person confidence per pixel, upright, scaled bilinearly to the image's size (or left at
/// the model's size with ``Options/rawSize``).
///
/// In a stream each frame's model-size mask is blended with the previous frame's as MediaPipe's
/// `SegmentationSmoothingCalculator` does (its pose graphs' `combine_with_previous_ratio: 0.7`):
/// uncertain pixels lean on the previous frame, which steadies flickering edges. MediaPipe's own
/// selfie segmentation graph has no smoothing; ``Options/smoothing`` = 0 gives its independent frames.
public struct SegmentTask: VisionTask {
    /// The settings of the segmentation task, named as the `segment` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Report the mask at the model's output size (256×256) instead of the image's size, as ML
        /// Kit's `shouldEnableRawSizeMask`: no scaling, for callers that scale or threshold it themselves.
        public var rawSize = false
        /// In a stream, how much of the previous frame's mask uncertain pixels take, 0–1 (MediaPipe's
        /// `combine_with_previous_ratio`); 0 makes frames independent. Single images are never smoothed.
        public var smoothing: Float = 0.7
        /// A custom `.tflite` with one float RGB input and one mask output (such as MediaPipe's
        /// `selfie_segmentation_landscape.tflite`); nil for the general selfie model.
        public var model: String?
        /// Threads for each inference; nil for the default.
        public var threads: Int?

        /// The default settings.
        public init() {}

        func validate() throws {
            try VisionTaskError.checkThreads(threads)
            guard (0...1).contains(smoothing) else {
                throw VisionTaskError.invalidOption("must lie in 0…1, not \(smoothing)", key: "smoothing")
            }
        }
    }

    /// The person mask of one image or frame.
    ///
    /// JSON: `{"width","height","personFraction","maskWidth","maskHeight","mask"}`: the upright image's
    /// size, the fraction of person pixels (confidence ≥ 0.5) and, to stay small whatever the image's
    /// size, the model's own mask (256×256) as a base64 8-bit gray PNG (round(confidence × 255), 255 =
    /// person) with its size. The image-size mask is exactly that mask scaled bilinearly to
    /// `width` × `height` with pixel centres aligned (OpenCV's `INTER_LINEAR`; a browser canvas's
    /// `drawImage` scales it near enough), which is what decoding the JSON gives as ``mask``. The JSON
    /// is the same with ``Options/rawSize``, whose fraction is then of the model mask's pixels.
    public struct Output: Codable, Sendable, Equatable {
        /// The upright image's width in pixels.
        public var width: Int
        /// The upright image's height in pixels.
        public var height: Int
        /// The mask: the image's size, or the model's with ``Options/rawSize``.
        public var mask: SegmentationMask
        /// The model's own mask, before scaling (the same as ``mask`` with ``Options/rawSize``).
        public var modelMask: SegmentationMask

        /// The mask `mask` of an image `width` × `height` pixels, scaled from the model's `modelMask`.
        public init(width: Int, height: Int, mask: SegmentationMask, modelMask: SegmentationMask) {
            self.width = width
            self.height = height
            self.mask = mask
            self.modelMask = modelMask
        }

        /// The fraction of the mask's pixels that are a person (confidence ≥ 0.5).
        public var personFraction: Double { mask.personFraction }

        enum CodingKeys: String, CodingKey { case width, height, personFraction, mask, maskWidth, maskHeight }

        /// Decodes the JSON line's fields; ``mask`` is the model's mask scaled to the image's size.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            width = try container.decode(Int.self, forKey: .width)
            height = try container.decode(Int.self, forKey: .height)
            modelMask = try SegmentationMask(
                base64PNG: container.decode(String.self, forKey: .mask),
                width: container.decode(Int.self, forKey: .maskWidth), height: container.decode(Int.self, forKey: .maskHeight),
                codingPath: container.codingPath)
            mask = try modelMask.resized(width: width, height: height)
        }

        /// Encodes the image's size, the person fraction (four decimals) and the model's mask as a PNG
        /// with its size.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
            try container.encode(personFraction.rounded(toPlaces: 4), forKey: .personFraction)
            try container.encode(modelMask.width, forKey: .maskWidth)
            try container.encode(modelMask.height, forKey: .maskHeight)
            try container.encode(try modelMask.pngData().base64EncodedString(), forKey: .mask)
        }
    }

    /// The previous frame's mask, for smoothing.
    public struct StreamState: Sendable {
        var smoothing: MaskSmoothing
    }

    /// Named `segment`, with MediaPipe's general selfie segmentation model.
    public static let descriptor = TaskDescriptor(
        name: "segment", title: "Segment", summary: "Person mask: a confidence per pixel (selfie segmentation)",
        tracksAcrossFrames: true, models: [SelfieSegmentationModel.modelName], hiddenOptions: ["rawSize"])
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let model: SelfieSegmentationModel

    /// Checks the options and loads the model from `store`.
    public init(options: Options, store: ModelStore) throws {
        try options.validate()
        if let path = options.model, !FileManager.default.fileExists(atPath: path) {
            throw ModelManagerError.fileNotFound(path: path)
        }
        self.options = options
        model = try SelfieSegmentationModel(
            url: options.model.map { URL(fileURLWithPath: $0) }, threadCount: options.threads, store: store)
    }

    /// A stream with no previous mask.
    public func makeStreamState() -> StreamState {
        StreamState(smoothing: MaskSmoothing(ratio: options.smoothing))
    }

    /// The person mask of one image on its own.
    public func output(for image: VisionImage) throws -> Output {
        try report(model.mask(for: image), for: image)
    }

    /// The person mask of the next frame of a stream, smoothed with the previous frame's.
    public func output(forFrame image: VisionImage, state: inout StreamState) throws -> Output {
        try report(state.smoothing.smooth(model.mask(for: image)), for: image)
    }

    private func report(_ raw: FloatPlane, for image: VisionImage) throws -> Output {
        let modelMask = SegmentationMask(plane: raw)
        let mask = options.rawSize ? modelMask : SegmentationMask(plane: try raw.resized(width: image.width, height: image.height))
        return Output(width: image.width, height: image.height, mask: mask, modelMask: modelMask)
    }
}
