import ArgumentParser
import Foundation
import SwiftVision

struct SegmentCommand: TaskCommand {
    typealias Task = SegmentTask

    static let discussion = """
        The mask holds a confidence per pixel (MediaPipe's selfie segmentation model), at the size of the \
        upright image. --json prints the image's size, the fraction of person pixels (confidence ≥ 0.5) and \
        the model's 256×256 mask as a base64 8-bit gray PNG (scaled bilinearly to the image, it is the \
        image-size mask). Videos (.mp4, .mov, .avi, .mkv, .webm) are a stream: each \
        mask is smoothed with the previous frame's where it is unsure.
        """

    @OptionGroup var input: InputOptions

    @Option(help: "Write the mask as an 8-bit gray PNG, 255 = person (a folder when there are several inputs; videos get an .mp4).")
    var mask: String?

    @Option(help: "Write the image with the mask as a tinted overlay, or composited with --background (a folder when there are several inputs).")
    var draw: String?

    @Option(help: "Put this image behind the people, or 'blur' to blur the background; written to --draw's path.")
    var background: String?

    @Option(help: "In videos, how much of the previous mask uncertain pixels take, 0–1 (0: frames independent).")
    var smoothing: Float = 0.7

    func validate() throws {
        if background != nil && draw == nil { throw ValidationError("--background composites an image: give --draw OUT") }
        if !(0...1).contains(smoothing) { throw ValidationError("--smoothing must lie in 0…1") }
    }

    func makeTask() throws -> SegmentTask {
        var options = SegmentTask.Options()
        options.smoothing = smoothing
        return try CommandTask.load(options, json: input.json)
    }

    /// What goes behind the people with --background.
    enum Backdrop {
        case blur
        case image(VisionImage)

        init(_ argument: String) throws {
            if argument.lowercased() == "blur" {
                self = .blur
            } else {
                do {
                    self = .image(try VisionImage(contentsOf: URL(fileURLWithPath: argument)))
                } catch {
                    throw ValidationError("--background \(argument): \(error.localizedDescription)")
                }
            }
        }
    }

    func run() throws {
        let backdrop = try background.map(Backdrop.init)
        let renderings = [
            Rendering<SegmentTask.Output>(destination: mask) { _, output in try output.mask.grayImage() },
            Rendering(destination: draw) { image, output in try rendered(image, output.mask, backdrop: backdrop) },
        ]
        try TaskInputs.run(try makeTask(), on: input.sources, json: input.json, renderings: renderings, describe: describe)
    }

    /// The image with the mask tinted over it, or composited over the backdrop.
    private func rendered(_ image: VisionImage, _ mask: SegmentationMask, backdrop: Backdrop?) throws -> VisionImage {
        var canvas = try ImageCanvas(image: image)
        switch backdrop {
        case nil: try canvas.drawMask(mask.plane, color: .blue, opacity: 0.55)
        case .blur: try canvas.blurBackground(keeping: mask.plane)
        case .image(let background): try canvas.replaceBackground(keeping: mask.plane, with: background)
        }
        return canvas.image
    }

    func describe(_ line: TaskLine<SegmentTask.Output>) -> [String] {
        let output = line.output
        let percent = String(format: "%.1f", output.personFraction * 100)
        return ["\(line.place): \(output.width)×\(output.height), person \(percent)% of pixels"]
    }
}
