import Foundation
import Testing

import SwiftVision
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Fixtures of the labeling and embedding tests.
public enum LabelingFixtures {
    /// The folder of the tiny models of `Tests/Python/Reference/tiny_models.py`, written once per test run.
    public static let tinyModels = Result<URL, any Error> {
        let folder = try Fixtures.temporaryDirectory()
        let python = Fixtures.cache.root.appendingPathComponent("tools-venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/tiny_models.py")
        let run = try Fixtures.run(python, [script.path, folder.path])
        guard run.status == 0 else { throw FixtureError(message: "tiny_models.py failed: \(run.errors)") }
        return folder
    }

    public static func tinyModel(_ name: String) throws -> LocalModel {
        LocalModel(url: try tinyModels.get().appendingPathComponent(name))
    }

    /// An 8×8 image of one colour.
    public static func plain(_ rgb: [UInt8]) throws -> VisionImage {
        try VisionImage(pixels: Data((0..<64).flatMap { _ in rgb }), width: 8, height: 8, format: .rgb)
    }

    /// `images`, each scaled to `side`×`side`, side by side from left to right in one upright RGB image.
    public static func sideBySide(_ images: VisionImage..., side: Int = 320) throws -> VisionImage {
        let parts = try images.map { try Fixtures.packed($0.resized(width: side, height: side).upright().buffer.converted(to: .rgb)) }
        let rowBytes = side * 3
        let pixels = (0..<side).flatMap { row in parts.flatMap { $0[row * rowBytes..<(row + 1) * rowBytes] } }
        return try VisionImage(pixels: Data(pixels), width: images.count * side, height: side, format: .rgb)
    }

    /// `image` re-encoded as a JPEG of `quality` after scaling by `scale`.
    public static func recompressed(_ image: VisionImage, scale: Double, quality: Int) throws -> VisionImage {
        let smaller = try image.resized(width: Int(Double(image.width) * scale), height: Int(Double(image.height) * scale))
        return try VisionImage(data: try smaller.encoded(as: .jpeg(quality: quality)))
    }
}
