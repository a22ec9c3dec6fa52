import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A model with one image input whose outputs are read as float vectors: the engine of image
/// classifiers and embedders. Thread-safe; inferences run in parallel as the interpreter allows.
///
/// The image becomes the input as in MediaPipe 0.10.21's ImageClassifier and ImageEmbedder, whose
/// `ImagePreprocessingGraph` runs `ImageToTensorCalculator` on the CPU with OpenCV:
/// - `keep_aspect_ratio` is not set (false): the region is stretched to the input on each axis;
/// - the region of interest is the task's `NORM_RECT` (the whole image without one, a region of
///   interest otherwise) times the image size, and the warp (`cv::warpPerspective`, `INTER_LINEAR`,
///   8-bit pixels in, 8-bit out) maps its corners onto the input's corners: input pixel i reads the
///   image at left + i × width / input width, pixel indices as coordinates, without averaging when it
///   shrinks;
/// - `border_mode` is unset, so `BORDER_REPLICATE`: samples past the edge repeat it;
/// - normalisation from the metadata's `NormalizationOptions` (one mean and std for every channel):
///   the float range is (0 − mean) / std … (255 − mean) / std, applied to the warped bytes by
///   `convertTo`; a uint8 input gets the warped bytes.
///
/// Vision's `imageCropAndScaleOption` keeps the same warp: `.centerCrop` shrinks the region to the
/// input's aspect ratio, `.scaleFit` grows it (MediaPipe's `PadRoi`) and pads with zeros.
struct ImageVectorModel: Sendable {
    let interpreter: Interpreter
    /// The input format, stretching the image to the tensor and repeating its edges, unless a call asks otherwise.
    let format: ImageTensorFormat

    /// The model at `url` from `store`; it must take exactly one image tensor.
    init(url: URL, threadCount: Int?, store: ModelStore) throws {
        try VisionTaskError.checkThreads(threadCount)
        let options = threadCount.map { LiteRT.CompilationOptions(threadCount: $0) } ?? .default
        interpreter = try store.interpreter(contentsOf: url, options: options)
        guard interpreter.inputs.count == 1 else {
            throw LiteRTError.incompatibleModel(
                "\(url.lastPathComponent) takes \(interpreter.inputs.count) inputs, not one image")
        }
        var format = try ImageTensorFormat(tensor: interpreter.inputs[0], metadata: interpreter.model.metadata?.inputs.first)
        format.extendsEdges = true
        self.format = format
    }

    /// The length N of an output shaped as one vector: `[N]`, `[1, N]` or `[1, 1, 1, N]`; nil otherwise.
    static func vectorLength(of output: LiteRT.TensorInfo) -> Int? {
        let shape = output.shape
        guard [1, 2, 4].contains(shape.count), shape.dropLast().allSatisfy({ $0 == 1 }),
            [.float32, .float16, .uint8, .int8].contains(output.elementType)
        else { return nil }
        return shape.last
    }

    /// Every output's values for `region` of `image` (the whole image when nil), fitted to the input by
    /// `resizeMode` (`.letterbox` pads with zeros).
    func outputs(
        for image: VisionImage, region: CGRect? = nil, resizeMode: ImageTensorFormat.ResizeMode = .stretch
    ) throws -> [[Float]] {
        var format = format
        format.resizeMode = resizeMode
        format.extendsEdges = resizeMode != .letterbox
        let infos = interpreter.outputs
        return try interpreter.invoke { inputs in
            try image.writeAsMediaPipe(into: inputs[0], format: format, region: region)
        } readingOutputs: { outputs in
            try zip(infos, outputs).map { info, buffer in try info.floatValues(in: buffer) }
        }
    }
}
