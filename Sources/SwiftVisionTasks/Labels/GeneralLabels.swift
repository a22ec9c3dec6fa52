import Foundation
import SwiftVisionRuntime

/// General labels ("Dog", "Pet", "Vehicle"), as ML Kit's base labeler gives them, over the 1000
/// ImageNet classes of the model zoo's classifier.
///
/// Each general label stands for one or a few WordNet 3.0 noun synsets, and an ImageNet class carries
/// it when one of them is among the class's hypernyms (the German shepherd is a dog and a domestic
/// animal: "Dog" and "Pet") and none of the label's ``exceptions`` is (WordNet's cars are containers,
/// "Container" leaves out wheeled vehicles). `scripts/build-general-labels.py` derives them from Debian's WordNet and
/// writes them into the cache (`make run` and `make test` run it); its list names every synset.
///
/// A general label's confidence is the sum of the softmax probabilities of the ImageNet classes under
/// it (at most 1): "Dog" gathers what the model spreads over its 118 dog breeds.
public struct GeneralLabels: Sendable, Equatable {
    /// The display names; a general label's index is its position here.
    public let names: [String]
    /// The WordNet 3.0 noun synsets each general label stands for, as ImageNet ids (`n02084071`).
    public let synsets: [[String]]
    /// The synsets whose classes each general label leaves out, as ImageNet ids; mostly none.
    public let exceptions: [[String]]
    /// The WordNet id of each ImageNet class, in the classifier's order.
    public let classSynsets: [String]
    /// The general labels of each ImageNet class, as indices into ``names``.
    public let classLabels: [[Int]]

    /// The file set-up writes: `labels/general_labels.json` in the cache.
    public static var installedFile: URL {
        SwiftVisionCache.current.root.appendingPathComponent("labels/general_labels.json")
    }

    private struct File: Decodable {
        struct GeneralLabel: Decodable {
            let name: String
            let synsets: [String]
            let except: [String]
        }

        let labels: [GeneralLabel]
        let classSynsets: [String]
        let classLabels: [[Int]]
    }

    /// Reads the general labels from `url`; a missing or malformed file is refused with
    /// ``ClassificationError/generalLabelsNotInstalled(path:)`` or ``ClassificationError/generalLabelsUnreadable(path:reason:)``.
    public init(contentsOf url: URL = installedFile) throws {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ClassificationError.generalLabelsNotInstalled(path: url.path)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw ClassificationError.generalLabelsUnreadable(path: url.path, reason: "it is not the expected JSON")
        }
        let indices = file.labels.indices
        guard file.classSynsets.count == file.classLabels.count,
            file.classLabels.allSatisfy({ $0.allSatisfy(indices.contains) })
        else {
            throw ClassificationError.generalLabelsUnreadable(path: url.path, reason: "its classes do not match its labels")
        }
        names = file.labels.map(\.name)
        synsets = file.labels.map(\.synsets)
        exceptions = file.labels.map(\.except)
        classSynsets = file.classSynsets
        classLabels = file.classLabels
    }

    /// The general labels of the classifier that `LabelsTask` makes for `options`, which has
    /// `classCount` classes: only the base model's ImageNet classes have them.
    static func forClassifier(of options: LabelsTask.Options, classCount: Int) throws -> GeneralLabels {
        guard options.model == nil else { throw ClassificationError.generalLabelsNeedBaseModel }
        let labels = try GeneralLabels()
        guard labels.classLabels.count == classCount else {
            throw ClassificationError.generalLabelsUnreadable(
                path: installedFile.path, reason: "it has \(labels.classLabels.count) classes, the classifier \(classCount)")
        }
        return labels
    }

    /// The confidence of each general label: the sum of the probabilities of its classes, at most 1.
    public func confidences(classProbabilities: [Float]) -> [Float] {
        var sums = [Float](repeating: 0, count: names.count)
        for (probability, labels) in zip(classProbabilities, classLabels) {
            for label in labels { sums[label] += probability }
        }
        return sums.map { min($0, 1) }
    }
}
