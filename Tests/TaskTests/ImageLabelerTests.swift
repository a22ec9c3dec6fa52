import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct ImageLabelerTests {
    static func labeler(threshold: Float = 0.5, max: Int = 10, configure: (ImageLabelerOptions) -> Void = { _ in }) throws -> ImageLabeler {
        let options = ImageLabelerOptions()
        options.confidenceThreshold = NSNumber(value: threshold)
        options.maxResultCount = max
        configure(options)
        return try ImageLabeler.imageLabeler(options: options)
    }

    @Test func labelsPhotosOfKnownContent() throws {
        let labeler = try Self.labeler()
        let coffee = try labeler.results(in: try Fixtures.image("coffee.png").mlKitImage)
        #expect(coffee.first?.text == "espresso" && (coffee.first?.confidence ?? 0) > 0.85, "\(coffee)")
        let bus = try labeler.results(in: try Fixtures.image("bus.jpg").mlKitImage)
        #expect(bus.first?.text.hasSuffix("bus") == true, "\(bus)")
        let cat = try Self.labeler(threshold: 0, max: 3).results(in: try Fixtures.image("chelsea.png").mlKitImage)
        #expect(Set(cat.map(\.text)) == ["tiger cat", "Egyptian cat", "tabby"], "\(cat)")
        // The base model reports only labels at or above ML Kit's default threshold, best first.
        for photo in ["coffee.png", "chelsea.png", "bus.jpg", "dog.jpg", "astronaut.png"] {
            let labels = try labeler.results(in: try Fixtures.image(photo).mlKitImage)
            #expect(labels.allSatisfy { $0.confidence >= 0.5 }, "\(photo): \(labels)")
            #expect(labels.map(\.confidence) == labels.map(\.confidence).sorted(by: >))
        }
    }

    @Test func thresholdAndResultCountShapeTheList() throws {
        let coffee = try Fixtures.image("coffee.png").mlKitImage
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
        let coffee = try Fixtures.image("coffee.png").mlKitImage
        let denied = try Self.labeler(threshold: 0, max: 1) { $0.categoryDenylist = ["espresso"] }.results(in: coffee)
        #expect(denied.first?.text == "cup")
        let allowed = try Self.labeler(threshold: 0) { $0.categoryAllowlist = ["coffee mug", "cup", "tabby"] }.results(in: coffee)
        #expect(allowed.map(\.text) == ["cup", "coffee mug", "tabby"])
        // "crane" names two ImageNet classes (the bird and the machine): both are allowed.
        let cranes = try Self.labeler(threshold: 0) { $0.categoryAllowlist = ["crane"] }.results(in: coffee)
        #expect(Set(cranes.map(\.index)) == [134, 517])
    }

    @Test func badOptionsGetClearErrors() throws {
        // ML Kit's factories do not throw: the labeler reports its options' error at each call.
        let image = try Fixtures.image("coffee.png").mlKitImage
        #expect(throws: ClassificationError.conflictingCategoryLists) {
            try unwrappingMLKitError {
                try Self.labeler { $0.categoryAllowlist = ["cup"]; $0.categoryDenylist = ["espresso"] }.results(in: image)
            }
        }
        #expect(throws: ClassificationError.unknownCategory("latte art")) {
            try unwrappingMLKitError { try Self.labeler { $0.categoryAllowlist = ["latte art"] }.results(in: image) }
        }
        #expect(throws: ClassificationError.invalidConfidenceThreshold(1.5)) {
            try unwrappingMLKitError { try Self.labeler(threshold: 1.5).results(in: image) }
        }
        #expect(throws: ClassificationError.invalidMaxResultCount(0)) {
            try unwrappingMLKitError { try Self.labeler(max: 0).results(in: image) }
        }
        #expect(throws: ClassificationError.categoryListsNeedLabels) {
            let options = CustomImageLabelerOptions(localModel: try LabelingFixtures.tinyModel("colour_classifier.tflite"))
            options.categoryDenylist = ["red"]
            return try unwrappingMLKitError { try ImageLabeler.imageLabeler(options: options).results(in: image) }
        }
    }

    @Test func classifiesEachRegionInOneCall() async throws {
        let pair = try LabelingFixtures.sideBySide(try Fixtures.image("coffee.png"), try Fixtures.image("chelsea.png")).mlKitImage
        let labeler = try Self.labeler(threshold: 0.2, max: 3)
        let regions = [CGRect(x: 0, y: 0, width: 320, height: 320), CGRect(x: 320, y: 0, width: 320, height: 320)]
        let labels = try labeler.results(in: pair, regions: regions)
        #expect(labels.count == 2)
        #expect(labels[0].first?.text == "espresso", "\(labels[0])")
        #expect(labels[1].first.map { ["tiger cat", "Egyptian cat", "tabby"].contains($0.text) } == true, "\(labels[1])")
        // The same as classifying each crop on its own.
        for (region, regionLabels) in zip(regions, labels) {
            let alone = try labeler.results(in: try pair.taskImage.cropped(to: region).mlKitImage)
            #expect(zip(alone, regionLabels).allSatisfy { $0.index == $1.index && abs($0.confidence - $1.confidence) < 1e-4 })
        }
        #expect(try await labeler.process(pair, regions: regions) == labels)
        #expect(try labeler.results(in: pair, regions: []).isEmpty)
        #expect(throws: ImageError.self) {
            try unwrappingMLKitError { try labeler.results(in: pair, regions: [CGRect(x: 700, y: 0, width: 50, height: 50)]) }
        }
    }

    @Test func asyncProcessingMatchesResults() async throws {
        let labeler = try Self.labeler()
        let image = try Fixtures.image("bus.jpg").mlKitImage
        #expect(try await labeler.process(image) == (try labeler.results(in: image)))
    }

    @Test func customModelsBringTheirOwnLabels() throws {
        // The float16 variant, loaded as a custom model, reads its labels from its own metadata.
        let fp16 = try ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: LocalModel(url: try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite"))))
        #expect(fp16.classNames?.count == 1000)
        #expect(try fp16.results(in: try Fixtures.image("coffee.png").mlKitImage).first?.text == "espresso")
        // A model without label metadata gives labels with an index and empty text, as ML Kit does.
        let options = CustomImageLabelerOptions(localModel: try LabelingFixtures.tinyModel("colour_classifier.tflite"))
        options.confidenceThreshold = 0.6
        let colours = try ImageLabeler.imageLabeler(options: options)
        #expect(colours.classNames == nil)
        for (rgb, expected) in [([UInt8]([230, 20, 20]), 0), ([20, 230, 20], 1), ([20, 20, 230], 2)] {
            let labels = try colours.results(in: try LabelingFixtures.plain(rgb).mlKitImage)
            #expect(labels.count == 1 && labels[0].index == expected && labels[0].text.isEmpty, "\(rgb): \(labels)")
        }
    }

    @Test func refusesModelsThatAreNotClassifiers() throws {
        let image = try Fixtures.image("coffee.png").mlKitImage
        for name in ["face_detection_short_range.tflite", "yolov3_tiny_coco.tflite"] {
            let options = CustomImageLabelerOptions(localModel: LocalModel(url: try Fixtures.model(name)))
            let error = #expect(throws: LiteRTError.self) {
                try unwrappingMLKitError { try ImageLabeler.imageLabeler(options: options).results(in: image) }
            }
            #expect(error?.description.contains("is not an image classifier") == true, "\(String(describing: error))")
        }
        #expect(throws: LiteRTError.self) {
            let options = CustomImageLabelerOptions(localModel: try LabelingFixtures.tinyModel("two_head_embedder.tflite"))
            return try unwrappingMLKitError { try ImageLabeler.imageLabeler(options: options).results(in: image) }
        }
        #expect(throws: ModelManagerError.fileNotFound(path: "/nonexistent/model.tflite")) {
            let options = CustomImageLabelerOptions(localModel: LocalModel(path: "/nonexistent/model.tflite"))
            return try unwrappingMLKitError { try ImageLabeler.imageLabeler(options: options).results(in: image) }
        }
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let remote = RemoteModel(name: "never-downloaded", url: URL(string: "http://127.0.0.1:9/model.tflite")!)
        #expect(throws: ModelManagerError.notDownloaded(name: "never-downloaded")) {
            let options = CustomImageLabelerOptions(remoteModel: remote, modelManager: ModelManager(directory: folder))
            return try unwrappingMLKitError { try ImageLabeler.imageLabeler(options: options).results(in: image) }
        }
    }

    @Test func visionRequestClassifiesEveryClass() async throws {
        let observations = try await ImageRequestHandler(try Fixtures.image("coffee.png")).perform(ClassifyImageRequest())
        #expect(observations.count == 1000)
        #expect(observations.first?.identifier == "espresso" && observations.first?.index == 967)
        #expect(observations.map(\.confidence) == observations.map(\.confidence).sorted(by: >))
    }
}
