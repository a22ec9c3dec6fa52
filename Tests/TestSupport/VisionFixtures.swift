import Foundation
import Testing

import SwiftVision
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Scenes with known truth built by Tests/Python/Reference/vision_fixtures.py (see there): each kind is
/// generated once per test run into a temporary folder.
public enum VisionFixtures {
    public struct RectangleScene: Decodable, Sendable {
        public var file: String
        public var rectangles: [[[Double]]]
        public var texture: String?
    }

    public struct BarcodeScene: Decodable, Sendable {
        public struct Code: Decodable, Sendable {
            public var format: String
            public var text: String
            /// The symbol's corners without its quiet zone: top left, top right, bottom right, bottom left.
            public var symbol: [[Double]]
        }
        public var file: String
        public var barcodes: [Code]
    }

    public struct TextScene: Decodable, Sendable {
        public struct Word: Decodable, Sendable {
            public var text: String
            public var box: [Double]
        }
        public var file: String
        public var words: [Word]

        public init(from decoder: Decoder) throws {
            enum Keys: String, CodingKey { case file, words }
            let container = try decoder.container(keyedBy: Keys.self)
            file = try container.decode(String.self, forKey: .file)
            // Scenes whose words were moved (turned, pasted in perspective) list the words only.
            if let words = try? container.decode([Word].self, forKey: .words) {
                self.words = words
            } else {
                words = try container.decode([String].self, forKey: .words).map { Word(text: $0, box: []) }
            }
        }
    }

    public static let rectangles: [RectangleScene] = generate("rectangles")
    public static let barcodes: [BarcodeScene] = generate("barcodes")
    public static let text: [TextScene] = generate("text")

    /// The scene written as `name`.
    public static func scene<Scene>(_ name: String, in scenes: [Scene], file: KeyPath<Scene, String>) throws -> Scene {
        try #require(scenes.first { URL(fileURLWithPath: $0[keyPath: file]).lastPathComponent == name }, "no scene \(name)")
    }

    /// Runs the fixture script for `kind` and decodes its manifest; an empty list (and failed
    /// expectations downstream) if the reference environment is missing.
    private static func generate<Scene: Decodable>(_ kind: String) -> [Scene] {
        let python = Fixtures.cache.root.appendingPathComponent("venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/vision_fixtures.py")
        let folder = ScratchFolder.root.appendingPathComponent("fixtures-\(kind)")
        guard let run = try? Fixtures.run(python, [script.path, kind, folder.path, Fixtures.cache.samples.path]),
            run.status == 0, let scenes = try? JSONDecoder().decode([Scene].self, from: Data(run.output.utf8))
        else {
            Issue.record("could not build the \(kind) fixtures: run `make test` to set up \(python.path)")
            return []
        }
        return scenes
    }
}

extension Quadrilateral {
    /// The corners as listed by the fixture script: top left, top right, bottom right, bottom left.
    public init(_ corners: [[Double]]) {
        let points = corners.map { CGPoint(x: $0[0], y: $0[1]) }
        self.init(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
    }

    /// The largest corner distance to `other` over the ways of naming the same four corners
    /// (any starting corner, either direction).
    public func largestCornerDistance(toAnyOrderOf other: Quadrilateral) -> Double {
        let points = other.corners
        let orders = (0..<4).map { Array(points[$0...] + points[..<$0]) }
        return (orders + orders.map { Array($0.reversed()) }).map { order in
            zip(corners, order).map { hypot(Double($0.x - $1.x), Double($0.y - $1.y)) }.max()!
        }.min()!
    }
}

extension CGRect {
    /// Whether every edge of the two rectangles is within `tolerance` of the other's.
    public func equalTo(_ other: CGRect, within tolerance: CGFloat) -> Bool {
        abs(minX - other.minX) <= tolerance && abs(minY - other.minY) <= tolerance && abs(width - other.width) <= tolerance
            && abs(height - other.height) <= tolerance
    }
}
