import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// WordNet 3.0's noun synsets, read here from Debian's `wordnet-base` on their own, as the truth the
/// general labels are checked against.
struct WordNetNouns {
    /// Offset (`02084071`) → lemmas and hypernyms (`@` and `@i`).
    let synsets: [String: (lemmas: [String], hypernyms: [String])]

    static let installed: WordNetNouns? = try? WordNetNouns(path: "/usr/share/wordnet/data.noun")

    init(path: String) throws {
        var synsets: [String: (lemmas: [String], hypernyms: [String])] = [:]
        for line in try String(contentsOfFile: path, encoding: .isoLatin1).split(separator: "\n") where !line.hasPrefix("  ") {
            let fields = line.split(separator: " | ", maxSplits: 1)[0].split(separator: " ").map(String.init)
            let wordCount = Int(fields[3], radix: 16)!
            let lemmas = (0..<wordCount).map { fields[4 + 2 * $0] }
            let pointerCount = Int(fields[4 + 2 * wordCount])!
            let pointers = (0..<pointerCount).map { Array(fields[5 + 2 * wordCount + 4 * $0..<9 + 2 * wordCount + 4 * $0]) }
            let hypernyms = pointers.filter { ["@", "@i"].contains($0[0]) && $0[2] == "n" }.map { $0[1] }
            synsets[fields[0]] = (lemmas, hypernyms)
        }
        self.synsets = synsets
    }

    /// The ImageNet id `id` (`n02106662`) and all its hypernyms, as ImageNet ids.
    func ancestors(of id: String) -> Set<String> {
        var seen: Set<String> = []
        var pending = [String(id.dropFirst())]
        while let offset = pending.popLast() {
            guard seen.insert(offset).inserted else { continue }
            pending += synsets[offset]?.hypernyms ?? []
        }
        return Set(seen.map { "n" + $0 })
    }

    /// The lemmas of the ImageNet id `id`, lowercased, with spaces for underscores.
    func lemmas(of id: String) -> [String] {
        (synsets[String(id.dropFirst())]?.lemmas ?? []).map { $0.replacingOccurrences(of: "_", with: " ").lowercased() }
    }
}

@Suite struct GeneralLabelTests {
    static func wordNet() throws -> WordNetNouns {
        try #require(WordNetNouns.installed, "no /usr/share/wordnet/data.noun: run `make test` (installs wordnet-base)")
    }

    static func generalLabels() throws -> GeneralLabels {
        try GeneralLabels()
    }

    /// Whether a class with hypernyms `ancestors` falls under general label `label` of `general`.
    static func isUnder(_ ancestors: Set<String>, label: Int, of general: GeneralLabels) -> Bool {
        !ancestors.isDisjoint(with: general.synsets[label]) && ancestors.isDisjoint(with: general.exceptions[label])
    }

    static func labeler(max: Int = 5) throws -> ImageLabeler {
        var options = ImageLabelerOptions()
        options.shouldUseGeneralLabels = true
        options.confidenceThreshold = 0
        options.maxResultCount = max
        return try ImageLabeler.imageLabeler(options: options)
    }

    @Test func wordNetPutsKnownClassesUnderTheirGeneralSynsets() throws {
        let wordNet = try Self.wordNet()
        // German shepherd → dog → domestic animal; tabby → cat → domestic animal; school bus → bus →
        // public transport (WordNet's buses are conveyances, not vehicles); minivan → car → motor vehicle → vehicle.
        let shepherd = wordNet.ancestors(of: "n02106662")
        #expect(shepherd.isSuperset(of: ["n02084071", "n01317541", "n00015388"]))
        #expect(wordNet.ancestors(of: "n02123045").isSuperset(of: ["n02121620", "n01317541"]))
        let schoolBus = wordNet.ancestors(of: "n04146614")
        #expect(schoolBus.contains("n02924116") && schoolBus.contains("n04019101") && !schoolBus.contains("n04524313"))
        #expect(wordNet.ancestors(of: "n03770679").isSuperset(of: ["n02958343", "n04524313"]))
        #expect(wordNet.lemmas(of: "n02106662").contains("german shepherd"))

        let general = try Self.generalLabels()
        func names(ofClass id: String) throws -> Set<String> {
            let index = try #require(general.classSynsets.firstIndex(of: id))
            return Set(general.classLabels[index].map { general.names[$0] })
        }
        #expect(try names(ofClass: "n02106662") == ["Animal", "Mammal", "Dog", "Pet"])
        #expect(try names(ofClass: "n02123045").isSuperset(of: ["Cat", "Pet", "Animal"]))
        #expect(try names(ofClass: "n04146614") == ["Bus", "Vehicle"])
        #expect(try names(ofClass: "n07920052").isSuperset(of: ["Drink", "Food"]))
        #expect(try names(ofClass: "n03770679") == ["Vehicle", "Car", "Truck"])
    }

    @Test func everyClassCarriesExactlyTheLabelsAboveItInWordNet() throws {
        let wordNet = try Self.wordNet()
        let general = try Self.generalLabels()
        #expect(general.classSynsets.count == 1000 && (40...80).contains(general.names.count))
        #expect(Set(general.names).count == general.names.count)
        for synsets in general.synsets + general.exceptions.filter({ !$0.isEmpty }) {
            #expect(!synsets.isEmpty && synsets.allSatisfy { !wordNet.lemmas(of: $0).isEmpty }, "\(synsets)")
        }
        for (id, labels) in zip(general.classSynsets, general.classLabels) {
            let ancestors = wordNet.ancestors(of: id)
            let expected = general.names.indices.filter { Self.isUnder(ancestors, label: $0, of: general) }
            #expect(labels == expected, "\(id)")
        }
    }

    @Test func classOrderMatchesTheClassifiersLabelFile() throws {
        let wordNet = try Self.wordNet()
        let general = try Self.generalLabels()
        let names = try #require(try Self.labeler().classNames)
        #expect(names.count == general.classSynsets.count)
        for (name, id) in zip(names, general.classSynsets) {
            #expect(wordNet.lemmas(of: id).contains(name.lowercased()), "\(name) is not a lemma of \(id)")
        }
    }

    @Test func photosOfKnownContentGetTheirGeneralLabel() throws {
        let labeler = try Self.labeler()
        let names = try Self.generalLabels().names
        for (photo, expected) in [
            ("dog.jpg", ["Dog"]), ("chelsea.png", ["Cat", "Pet"]), ("bus.jpg", ["Bus", "Vehicle"]),
            ("coffee.png", ["Drink", "Food"]),
        ] {
            let labels = try labeler.results(in: try Fixtures.image(photo).mlKitImage)
            #expect(Set(labels.map(\.text)).isSuperset(of: expected), "\(photo): \(labels)")
            #expect(labels.count == 5 && labels.map(\.confidence) == labels.map(\.confidence).sorted(by: >))
            #expect(labels.allSatisfy { names[$0.index] == $0.text && (0...1).contains($0.confidence) })
        }
    }

    @Test func confidenceIsTheSumOfTheClassProbabilitiesBelowInWordNet() throws {
        let wordNet = try Self.wordNet()
        let image = try Fixtures.image("chelsea.png")
        var plain = ImageLabelerOptions()
        plain.confidenceThreshold = 0
        plain.maxResultCount = 1000
        let classes = try ImageLabeler.imageLabeler(options: plain).results(in: image.mlKitImage)
        let general = try Self.generalLabels()
        let labels = try Self.labeler(max: 100).results(in: image.mlKitImage)
        #expect(!labels.isEmpty)
        let ancestors = general.classSynsets.map(wordNet.ancestors)
        for label in labels {
            let below = classes.filter { Self.isUnder(ancestors[$0.index], label: label.index, of: general) }
            #expect(abs(below.map(\.confidence).reduce(0, +) - label.confidence) < 1e-4, "\(label)")
        }
        let cat = try #require(labels.first { $0.text == "Cat" })
        #expect(cat.confidence > 0.9)
    }

    @Test func generalLabelsRefuseCustomModelsAndNameTheSetUpStepWhenMissing() throws {
        #expect(throws: ClassificationError.generalLabelsNeedBaseModel) {
            var options = LabelsTask.Options()
            options.general = true
            options.model = try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite").path
            _ = try LabelsTask(options: options)
        }
        let missing = URL(fileURLWithPath: "/nonexistent/general_labels.json")
        #expect(throws: ClassificationError.generalLabelsNotInstalled(path: missing.path)) { try GeneralLabels(contentsOf: missing) }
        #expect(ClassificationError.generalLabelsNotInstalled(path: missing.path).description.contains("scripts/build-general-labels.py"))
    }

    @Test func labelCommandPrintsGeneralLabels() throws {
        let dog = try Fixtures.sample("dog.jpg").path
        let run = try Fixtures.run(Fixtures.executable, ["labels", "--general", "--json", "--threshold", "0.3", dog])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        let labels = try #require(lines.first?["labels"] as? [[String: Any]])
        #expect(lines.count == 1 && lines[0]["file"] as? String == dog && !labels.isEmpty)
        let names = try Self.generalLabels().names
        let dogLabel = try #require(labels.first { $0["text"] as? String == "Dog" })
        #expect(dogLabel["index"] as? Int == names.firstIndex(of: "Dog") && (dogLabel["confidence"] as? Double ?? 0) >= 0.3)

        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["lib", "models"] {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: Fixtures.cache.root.appendingPathComponent(name))
        }
        let missing = try Fixtures.run(
            Fixtures.executable, ["labels", "--general", "--json", dog], environment: ["SWIFTVISION_CACHE": folder.path])
        #expect(missing.status == 1)
        let error = Fixtures.jsonLines(missing.output).first?["error"] as? String
        #expect(error?.contains("scripts/build-general-labels.py") == true, "\(missing.output)")
    }
}
