import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// MediaPipe Python's person masks (Tests/Python/Reference/selfie_segmentation_reference.py, the solutions
/// API on the same `selfie_segmentation.tflite`), made once per image per test run.
enum SegmentationReference {
    struct Entry: Decodable {
        var file: String
        var width: Int
        var height: Int
        var mask: String
    }

    /// MediaPipe's masks of `paths`, in order.
    static func masks(_ paths: [String]) throws -> [FloatPlane] {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let python = Fixtures.cache.root.appendingPathComponent("tools-venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/selfie_segmentation_reference.py")
        let run = try Fixtures.run(python, [script.path, folder.path] + paths)
        try #require(run.status == 0, "selfie_segmentation_reference.py failed (run `make test` to set up \(python.path)): \(run.errors)")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(run.output.utf8))
        return try entries.map { entry in
            let data = try Data(contentsOf: URL(fileURLWithPath: entry.mask))
            let values = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            return try FloatPlane(width: entry.width, height: entry.height, values: values)
        }
    }

    /// The mean absolute difference of two masks of the same size.
    static func meanDifference(_ a: FloatPlane, _ b: FloatPlane) -> Double {
        zip(a.values, b.values).reduce(0.0) { $0 + Double(abs($1.0 - $1.1)) } / Double(a.values.count)
    }

    /// Intersection over union of the two masks thresholded at 0.5.
    static func intersectionOverUnion(_ a: FloatPlane, _ b: FloatPlane) -> Double {
        var both = 0, either = 0
        for (x, y) in zip(a.values, b.values) {
            let (p, q) = (x >= 0.5, y >= 0.5)
            if p && q { both += 1 }
            if p || q { either += 1 }
        }
        return either == 0 ? 1 : Double(both) / Double(either)
    }
}

@Suite(.serialized) struct SegmentationTests {
    /// Tolerances against MediaPipe Python. The pipelines are the same (the same corner-aligned
    /// bilinear warp to 256×256, the same model on XNNPACK, the same bilinear scaling back), so what
    /// remains is OpenCV 4.6's warpAffine against MediaPipe's warpPerspective and JPEG decoders of
    /// different versions. Measured: mean |Δ| ≈ 1e-7 and IoU 1 on zidane, astronaut and person;
    /// bus.jpg, which the two decoders decode slightly differently, 0.00015 and 0.9985.
    static let maximumMeanDifference = 0.002
    static let minimumIoU = 0.99

    @Test func masksMatchMediaPipePython() throws {
        let photos = ["zidane.jpg", "astronaut.png", "bus.jpg", "person.jpg"]
        let references = try SegmentationReference.masks(try photos.map { try Fixtures.sample($0).path })
        let task = try SegmentTask()
        for (photo, reference) in zip(photos, references) {
            let output = try task.output(for: try Fixtures.image(photo))
            let mask = output.mask.plane
            #expect(mask.width == reference.width && mask.height == reference.height, "\(photo)")
            #expect(output.width == reference.width && output.height == reference.height)
            let difference = SegmentationReference.meanDifference(mask, reference)
            let iou = SegmentationReference.intersectionOverUnion(mask, reference)
            #expect(difference <= Self.maximumMeanDifference, "\(photo): mean |Δconfidence| \(difference)")
            #expect(iou >= Self.minimumIoU, "\(photo): IoU \(iou)")
            // Every photo shows people: a sizeable share of the pixels.
            #expect(output.personFraction > 0.05, "\(photo): \(output.personFraction)")
            #expect(abs(output.personFraction - reference.fraction(atLeast: 0.5)) < 0.002, "\(photo)")
        }
    }

    @Test func photosWithoutPeopleHaveAlmostNoPersonPixels() throws {
        let task = try SegmentTask()
        for photo in ["page.png", "pyzbar-qrcode.png", "pyzbar-code128.png"] {
            let output = try task.output(for: try Fixtures.image(photo))
            #expect(output.personFraction < 0.01, "\(photo): \(output.personFraction)")
        }
    }

    @Test func exifRotatedInputGivesAnUprightMaskOfTheUprightSize() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // zidane.jpg stored on its side with EXIF orientation 6: upright, the people stand on the right.
        let stored = try Fixtures.image("zidane.jpg").rotated(by: .counterClockwise90).upright()
        let file = folder.appendingPathComponent("rotated.jpg")
        try Fixtures.jpeg(storing: stored, orientation: .right).write(to: file)
        let image = try VisionImage(contentsOf: file)
        #expect(image.orientation == .right && image.width == 1280 && image.height == 720)

        let output = try SegmentTask().output(for: image)
        #expect(output.width == 1280 && output.height == 720)
        #expect(output.mask.width == 1280 && output.mask.height == 720)
        // The same mask as for the upright pixels given directly, and as MediaPipe's of the file
        // (OpenCV's imread turns it upright).
        let upright = try SegmentTask().output(for: try image.upright()).mask.plane
        #expect(SegmentationReference.meanDifference(output.mask.plane, upright) < 0.001)
        let reference = try #require(try SegmentationReference.masks([file.path]).first)
        #expect(reference.width == 1280 && reference.height == 720)
        #expect(SegmentationReference.meanDifference(output.mask.plane, reference) <= Self.maximumMeanDifference)
        #expect(SegmentationReference.intersectionOverUnion(output.mask.plane, reference) >= Self.minimumIoU)
        // Upright: a face where the upright photo has it, crowd in its top-left corner.
        #expect(output.mask.confidence(atX: 615, y: 355) > 0.9, "the face of the player on the left")
        #expect(output.mask.confidence(atX: 30, y: 30) < 0.1, "the crowd behind")
    }

    @Test func rawSizeMaskIsTheModelsOwn() throws {
        var options = SegmentTask.Options()
        options.rawSize = true
        let image = try Fixtures.image("zidane.jpg")
        let raw = try SegmentTask(options: options).output(for: image)
        #expect(raw.width == 1280 && raw.height == 720)
        #expect(raw.mask.width == 256 && raw.mask.height == 256)
        // Scaled up, it is the image-size mask.
        let full = try SegmentTask().output(for: image).mask.plane
        #expect(SegmentationReference.meanDifference(try raw.mask.plane.resized(width: 1280, height: 720), full) < 1e-6)
        #expect(raw.modelMask == raw.mask)
    }

    @Test func jsonIsSmallValidAndDecodesBack() throws {
        let output = try SegmentTask().output(for: try Fixtures.image("zidane.jpg"))
        let data = try JSONEncoder().encode(output)
        // The model-size mask: small whatever the image's size (the 1280×720 mask's PNG is ~100 kB).
        #expect(data.count < 30_000, "\(data.count) bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["width", "height", "personFraction", "maskWidth", "maskHeight", "mask"])
        #expect(object["width"] as? Int == 1280 && object["height"] as? Int == 720)
        #expect(object["maskWidth"] as? Int == 256 && object["maskHeight"] as? Int == 256)
        let fraction = try #require(object["personFraction"] as? Double)
        #expect(abs(fraction - output.personFraction) < 0.0001)
        let base64 = try #require(object["mask"] as? String)
        let png = try #require(Data(base64Encoded: base64))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try SegmentationMask(imageData: png).width == 256)

        // Decoded, the PNG scaled to the image is the image-size mask but for 8-bit rounding.
        let decoded = try JSONDecoder().decode(SegmentTask.Output.self, from: data)
        #expect(decoded.width == 1280 && decoded.mask.width == 1280 && decoded.mask.height == 720)
        let largest = zip(decoded.mask.confidences, output.mask.confidences).map { abs($0 - $1) }.max() ?? 1
        #expect(largest <= 1 / 510 + 1e-5, "8-bit rounding only: \(largest)")
        #expect(abs(decoded.personFraction - output.personFraction) < 0.001)

        // The container on its own carries its own size.
        let mask = try JSONDecoder().decode(SegmentationMask.self, from: JSONEncoder().encode(output.modelMask))
        #expect(mask.width == 256 && abs(mask.personFraction - output.modelMask.personFraction) < 0.001)
        let containerJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(output.modelMask)) as? [String: Any]
        #expect(Set(containerJSON?.keys.map { $0 } ?? []) == ["width", "height", "personFraction", "mask"])
    }

    @Test func smoothingBlendsUncertainPixelsAsMediaPipe() throws {
        // MediaPipe's polynomial: at p = ½ the uncertainty is 1, near 0 or 1 it vanishes.
        #expect(abs(MaskSmoothing.blend(new: 0.5, previous: 1, ratio: 0.7) - 0.85) < 1e-6)
        #expect(MaskSmoothing.blend(new: 0, previous: 1, ratio: 0.7) < 1e-4)
        #expect(MaskSmoothing.blend(new: 1, previous: 0, ratio: 0.7) > 1 - 1e-4)
        #expect(abs(MaskSmoothing.blend(new: 0.02, previous: 1, ratio: 0.7) - 0.0343) < 0.001)
        #expect(MaskSmoothing.blend(new: 0.4, previous: 0.9, ratio: 0) == 0.4)
        let between = MaskSmoothing.blend(new: 0.3, previous: 1, ratio: 0.7)
        #expect(between > 0.3 && between < 0.85)

        // A stream: the first frame as is, the next blended with it, pixel by pixel.
        var options = SegmentTask.Options()
        options.rawSize = true
        let task = try SegmentTask(options: options)
        let first = try Fixtures.image("zidane.jpg"), second = try Fixtures.image("bus.jpg")
        var state = task.makeStreamState()
        let frame1 = try task.output(forFrame: first, state: &state).mask.confidences
        let frame2 = try task.output(forFrame: second, state: &state).mask.confidences
        #expect(frame1 == (try task.output(for: first)).mask.confidences)
        let alone = try task.output(for: second).mask.confidences
        let expected = zip(alone, frame1).map { MaskSmoothing.blend(new: $0, previous: $1, ratio: 0.7) }
        #expect(frame2 == expected)
        #expect(frame2 != alone)

        options.smoothing = 0
        let independent = try SegmentTask(options: options)
        var plain = independent.makeStreamState()
        _ = try independent.output(forFrame: first, state: &plain)
        #expect(try independent.output(forFrame: second, state: &plain).mask.confidences == alone)
        options.smoothing = 1.5
        #expect(throws: VisionTaskError.self) { try SegmentTask(options: options) }
    }

    @Test func mlKitSegmenterInBothModes() async throws {
        let image = try Fixtures.image("astronaut.png")
        var options = SelfieSegmenterOptions()
        options.segmenterMode = .singleImage
        let single = try Segmenter.segmenter(options: options)
        let mask = try single.results(in: image.mlKitImage)
        #expect(mask.width == 512 && mask.height == 512 && mask.buffer.count == 512 * 512)
        #expect(mask.confidence(atX: 225, y: 118) > 0.9, "the astronaut's face")
        let processed = try await single.process(image.mlKitImage)
        #expect(processed.confidences == mask.confidences)

        options.shouldEnableRawSizeMask = true
        #expect(try Segmenter.segmenter(options: options).results(in: image.mlKitImage).width == 256)

        let stream = try Segmenter.segmenter(options: SelfieSegmenterOptions())
        #expect(SelfieSegmenterOptions().segmenterMode == .stream)
        let frames = try MovingFaceVideo.frames().prefix(3)
        for (index, frame) in frames.enumerated() {
            let mask = try stream.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: index * 40)
            #expect(mask.width == 640 && mask.height == 480)
        }
        #expect(throws: VisionTaskError.self) {
            try unwrappingMLKitError { try stream.results(inVideoFrame: frames[0].mlKitImage, timestampInMilliseconds: 0) }
        }
        stream.reset()
        _ = try stream.results(inVideoFrame: frames[0].mlKitImage, timestampInMilliseconds: 0)
    }

    @Test func visionRequestQualityLevels() throws {
        let image = try Fixtures.image("zidane.jpg")
        var request = GeneratePersonSegmentationRequest()
        #expect(request.qualityLevel == .accurate)
        let accurate = try ImageRequestHandler(image).perform(request)
        #expect(accurate.width == 1280 && accurate.height == 720)
        #expect(accurate.pixelBuffer.format == .gray && accurate.pixelBuffer.width == 1280)
        #expect(Fixtures.pixel(accurate.pixelBuffer, 615, 355) == [UInt8((accurate.mask.confidence(atX: 615, y: 355) * 255).rounded())])
        request.qualityLevel = .balanced
        let balanced = try ImageRequestHandler(image).perform(request)
        #expect(balanced.width == 960 && balanced.height == 540)
        request.qualityLevel = .fast
        let fast = try ImageRequestHandler(image).perform(request)
        #expect(fast.width == 256 && fast.height == 256 && fast.floatValues.count == 65536)
        // A small image is not enlarged by .balanced.
        request.qualityLevel = .balanced
        #expect(try ImageRequestHandler(try Fixtures.image("astronaut.png")).perform(request).width == 512)

        let handler = SequenceRequestHandler()
        request.qualityLevel = .accurate
        for frame in try MovingFaceVideo.frames().prefix(2) {
            let observation = try handler.perform(request, on: frame)
            #expect(observation.width == 640 && observation.height == 480)
        }
    }

    @Test func backgroundBlurAndReplacementKeepThePerson() throws {
        let image = try Fixtures.image("astronaut.png")
        // The left half is the "person".
        let mask = try FloatPlane(width: 512, height: 512, values: (0..<512 * 512).map { $0 % 512 < 256 ? 1 : 0 })
        let original = try ImageCanvas(image: image).image.buffer

        var blurred = try ImageCanvas(image: image)
        try blurred.blurBackground(keeping: mask, sigma: 12)
        #expect(Fixtures.pixel(blurred.image.buffer, 100, 300) == Fixtures.pixel(original, 100, 300))
        let left = try blurred.image.buffer.cropped(x: 0, y: 0, width: 250, height: 512)
        #expect(try Fixtures.meanDifference(left, try original.cropped(x: 0, y: 0, width: 250, height: 512)) < 0.01)
        let right = try blurred.image.buffer.cropped(x: 262, y: 0, width: 250, height: 512)
        #expect(try Fixtures.meanDifference(right, try original.cropped(x: 262, y: 0, width: 250, height: 512)) > 3)

        let green = try VisionImage(pixels: Data((0..<64).flatMap { _ in [UInt8(0), 255, 0] }), width: 8, height: 8, format: .rgb)
        var replaced = try ImageCanvas(image: image)
        try replaced.replaceBackground(keeping: mask, with: green)
        #expect(Fixtures.pixel(replaced.image.buffer, 400, 300) == [0, 255, 0])
        #expect(Fixtures.pixel(replaced.image.buffer, 100, 300) == Fixtures.pixel(original, 100, 300))

        var tinted = try ImageCanvas(image: image)
        try tinted.drawMask(try mask.resized(width: 256, height: 256), color: .blue, opacity: 1)
        #expect(Fixtures.pixel(tinted.image.buffer, 100, 300) == [240, 110, 40])
        #expect(Fixtures.pixel(tinted.image.buffer, 400, 300) == Fixtures.pixel(original, 400, 300))
    }
}

@Suite(.serialized) struct SegmentCommandTests {
    static let executable = Fixtures.executable

    @Test func printsMasksAsJSONLinesAndGoesOnAfterABadFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.jpg")
        try Data("not a picture".utf8).write(to: broken)
        let run = try Fixtures.run(
            Self.executable, ["segment", "--json", try Fixtures.sample("zidane.jpg").path, broken.path, try Fixtures.sample("page.png").path])
        #expect(run.status == 1, "a bad file fails the command once the batch is done")
        let lines = Fixtures.jsonLines(run.output)
        #expect(lines.count == 3)
        #expect(lines[0]["file"] as? String == (try Fixtures.sample("zidane.jpg").path))
        #expect(lines[0]["width"] as? Int == 1280 && lines[0]["height"] as? Int == 720)
        #expect((lines[0]["personFraction"] as? Double ?? 0) > 0.3)
        #expect(lines[0]["maskWidth"] as? Int == 256 && lines[0]["maskHeight"] as? Int == 256)
        let png = try #require(Data(base64Encoded: lines[0]["mask"] as? String ?? ""))
        #expect(try SegmentationMask(imageData: png).width == 256)
        #expect(lines[1]["file"] as? String == broken.path && lines[1]["error"] != nil)
        #expect(lines[2]["width"] as? Int == 384 && (lines[2]["personFraction"] as? Double ?? 1) < 0.01)
    }

    @Test func writesMasksAndComposites() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // One input: --mask and --draw are files.
        let maskFile = folder.appendingPathComponent("mask.png"), drawn = folder.appendingPathComponent("blurred.jpg")
        var run = try Fixtures.run(
            Self.executable,
            ["segment", try Fixtures.sample("astronaut.png").path, "--mask", maskFile.path, "--draw", drawn.path, "--background", "blur"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("512×512, person"))
        let mask = try VisionImage(contentsOf: maskFile)
        #expect(mask.width == 512 && mask.height == 512)
        #expect(Fixtures.pixel(try mask.buffer.converted(to: .gray), 225, 118) == [255], "the astronaut's face is a person")
        #expect(Fixtures.pixel(try mask.buffer.converted(to: .gray), 500, 10) == [0])
        #expect(try VisionImage(contentsOf: drawn).width == 512)

        // Several inputs: folders, named after the inputs; EXIF orientation applied.
        let stored = try Fixtures.image("zidane.jpg").resized(width: 640, height: 360).rotated(by: .counterClockwise90).upright()
        let rotated = folder.appendingPathComponent("rotated.jpg")
        try Fixtures.jpeg(storing: stored, orientation: .right).write(to: rotated)
        let masks = folder.appendingPathComponent("masks"), composites = folder.appendingPathComponent("composites")
        run = try Fixtures.run(
            Self.executable,
            ["segment", "--json", rotated.path, try Fixtures.sample("bus.jpg").path, "--mask", masks.path, "--draw", composites.path,
             "--background", try Fixtures.sample("coffee.png").path])
        #expect(run.status == 0, "\(run.errors)")
        let rotatedMask = try VisionImage(contentsOf: masks.appendingPathComponent("rotated.png"))
        #expect(rotatedMask.width == 640 && rotatedMask.height == 360)
        #expect(try VisionImage(contentsOf: masks.appendingPathComponent("bus.png")).width == 810)
        #expect(try VisionImage(contentsOf: composites.appendingPathComponent("bus.png")).height == 1080)

        // Without --background, --draw tints the mask.
        let overlay = folder.appendingPathComponent("overlay.png")
        run = try Fixtures.run(Self.executable, ["segment", try Fixtures.sample("bus.jpg").path, "--draw", overlay.path])
        #expect(run.status == 0 && FileManager.default.fileExists(atPath: overlay.path))

        run = try Fixtures.run(Self.executable, ["segment", try Fixtures.sample("bus.jpg").path, "--background", "blur"])
        #expect(run.status != 0 && run.errors.contains("--draw"))
    }

    @Test func segmentsVideosFrameByFrame() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("moving.avi")
        let writer = try VideoWriter(url: video, width: 640, height: 480, framesPerSecond: 25)
        for frame in try MovingFaceVideo.frames().prefix(8) { try writer.append(frame) }
        writer.close()
        let drawn = folder.appendingPathComponent("drawn.mp4"), masks = folder.appendingPathComponent("mask.mp4")
        let run = try Fixtures.run(Self.executable, ["segment", "--json", video.path, "--draw", drawn.path, "--mask", masks.path])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        #expect(lines.count == 8)
        #expect(lines.map { $0["frame"] as? Int } == (0..<8).map { $0 })
        #expect(lines.allSatisfy { $0["width"] as? Int == 640 && $0["timestampMs"] != nil && $0["mask"] is String })
        #expect(try VideoReader(url: drawn).width == 640)
        #expect(try VideoReader(url: masks).height == 480)
    }
}
