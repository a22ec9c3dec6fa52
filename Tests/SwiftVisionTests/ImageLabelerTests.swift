import Foundation
import Testing

@testable import MLKit
@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct ImageLabelerTests {
    static func labeler(threshold: Float = 0.5, max: Int = 10, configure: (inout ImageLabelerOptions) -> Void = { _ in }) throws -> ImageLabeler {
        var options = ImageLabelerOptions()
        options.confidenceThreshold = threshold
        options.maxResultCount = max
        configure(&options)
        return try ImageLabeler(options: options)
    }

    @Test func labelsPhotosOfKnownContent() throws {
        let labeler = try Self.labeler()
        let coffee = try labeler.results(in: try Fixtures.image("coffee.png"))
        #expect(coffee.first?.text == "espresso" && (coffee.first?.confidence ?? 0) > 0.85, "\(coffee)")
        let bus = try labeler.results(in: try Fixtures.image("bus.jpg"))
        #expect(bus.first?.text.hasSuffix("bus") == true, "\(bus)")
        let cat = try Self.labeler(threshold: 0, max: 3).results(in: try Fixtures.image("chelsea.png"))
        #expect(Set(cat.map(\.text)) == ["tiger cat", "Egyptian cat", "tabby"], "\(cat)")
        // The base model reports only labels at or above ML Kit's default threshold, best first.
        for photo in ["coffee.png", "chelsea.png", "bus.jpg", "dog.jpg", "astronaut.png"] {
            let labels = try labeler.results(in: try Fixtures.image(photo))
            #expect(labels.allSatisfy { $0.confidence >= 0.5 }, "\(photo): \(labels)")
            #expect(labels.map(\.confidence) == labels.map(\.confidence).sorted(by: >))
        }
    }

    @Test func thresholdAndResultCountShapeTheList() throws {
        let coffee = try Fixtures.image("coffee.png")
        let all = try Self.labeler(threshold: 0, max: 1000).results(in: coffee)
        #expect(all.count == 1000 && Set(all.map(\.index)) == Set(0..<1000))
        #expect(abs(all.map(\.confidence).reduce(0, +) - 1) < 1e-3)
        let five = try Self.labeler(threshold: 0, max: 5).results(in: coffee)
        #expect(five == Array(all.prefix(5)))
        #expect(try Self.labeler(threshold: 0.99).results(in: coffee).isEmpty)
        let index = try #require(all.first).index
        #expect(all.first?.text == "espresso" && index == 967)
    }

    @Test func categoryListsFilterByName() throws {
        let coffee = try Fixtures.image("coffee.png")
        let denied = try Self.labeler(threshold: 0, max: 1) { $0.categoryDenylist = ["espresso"] }.results(in: coffee)
        #expect(denied.first?.text == "cup")
        let allowed = try Self.labeler(threshold: 0) { $0.categoryAllowlist = ["coffee mug", "cup", "tabby"] }.results(in: coffee)
        #expect(allowed.map(\.text) == ["cup", "coffee mug", "tabby"])
        // "crane" names two ImageNet classes (the bird and the machine): both are allowed.
        let cranes = try Self.labeler(threshold: 0) { $0.categoryAllowlist = ["crane"] }.results(in: coffee)
        #expect(Set(cranes.map(\.index)) == [134, 517])
    }

    @Test func badOptionsGetClearErrors() throws {
        #expect(throws: ImageLabelerError.conflictingCategoryLists) {
            try Self.labeler { $0.categoryAllowlist = ["cup"]; $0.categoryDenylist = ["espresso"] }
        }
        #expect(throws: ImageLabelerError.unknownCategory("latte art")) { try Self.labeler { $0.categoryAllowlist = ["latte art"] } }
        #expect(throws: ImageLabelerError.invalidConfidenceThreshold(1.5)) { try Self.labeler(threshold: 1.5) }
        #expect(throws: ImageLabelerError.invalidMaxResultCount(0)) { try Self.labeler(max: 0) }
        #expect(throws: ImageLabelerError.categoryListsNeedLabels) {
            var options = ImageLabelerOptions(localModel: try LabelingFixtures.tinyModel("colour_classifier.tflite"))
            options.categoryDenylist = ["red"]
            return try ImageLabeler(options: options)
        }
    }

    @Test func classifiesEachRegionInOneCall() async throws {
        let pair = try LabelingFixtures.sideBySide(try Fixtures.image("coffee.png"), try Fixtures.image("chelsea.png"))
        let labeler = try Self.labeler(threshold: 0.2, max: 3)
        let regions = [CGRect(x: 0, y: 0, width: 320, height: 320), CGRect(x: 320, y: 0, width: 320, height: 320)]
        let labels = try labeler.results(in: pair, regions: regions)
        #expect(labels.count == 2)
        #expect(labels[0].first?.text == "espresso", "\(labels[0])")
        #expect(labels[1].first.map { ["tiger cat", "Egyptian cat", "tabby"].contains($0.text) } == true, "\(labels[1])")
        // The same as classifying each crop on its own.
        for (region, regionLabels) in zip(regions, labels) {
            let alone = try labeler.results(in: try pair.cropped(to: region))
            #expect(zip(alone, regionLabels).allSatisfy { $0.index == $1.index && abs($0.confidence - $1.confidence) < 1e-4 })
        }
        #expect(try await labeler.process(pair, regions: regions) == labels)
        #expect(try labeler.results(in: pair, regions: []).isEmpty)
        #expect(throws: ImageError.self) { try labeler.results(in: pair, regions: [CGRect(x: 700, y: 0, width: 50, height: 50)]) }
    }

    @Test func asyncProcessingMatchesResults() async throws {
        let labeler = try Self.labeler()
        let image = try Fixtures.image("bus.jpg")
        #expect(try await labeler.process(image) == (try labeler.results(in: image)))
    }

    @Test func customModelsBringTheirOwnLabels() throws {
        // The float16 variant, loaded as a custom model, reads its labels from its own metadata.
        let fp16 = try ImageLabeler(options: ImageLabelerOptions(localModel: LocalModel(url: try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite"))))
        #expect(fp16.classNames?.count == 1000)
        #expect(try fp16.results(in: try Fixtures.image("coffee.png")).first?.text == "espresso")
        // A model without label metadata gives labels with an index and empty text, as ML Kit does.
        var options = ImageLabelerOptions(localModel: try LabelingFixtures.tinyModel("colour_classifier.tflite"))
        options.confidenceThreshold = 0.6
        let colours = try ImageLabeler(options: options)
        #expect(colours.classNames == nil)
        for (rgb, expected) in [([UInt8]([230, 20, 20]), 0), ([20, 230, 20], 1), ([20, 20, 230], 2)] {
            let labels = try colours.results(in: try LabelingFixtures.plain(rgb))
            #expect(labels.count == 1 && labels[0].index == expected && labels[0].text.isEmpty, "\(rgb): \(labels)")
        }
    }

    @Test func refusesModelsThatAreNotClassifiers() throws {
        for name in ["face_detection_short_range.tflite", "yolov3_tiny_coco.tflite"] {
            let options = ImageLabelerOptions(localModel: LocalModel(url: try Fixtures.model(name)))
            let error = #expect(throws: LiteRTError.self) { try ImageLabeler(options: options) }
            #expect(error?.description.contains("is not an image classifier") == true, "\(String(describing: error))")
        }
        #expect(throws: LiteRTError.self) {
            try ImageLabeler(options: ImageLabelerOptions(localModel: try LabelingFixtures.tinyModel("two_head_embedder.tflite")))
        }
        #expect(throws: ModelManagerError.fileNotFound(path: "/nonexistent/model.tflite")) {
            try ImageLabeler(options: ImageLabelerOptions(localModel: LocalModel(path: "/nonexistent/model.tflite")))
        }
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let remote = RemoteModel(name: "never-downloaded", url: URL(string: "http://127.0.0.1:9/model.tflite")!)
        #expect(throws: ModelManagerError.notDownloaded(name: "never-downloaded")) {
            try ImageLabeler(options: ImageLabelerOptions(remoteModel: remote, modelManager: ModelManager(directory: folder)))
        }
    }

    @Test func visionRequestClassifiesEveryClass() async throws {
        let observations = try await ImageRequestHandler(try Fixtures.image("coffee.png")).perform(ClassifyImageRequest())
        #expect(observations.count == 1000)
        #expect(observations.first?.identifier == "espresso" && observations.first?.index == 967)
        #expect(observations.map(\.confidence) == observations.map(\.confidence).sorted(by: >))
    }
}
