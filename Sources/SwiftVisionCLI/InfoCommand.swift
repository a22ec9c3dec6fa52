import ArgumentParser
import Foundation
import SwiftVision

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Describe image files: upright size, EXIF orientation and format.")

    @Argument(help: "Image files (JPEG, PNG, WebP, BMP, TIFF, HEIF/HEIC, AVIF, GIF).")
    var images: [String]

    @Flag(help: "Print JSON Lines.")
    var json = false

    struct Report {
        var file: String
        var width: Int?
        var height: Int?
        var orientation: Int?
        var format: String?
        var error: String?

        /// The report as its JSON line.
        var jsonLine: JSONObjectLine {
            var line = JSONObjectLine()
            line.append("file", file)
            line.append("width", width)
            line.append("height", height)
            line.append("orientation", orientation)
            line.append("format", format)
            line.append("error", error)
            return line
        }
    }

    func run() throws {
        var failures = 0
        for path in images {
            let report: Report
            do {
                try MediaFiles.requireImage(MediaFiles.source(path), for: "info")
                let data = try ImageError.contents(atPath: path)
                let header = try ImageHeader(data: data)
                try ImageLimits.default.check(width: header.width, height: header.height)
                let swaps = header.orientation.swapsDimensions
                report = Report(
                    file: path, width: swaps ? header.height : header.width, height: swaps ? header.width : header.height,
                    orientation: Int(header.orientation.rawValue), format: header.format.rawValue)
            } catch {
                failures += 1
                report = Report(file: path, error: "\(error.localizedDescription)")
            }
            if json {
                StandardStream.output.write(report.jsonLine.text)
            } else if let error = report.error {
                Diagnostics.note("\(path): \(error)")
            } else {
                print("\(path): \(report.width!)×\(report.height!) \(report.format!.uppercased()), orientation \(report.orientation!)")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
