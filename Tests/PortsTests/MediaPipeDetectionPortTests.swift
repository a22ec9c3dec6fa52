import Foundation
import MediaPipeTasksVision
import Synchronization
import Testing

/// MediaPipe code in the shape of Google's iOS guides for the image classifier and the object detector,
/// with only the image lines changed. Truth: MediaPipe's documented defaults (every class, score
/// threshold 0, the lists exclusive) and the hand-checked content of the sample photos (coffee.png is an
/// espresso, ImageNet class 967; bus.jpg a bus and at least three people; dog.jpg a dog, a bicycle and a
/// truck).
@Suite(.serialized) struct MediaPipeDetectionPortTests {
    /// Records what the live stream delivers, as an app's view controller would.
    final class ClassificationRecorder: NSObject, ImageClassifierLiveStreamDelegate, @unchecked Sendable {
        let names = Mutex<[Int: String]>([:])

        func imageClassifier(
            _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            let name = result?.classificationResult.classifications.first?.categories.first?.categoryName ?? "none"
            names.withLock { $0[timestampInMilliseconds] = name }
        }
    }

    @Test func classifierOptionsHaveMediaPipesDefaults() {
        let options = ImageClassifierOptions()
        #expect(options.runningMode == .image && options.maxResults == -1 && options.scoreThreshold == 0)
        #expect(options.categoryAllowlist.isEmpty && options.categoryDenylist.isEmpty && options.displayNamesLocale == "en")
        let detection = ObjectDetectorOptions()
        #expect(detection.runningMode == .image && detection.maxResults == -1 && detection.scoreThreshold == 0)
    }

    @Test func classifiesAnImageItsPartsAndAVideo() throws {
        let options = ImageClassifierOptions()
        options.maxResults = 3
        let imageClassifier = try ImageClassifier(options: options)
        let coffee = try MPImage(contentsOf: PortFixtures.sample("coffee.png"))
        let result = try imageClassifier.classify(image: coffee)
        let head = try #require(result.classificationResult.classifications.first)
        #expect(head.headIndex == 0 && head.categories.count == 3)
        #expect(head.categories[0].categoryName == "espresso" && head.categories[0].index == 967)
        #expect(zip(head.categories, head.categories.dropFirst()).allSatisfy { $0.score >= $1.score })

        let whole = try imageClassifier.classify(image: coffee, regionOfInterest: CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(whole.classificationResult.classifications[0].categories[0].categoryName == "espresso")

        options.categoryAllowlist = ["cup", "coffee mug"]
        options.maxResults = -1
        let allowed = try ImageClassifier(options: options).classify(image: coffee).classificationResult.classifications[0]
        #expect(!allowed.categories.isEmpty && allowed.categories.allSatisfy { ["cup", "coffee mug"].contains($0.categoryName) })

        let video = ImageClassifierOptions()
        video.runningMode = .video
        video.maxResults = 1
        let videoClassifier = try ImageClassifier(options: video)
        for timestamp in [0, 40, 80] {
            let frame = try videoClassifier.classify(videoFrame: coffee, timestampInMilliseconds: timestamp)
            #expect(frame.timestampInMilliseconds == timestamp)
            #expect(frame.classificationResult.classifications[0].categories.map(\.categoryName) == ["espresso"])
        }
    }

    @Test func classifiesALiveStream() async throws {
        let recorder = ClassificationRecorder()
        let options = ImageClassifierOptions()
        options.runningMode = .liveStream
        options.maxResults = 1
        options.imageClassifierLiveStreamDelegate = recorder
        let imageClassifier = try ImageClassifier(options: options)
        try imageClassifier.classifyAsync(image: try MPImage(contentsOf: PortFixtures.sample("coffee.png")), timestampInMilliseconds: 0)
        for _ in 0..<200 where recorder.names.withLock({ $0.isEmpty }) {
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(recorder.names.withLock { $0 } == [0: "espresso"])
    }

    @Test func detectsObjectsWithTheirClasses() throws {
        let objectDetector = try ObjectDetector(options: ObjectDetectorOptions())
        let bus = try objectDetector.detect(image: try MPImage(contentsOf: PortFixtures.sample("bus.jpg")))
        let names = bus.detections.compactMap { $0.categories.first?.categoryName }
        #expect(names.contains("bus") && names.filter { $0 == "person" }.count >= 3)
        #expect(zip(bus.detections, bus.detections.dropFirst()).allSatisfy { $0.categories[0].score >= $1.categories[0].score })
        #expect(bus.detections.allSatisfy { $0.boundingBox.width > 0 && $0.keypoints == nil && $0.categories.count == 1 })

        let options = ObjectDetectorOptions()
        options.categoryAllowlist = ["dog"]
        options.maxResults = 1
        let dogs = try ObjectDetector(options: options).detect(image: try MPImage(contentsOf: PortFixtures.sample("dog.jpg")))
        #expect(dogs.detections.map { $0.categories[0].categoryName } == ["dog"])

        options.categoryDenylist = ["cat"]
        #expect(throws: (any Error).self) { try ObjectDetector(options: options) }
        let imageMode = try ObjectDetector(options: ObjectDetectorOptions())
        let frame = try MPImage(contentsOf: PortFixtures.sample("dog.jpg"))
        #expect(throws: (any Error).self) { try imageMode.detect(videoFrame: frame, timestampInMilliseconds: 0) }
    }
}
