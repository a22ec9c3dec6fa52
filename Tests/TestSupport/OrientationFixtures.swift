import Foundation
import Testing

import SwiftVisionCore

/// Files tagged with every EXIF orientation, written with Pillow by `Tests/Python/Reference/exif_orientation.py`:
/// their stored pixels follow the EXIF specification's table, and the script checks that Pillow's
/// `ImageOps.exif_transpose` turns each back into the upright picture.
public struct OrientationFixtures: Decodable, Sendable {
    /// A file whose stored pixels show the upright picture in `orientation`.
    public struct Oriented: Decodable, Sendable {
        public var file: String
        public var format: ImageFormat
        public var orientation: UInt8
    }

    /// A photo stored in `orientation`, and Pillow's upright decode of it (`ImageOps.exif_transpose`) as raw RGB.
    public struct Photo: Decodable, Sendable {
        public var file: String
        public var format: ImageFormat
        public var orientation: UInt8
        public var pillow: String
    }

    /// A PNG stored upright whose `eXIf` chunk is malformed (`case`: truncated or garbage).
    public struct Malformed: Decodable, Sendable {
        public var file: String
        public var `case`: String
    }

    /// The upright picture (a PNG without orientation).
    public var upright: String
    public var files: [Oriented]
    public var malformed: [Malformed]
    /// bus.jpg stored in every orientation as a JPEG and as a PNG.
    public var photos: [Photo]

    /// The fixtures, written once into a temporary folder; nil (and an issue recorded) if the reference
    /// environment is missing.
    public static let written: OrientationFixtures? = {
        let python = Fixtures.cache.root.appendingPathComponent("venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/exif_orientation.py")
        let folder = ScratchFolder.root.appendingPathComponent("orientation")
        guard let photo = try? Fixtures.sample("bus.jpg"),
            let run = try? Fixtures.run(python, [script.path, folder.path, photo.path]), run.status == 0,
            let fixtures = try? JSONDecoder().decode(OrientationFixtures.self, from: Data(run.output.utf8))
        else {
            Issue.record("could not write the orientation fixtures: run `make test` to set up \(python.path)")
            return nil
        }
        return fixtures
    }()

    /// The written fixtures, or a failed requirement.
    public static func require() throws -> OrientationFixtures { try #require(written) }

    /// The upright picture's pixels.
    public func uprightImage() throws -> VisionImage { try VisionImage(contentsOfFile: upright) }

    /// The oriented files in `format`, at least one per orientation.
    public func files(in format: ImageFormat) throws -> [Oriented] {
        let files = self.files.filter { $0.format == format }
        try #require(Set(files.map(\.orientation)) == Set(1...8), "\(format) files for every orientation")
        return files
    }
}
