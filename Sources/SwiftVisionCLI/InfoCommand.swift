import ArgumentParser
import Foundation
import SwiftVision

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe image and video files: upright size, EXIF orientation and format; a video's frames, rate, duration and turn.")

    @Argument(help: "Image files (JPEG, PNG, WebP, BMP, TIFF, HEIF/HEIC, AVIF, GIF) and video files (MP4, MOV, AVI, MKV, WebM, …).")
    var images: [String]

    @Flag(help: "Print JSON Lines.")
    var json = false

    struct Report {
        var file: String
        var width: Int?
        var height: Int?
        var orientation: Int?
        var format: String?
        /// A video's frame count: those its sample tables (MP4, MOV) or blocks (Matroska, WebM) show, else the
        /// container's count or estimate.
        var frames: Int?
        /// A video's frames per second: the average over its sample tables (MP4, MOV) or blocks (Matroska,
        /// WebM), else the container's rate.
        var framesPerSecond: Double?
        /// A video's duration in seconds.
        var duration: Double?
        /// The clockwise turn, in degrees, that an MP4's or MOV's track header or a Matroska or WebM file's
        /// projection asks for display (already applied to the width, the height and the frames).
        var rotation: Int?
        var error: String?

        /// The report as its JSON line.
        var jsonLine: JSONObjectLine {
            var line = JSONObjectLine()
            line.append("file", file)
            line.append("width", width)
            line.append("height", height)
            line.append("orientation", orientation)
            line.append("format", format)
            line.append("frames", frames)
            line.append("framesPerSecond", framesPerSecond)
            line.append("duration", duration)
            line.append("rotation", rotation)
            line.append("error", error)
            return line
        }

        /// The report as its line of text.
        var text: String {
            guard let width, let height, let format else { return file }
            if let orientation { return "\(file): \(width)×\(height) \(format.uppercased()), orientation \(orientation)" }
            func number(_ value: Double) -> String { String(format: "%g", value) }
            return "\(file): \(width)×\(height) video (\(format))" + (frames.map { ", \($0) frames" } ?? "")
                + (duration.map { " in \(number($0)) s" } ?? "") + (framesPerSecond.map { ", \(number($0)) frames/s" } ?? "")
                + (rotation.map { $0 == 0 ? "" : ", turned \($0)° clockwise for display" } ?? "")
        }
    }

    func run() throws {
        var failures = 0
        for path in images {
            let report: Report
            do {
                let source = MediaFiles.source(path)
                var status = stat()
                if MediaFiles.isVideo(source), !source.isFileURL || stat(source.path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG,
                    !Self.isMislabelledImage(source)
                {
                    report = try Self.describeVideo(source, file: path)
                } else {
                    // `-` is standard input, as for the task commands (README: `curl -s URL | swiftvision faces -`).
                    let data = try ImageError.contents(atPath: source == MediaFiles.standardInput ? source.path : path)
                    let header = try ImageHeader(data: data)
                    try ImageLimits.default.check(width: header.width, height: header.height)
                    let swaps = header.orientation.swapsDimensions
                    report = Report(
                        file: path, width: swaps ? header.height : header.width, height: swaps ? header.width : header.height,
                        orientation: Int(header.orientation.rawValue), format: header.format.rawValue)
                }
            } catch {
                failures += 1
                report = Report(file: path, error: MediaFiles.explanation(of: error))
            }
            if json {
                StandardStream.output.write(report.jsonLine.text)
            } else if let error = report.error {
                Diagnostics.note("\(path): \(error)")
            } else {
                print(report.text)
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The video at `url`, opened without decoding a frame: its upright size from FFmpeg, and for an MP4 or
    /// MOV its frames, rate, duration and turn from its sample tables, for a Matroska or WebM file its
    /// frames, rate and duration from its blocks and its turn from its track's projection; elsewhere the container's frame count and rate (an
    /// estimate in transport streams and unreadable Matroska), the duration their quotient.
    static func describeVideo(_ url: URL, file: String) throws -> Report {
        let reader = try VideoReader(url: url)
        var report = Report(file: file, width: reader.width, height: reader.height)
        report.format = url.isFileURL ? reader.container?.rawValue ?? "video" : url.scheme
        if let track = reader.track {
            report.frames = track.presentationTimes.count
            report.framesPerSecond = (track.averageFramesPerSecond * 1000).rounded() / 1000
            report.duration = (track.duration * 1000).rounded() / 1000
            report.rotation = track.rotation
        } else if !reader.isLive, reader.reportedFrameCount > 0 {
            report.frames = reader.reportedFrameCount
            report.framesPerSecond = (reader.framesPerSecond * 1000).rounded() / 1000
            report.duration = (Double(reader.reportedFrameCount) / reader.framesPerSecond * 1000).rounded() / 1000
        }
        return report
    }

    /// Whether the file at `url`, named as a video, opens no video container but an image whose header lies
    /// in its first 256 KiB (a photo saved as `.mp4`): it is then described as the image it is. Only those
    /// bytes are read, so a video in a container not told by its first bytes is not read whole.
    static func isMislabelledImage(_ url: URL) -> Bool {
        guard url.isFileURL, VideoContainer(contentsOf: url) == nil, let start = FileReadability.firstBytes(of: url, count: 256 << 10)
        else { return false }
        return (try? ImageHeader(data: start)) != nil
    }
}
