import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Why ``ImageLabeler`` options were refused.
public enum ClassificationError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The confidence threshold is outside 0–1.
    case invalidConfidenceThreshold(Float)
    /// The most labels to report is not positive.
    case invalidMaxResultCount(Int)
    /// An allowlist and a denylist were both given (MediaPipe takes one or the other).
    case conflictingCategoryLists
    /// Category lists name classes, and the model has no label file.
    case categoryListsNeedLabels
    /// A category list names a class the model does not have.
    case unknownCategory(String)
    /// General labels were asked for and their file is not in the cache.
    case generalLabelsNotInstalled(path: String)
    /// The general labels' file cannot be used.
    case generalLabelsUnreadable(path: String, reason: String)
    /// General labels were asked for with a custom model; they exist for the base model's ImageNet classes.
    case generalLabelsNeedBaseModel

    /// A one-line explanation of what was refused.
    public var description: String {
        switch self {
        case .invalidConfidenceThreshold(let value): "the confidence threshold \(value) is outside 0–1"
        case .invalidMaxResultCount(let value): "the most labels to report must be at least 1, not \(value)"
        case .conflictingCategoryLists: "give a category allowlist or a denylist, not both"
        case .categoryListsNeedLabels: "category allow- and denylists need a model with a label file in its metadata"
        case .unknownCategory(let name): "the model has no category named \"\(name)\""
        case .generalLabelsNotInstalled(let path):
            "the general labels are not installed (looked for \(path)); run `scripts/build-general-labels.py` "
                + "in SwiftVision's checkout after `swiftvision setup` and `scripts/build-models.sh` (`make run` runs all three)"
        case .generalLabelsUnreadable(let path, let reason):
            "the general labels in \(path) cannot be used: \(reason); run `scripts/build-general-labels.py` to rewrite them"
        case .generalLabelsNeedBaseModel: "general labels exist for the base model's ImageNet classes only, not a custom model"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }

    /// Whether the caller's options are at fault (a usage error: the command line's exit status 64, the
    /// service's 400 `bad_option`), rather than the installation (the general labels' file missing or
    /// unreadable: set-up has to run). Every case is listed, so a new one must be classified here.
    public var isInvalidOption: Bool {
        switch self {
        case .invalidConfidenceThreshold, .invalidMaxResultCount, .conflictingCategoryLists, .categoryListsNeedLabels,
            .unknownCategory, .generalLabelsNeedBaseModel:
            true
        case .generalLabelsNotInstalled, .generalLabelsUnreadable:
            false
        }
    }
}
