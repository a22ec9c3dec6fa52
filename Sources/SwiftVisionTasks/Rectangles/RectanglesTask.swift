import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Finds rectangles (pages, cards, screens) in perspective, without a model.
public struct RectanglesTask: VisionTask {
    /// The settings of the rectangles task, named as the `rectangles` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// At most this many rectangles, most prominent first; 0 for no limit.
        public var max = 1
        /// Smallest ratio of shorter to longer side, 0–1.
        public var minAspect: Float = 0.5
        /// Largest ratio of shorter to longer side, 0–1.
        public var maxAspect: Float = 1
        /// Shortest side as a fraction of the image's shorter side, 0–1.
        public var minSize: Float = 0.2
        /// How far, in degrees, each corner may be from a right angle.
        public var quadratureTolerance: Float = 30
        /// Lowest confidence to report, 0–1.
        public var minConfidence: Float = 0

        /// The default settings (Vision's).
        public init() {}

        package var detectorOptions: RectangleEngineOptions {
            RectangleEngineOptions(
                minimumAspectRatio: minAspect, maximumAspectRatio: maxAspect, quadratureTolerance: quadratureTolerance,
                minimumSize: minSize, minimumConfidence: minConfidence, maximumObservations: max)
        }
    }

    /// The rectangles of one image.
    public struct Output: Codable, Sendable, Equatable {
        /// The rectangles, most prominent first.
        public var rectangles: [DetectedRectangle]

        /// The rectangles `rectangles`.
        public init(rectangles: [DetectedRectangle]) {
            self.rectangles = rectangles
        }
    }

    /// Named `rectangles`; needs no model.
    public static let descriptor = TaskDescriptor(
        name: "rectangles", title: "Rectangles", summary: "Rectangles in perspective: pages, cards, screens")
    /// The default settings (Vision's).
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let detector: RectangleEngine

    /// Checks the options, naming the one at fault by its key here (`minSize`); there is no model to load.
    public init(options: Options, store: ModelStore) throws {
        do {
            try options.detectorOptions.validate()
        } catch let error as VisionTaskError {
            throw error.renamingOption([
                "minimumAspectRatio": "minAspect", "maximumAspectRatio": "maxAspect", "minimumSize": "minSize",
                "minimumConfidence": "minConfidence", "maximumObservations": "max",
            ])
        }
        self.options = options
        detector = RectangleEngine(options: options.detectorOptions)
    }

    /// The rectangles in one image, the most prominent first.
    public func output(for image: VisionImage) throws -> Output {
        Output(rectangles: try detector.results(in: image))
    }
}

extension RectanglesTask.Options {
    /// The task's options for the ML Kit-style `options`.
    package init(_ options: RectangleEngineOptions) {
        self.init()
        minAspect = options.minimumAspectRatio
        maxAspect = options.maximumAspectRatio
        quadratureTolerance = options.quadratureTolerance
        minSize = options.minimumSize
        minConfidence = options.minimumConfidence
        max = options.maximumObservations
    }
}
