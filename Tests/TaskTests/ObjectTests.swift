import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite(.serialized) struct ObjectTests {
    static func detector(_ mode: ObjectDetectorMode = .singleImage, multiple: Bool = true) throws -> ObjectDetector {
        var options = ObjectDetectorOptions()
        options.detectorMode = mode
        options.shouldEnableMultipleObjects = multiple
        options.shouldEnableClassification = true
        return try ObjectDetector.objectDetector(options: options)
    }

    static func names(_ objects: [Object]) -> [String] {
        objects.compactMap { $0.labels.last?.text }
    }

    @Test func findsPeopleAndABusAndADogWithItsBicycle() throws {
        let detector = try Self.detector()
        let bus = try detector.results(in: try Fixtures.image("bus.jpg").mlKitImage)
        #expect(Self.names(bus).filter { $0 == "person" }.count >= 3)
        #expect(Self.names(bus).contains("bus"))
        #expect(bus.allSatisfy { $0.trackingID == nil })
        let dog = Self.names(try detector.results(in: try Fixtures.image("dog.jpg").mlKitImage))
        #expect(dog.contains("dog") && dog.contains("bicycle"))
        #expect(dog.contains("car") || dog.contains("truck"))
    }

    @Test func singleObjectModeKeepsTheMostProminent() throws {
        let objects = try Self.detector(multiple: false).results(in: try Fixtures.image("bus.jpg").mlKitImage)
        #expect(objects.count == 1)
        #expect(objects.first?.labels.last?.text == "bus")
    }

    @Test func coarseCategoriesFollowMLKit() throws {
        #expect(ObjectCategory(cocoClass: "handbag") == .fashionGood)
        #expect(ObjectCategory(cocoClass: "pizza") == .food)
        #expect(ObjectCategory(cocoClass: "cup") == .homeGood)
        #expect(ObjectCategory(cocoClass: "pottedplant") == .plant)
        #expect(ObjectCategory(cocoClass: "person") == nil)
        // The coffee photo's cup gets the coarse label first, then its COCO class. (Alone, the task reports the
        // table under it, the larger object, which YOLOv4-tiny finds too.)
        let objects = try Self.detector(multiple: true).results(in: try Fixtures.image("coffee.png").mlKitImage)
        let labels = try #require(objects.first { $0.labels.last?.text == "cup" }?.labels)
        #expect(labels.map(\.text) == ["Home good", "cup"])
        #expect(labels[0].index == ObjectCategory.homeGood.rawValue)
    }

    @Test func streamModeKeepsIDsThroughCrossingAndOcclusion() throws {
        let detector = try Self.detector(.stream)
        var dogIDs: [Int] = []
        var personIDs: [Int] = []
        var overlaps: [Double] = []
        /// The ID of the reported object that overlaps `box` best, if it overlaps it enough.
        func id(of box: CGRect?, in objects: [Object]) -> Int? {
            guard let box, let match = objects.max(by: { $0.frame.intersectionOverUnion(with: box) < $1.frame.intersectionOverUnion(with: box) })
            else { return nil }
            let overlap = match.frame.intersectionOverUnion(with: box)
            guard overlap > 0.4 else { return nil }
            overlaps.append(overlap)
            return match.trackingID?.intValue
        }
        for (index, frame) in try MovingObjectsVideo.frames().enumerated() {
            let objects = try detector.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: index * 40)
            let truth = MovingObjectsVideo.truth(index)
            if let dog = id(of: truth.dog, in: objects) { dogIDs.append(dog) }
            if let person = id(of: truth.person, in: objects) { personIDs.append(person) }
        }
        // Each object is found in most frames and never changes identity.
        #expect(dogIDs.count >= MovingObjectsVideo.frameCount - MovingObjectsVideo.hiddenFrames.count - 4)
        #expect(personIDs.count >= MovingObjectsVideo.frameCount - 4)
        #expect(Set(dogIDs).count == 1, "dog IDs \(dogIDs)")
        #expect(Set(personIDs).count == 1, "person IDs \(personIDs)")
        #expect(Set(dogIDs).isDisjoint(with: personIDs))
        #expect(overlaps.reduce(0, +) / Double(overlaps.count) > 0.6)
        #expect(throws: VisionTaskError.nonIncreasingTimestamp(previous: 47 * 40, current: 0)) {
            let first = try MovingObjectsVideo.frames()[0].mlKitImage
            return try unwrappingMLKitError { try detector.results(inVideoFrame: first, timestampInMilliseconds: 0) }
        }
    }

    @Test func lateFramesAreDroppedWhenAsked() async throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .stream
        options.alwaysDiscardsLateVideoFrames = true
        let detector = try ObjectDetector.objectDetector(options: options)
        let frame = try Fixtures.image("bus.jpg")
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    do { _ = try await detector.process(frame.mlKitImage); return true } catch { return false }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.contains(true) && outcomes.contains(false))
    }
}

@Suite(.serialized) struct SeededTrackingTests {
    /// The person crop moving right by `step` pixels a frame, then out of the frame.
    @Test(arguments: TrackObjectRequest.TrackingLevel.allCases)
    func followsAKnownPathAndReportsLossWhenTheObjectLeaves(level: TrackObjectRequest.TrackingLevel) throws {
        let (frames, truth) = try SeededTrackingVideo.frames()
        let size = CGSize(width: 640, height: 480)
        let handler = SequenceRequestHandler()
        var observation = DetectedObjectObservation(imageRect: truth[0], imageSize: size)
        let seed = observation.id
        var lostAt: Int?
        for (index, frame) in frames.enumerated() {
            var request = TrackObjectRequest(detectedObjectObservation: observation)
            request.trackingLevel = level
            observation = try handler.perform(request, on: frame)
            #expect(observation.id == seed)
            if observation.isLost {
                lostAt = lostAt ?? index
                #expect(observation.confidence == 0)
                continue
            }
            #expect(lostAt == nil, "found again after being lost at \(lostAt ?? -1)")
            // While the person is whole in the frame, the box stays on it.
            if truth[index].maxX <= 640 {
                #expect(observation.imageRect(imageSize: size).intersectionOverUnion(with: truth[index]) > 0.5, "frame \(index)")
            }
        }
        // The person leaves the 640-pixel frame from frame 45 on: the tracker must say so.
        let lost = try #require(lostAt)
        #expect((40..<60).contains(lost))
    }

    @Test func newObservationsStartNewTracksAndLastFramesRelease() throws {
        let (frames, truth) = try SeededTrackingVideo.frames()
        let size = CGSize(width: 640, height: 480)
        let handler = SequenceRequestHandler()
        let first = DetectedObjectObservation(imageRect: truth[0], imageSize: size)
        _ = try handler.perform(TrackObjectRequest(detectedObjectObservation: first), on: frames[0])
        var last = TrackObjectRequest(detectedObjectObservation: first)
        last.isLastFrame = true
        let moved = try handler.perform(last, on: frames[3])
        #expect(moved.imageRect(imageSize: size).minX > truth[0].minX + 20)
        // After the last frame the seed starts over: the first frame performed returns the seed itself.
        let again = try handler.perform(TrackObjectRequest(detectedObjectObservation: first), on: frames[5])
        #expect(again == first)
        #expect(throws: ImageError.self) {
            try handler.perform(TrackObjectRequest(detectedObjectObservation: DetectedObjectObservation(imageRect: CGRect(x: 900, y: 900, width: 10, height: 10), imageSize: size)), on: frames[0])
        }
    }
}

@Suite(.serialized) struct CustomObjectClassifierTests {
    @Test func classifiesEachObjectsCropWithTheGivenModel() throws {
        let options = CustomObjectDetectorOptions(localModel: LocalModel(url: try Fixtures.model("efficientnet_lite0_classifier.tflite")))
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.shouldEnableMultipleObjects = true
        options.maxPerObjectLabelCount = 3
        options.classificationConfidenceThreshold = 0.05
        let detector = try ObjectDetector.objectDetector(options: options)
        let objects = try detector.results(in: try Fixtures.image("bus.jpg").mlKitImage)
        #expect(!objects.isEmpty)
        #expect(objects.allSatisfy { $0.labels.count <= 3 && $0.labels.allSatisfy { $0.confidence >= 0.05 } })
        // The bus's crop is an ImageNet vehicle, not a COCO class name.
        let bus = try #require(objects.max { $0.frame.width * $0.frame.height < $1.frame.width * $1.frame.height })
        let names = bus.labels.map(\.text)
        #expect(names.contains { ["minibus", "trolleybus", "passenger car", "school bus", "streetcar", "moving van"].contains($0) }, "\(names)")
        #expect(!names.contains("bus"))

        // As in ML Kit, classification off means no labels, from the custom classifier either.
        options.shouldEnableClassification = false
        let unlabelled = try ObjectDetector.objectDetector(options: options).results(in: try Fixtures.image("bus.jpg").mlKitImage)
        #expect(unlabelled.count == objects.count && unlabelled.allSatisfy(\.labels.isEmpty))

        let missing = CustomObjectDetectorOptions(localModel: LocalModel(path: "/nonexistent/model.tflite"))
        missing.shouldEnableClassification = true
        #expect(throws: ModelManagerError.fileNotFound(path: "/nonexistent/model.tflite")) {
            try unwrappingMLKitError { try ObjectDetector.objectDetector(options: missing).results(in: try Fixtures.image("bus.jpg").mlKitImage) }
        }
    }
}
