import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// Videos are written as H.264, which browsers play, in every container but AVI. Truth for the codec is the
/// container's own record of it, as ISO/IEC 14496-15 and the Matroska codec table name it: an `avcC` box in
/// an MP4 or QuickTime file, the codec ID `V_MPEG4/ISO/AVC` in Matroska. Frames read back are compared with
/// the frames written: a slow pan over a real photo.
@Suite struct VideoWriterCodecTests {
    /// The frames of a pan across `bus.jpg`, `width` × `height` pixels each.
    private func pan(width: Int, height: Int, count: Int) throws -> [VisionImage] {
        let photo = try Fixtures.image("bus.jpg").resized(width: 2 * width, height: 2 * height)
        return try (0..<count).map { index in
            try photo.cropped(to: CGRect(x: 4 * index, y: 3 * index, width: width, height: height)).converted(to: .bgr)
        }
    }

    /// The mean absolute difference of two BGR images' bytes over `read`'s size.
    private func meanDifference(_ read: VisionImage, _ written: VisionImage) throws -> Double {
        let a = try read.converted(to: .bgr).buffer, b = try written.converted(to: .bgr).buffer
        var total = 0
        for row in 0..<a.height {
            for column in 0..<a.width * 3 {
                total += abs(Int(a.bytes[row * a.bytesPerRow + column]) - Int(b.bytes[row * b.bytesPerRow + column]))
            }
        }
        return Double(total) / Double(a.height * a.width * 3)
    }

    private func write(_ frames: [VisionImage], to url: URL) throws -> VideoWriter {
        let writer = try VideoWriter(url: url, width: frames[0].width, height: frames[0].height, framesPerSecond: 10)
        for frame in frames { try writer.append(frame) }
        writer.close()
        return writer
    }

    @Test func writesH264ThatReadsBackClose() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try pan(width: 320, height: 240, count: 12)
        for (name, mark) in [("clip.mp4", "avcC"), ("clip.m4v", "avcC"), ("clip.mov", "avcC"), ("clip.mkv", "V_MPEG4/ISO/AVC")] {
            let url = folder.appendingPathComponent(name)
            _ = try write(frames, to: url)
            let data = try Data(contentsOf: url)
            #expect(data.range(of: Data(mark.utf8)) != nil, "\(name) has no \(mark)")
            let read = Array(try VideoReader(url: url))
            #expect(read.count == frames.count, "\(name)")
            for (frame, written) in zip(read, frames) {
                #expect(frame.image.width == 320 && frame.image.height == 240)
                let difference = try meanDifference(frame.image, written)
                #expect(difference < 4, "\(name) frame \(frame.index): mean difference \(difference)")
            }
        }
        let avi = folder.appendingPathComponent("clip.avi")
        _ = try write(frames, to: avi)
        #expect(try Data(contentsOf: avi).range(of: Data("MJPG".utf8)) != nil)
    }

    /// MPEG-4 Part 2, asked for, is stored as an `esds` decoder description (ISO/IEC 14496-14), not `avcC`.
    @Test func writesMPEG4Part2WhenAskedTo() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try pan(width: 161, height: 121, count: 4)
        let url = folder.appendingPathComponent("clip.mp4")
        let writer = try VideoWriter(url: url, width: 161, height: 121, framesPerSecond: 10, codec: .mpeg4Part2)
        for frame in frames { try writer.append(frame) }
        writer.close()
        #expect(writer.width == 161 && writer.height == 121)
        let data = try Data(contentsOf: url)
        #expect(data.range(of: Data("esds".utf8)) != nil && data.range(of: Data("avcC".utf8)) == nil)
        #expect(Array(try VideoReader(url: url)).count == frames.count)
    }

    /// H.264 stores even sides: a 161 × 121 video keeps its top-left 160 × 120 pixels, unscaled.
    @Test func oddSidesLoseTheirLastColumnAndRow() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try pan(width: 161, height: 121, count: 6)
        let url = folder.appendingPathComponent("odd.mp4")
        let writer = try write(frames, to: url)
        #expect(writer.width == 160 && writer.height == 120)
        let read = Array(try VideoReader(url: url))
        #expect(read.count == frames.count)
        for (frame, written) in zip(read, frames) {
            #expect(frame.image.width == 160 && frame.image.height == 120)
            let difference = try meanDifference(frame.image, written)
            #expect(difference < 5, "frame \(frame.index): mean difference \(difference)")
        }
    }
}
