import Foundation
import SwiftVisionTasks

/// A class of a classification result, as MediaPipe's `ResultCategory`.
public struct ResultCategory: Sendable, Hashable {
    /// The class's index in the model's labels.
    public let index: Int
    /// The model's confidence, 0–1.
    public let score: Float
    /// The class's label.
    public let categoryName: String?
    /// The label to show.
    public let displayName: String?

    /// A category of `index` named `categoryName`, shown as `displayName`.
    public init(index: Int, score: Float, categoryName: String?, displayName: String?) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }

    /// The category of a core label; unnamed when the model has no labels.
    init(_ label: ClassLabel) {
        let name = label.text.isEmpty ? nil : label.text
        self.init(index: label.index, score: label.confidence, categoryName: name, displayName: name)
    }
}

/// The classes of one classification head, as MediaPipe's `Classifications`.
public struct Classifications: Sendable, Hashable {
    /// The head's index among the model's outputs.
    public let headIndex: Int
    /// The head's name, from the model's metadata; nil when it has none.
    public let headName: String?
    /// The classes that passed the options, the most confident first.
    public let categories: [ResultCategory]
}

/// The classifications of one image, as MediaPipe's `ClassificationResult`: one entry per head.
public struct ClassificationResult: Sendable, Hashable {
    /// One entry per classification head, in output order.
    public let classifications: [Classifications]
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int
}

/// A point of a detection in 0…1 of the image, as MediaPipe's `NormalizedKeypoint`.
public struct NormalizedKeypoint: Sendable, Hashable {
    /// Where the point is, in 0…1 of the upright image's width and height.
    public let location: CGPoint
    /// The point's name, where the model names its points.
    public let label: String?
    /// The model's confidence in the point, where it gives one.
    public let score: Float?
}

/// One thing found, as MediaPipe's `Detection`: its classes, its box and its points.
public struct Detection: Sendable, Hashable {
    /// The classes of what was found, the most confident first.
    public let categories: [ResultCategory]
    /// The box around it, in pixels of the upright image.
    public let boundingBox: CGRect
    /// Its points (a face's eyes, nose, mouth and ears), nil for a model that gives none.
    public let keypoints: [NormalizedKeypoint]?
}
