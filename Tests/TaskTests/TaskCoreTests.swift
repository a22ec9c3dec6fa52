import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// The task core: one model store, one runner's rules, one registry.
@Suite(.serialized) struct TaskCoreTests {
    static let photos = ["bus.jpg", "zidane.jpg", "dog.jpg", "kite.jpg", "horses.jpg", "person.jpg", "eagle.jpg",
                         "giraffe.jpg", "coffee.png", "chelsea.png"]

    @Test func detectingInTwentyPhotosLoadsTheDetectorOnce() throws {
        let store = ModelStore()
        var options = ObjectsTask.Options()
        options.multiple = true
        var found = 0
        for name in Self.photos + Self.photos {
            // As a program that makes a detector per file would: the store still loads the model once.
            let task = try ObjectsTask(options: options, store: store)
            found += try task.output(for: try Fixtures.image(name)).objects.count
        }
        let statistics = store.statistics
        #expect(statistics.modelsLoaded == 1)
        #expect(statistics.compilations == 1)
        #expect(statistics.reuses >= 19)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: try Fixtures.model(ObjectDetectionModel.defaultModelName).path)[.size] as? Int)
        #expect(statistics.bytesLoaded == size)
        #expect(found >= 20, "the photos show people, buses, dogs, kites and horses")
    }

    @Test func otherCompilationOptionsCompileTheSameFileAgain() throws {
        let store = ModelStore()
        let url = try Fixtures.model("face_detection_short_range.tflite")
        let one = try store.interpreter(contentsOf: url, options: LiteRT.CompilationOptions(threadCount: 1))
        let two = try store.interpreter(contentsOf: url, options: LiteRT.CompilationOptions(threadCount: 2))
        let again = try store.interpreter(contentsOf: url, options: LiteRT.CompilationOptions(threadCount: 1))
        #expect(one === again)
        #expect(one !== two)
        #expect(one.model === two.model)
        #expect(store.statistics.modelsLoaded == 1)
        #expect(store.statistics.compilations == 2)
    }

    @Test func aChangedFileIsLoadedAgain() throws {
        let store = ModelStore()
        let folder = try Fixtures.temporaryDirectory()
        let copy = folder.appendingPathComponent("model.tflite")
        try FileManager.default.copyItem(at: try Fixtures.model("face_detection_short_range.tflite"), to: copy)
        let first = try store.model(contentsOf: copy)
        try FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: try Fixtures.model("face_detection_full_range_sparse.tflite"), to: copy)
        let second = try store.model(contentsOf: copy)
        #expect(first !== second)
        #expect(second.inputs[0].shape == [1, 192, 192, 3])
        #expect(store.statistics.modelsLoaded == 2)
    }

    @Test func theRunnerKeepsEachModeToItsCalls() throws {
        let image = try Fixtures.image("zidane.jpg")
        let images = TaskRunner<LabelsTask>(task: try LabelsTask())
        #expect(throws: VisionTaskError.runningModeMismatch(required: .video, current: .image)) {
            try images.run(videoFrame: image, timestampInMilliseconds: 0)
        }
        #expect(throws: VisionTaskError.runningModeMismatch(required: .liveStream, current: .image)) {
            try images.send(image, timestampInMilliseconds: 0)
        }
        let video = TaskRunner<FacesTask>(task: try FacesTask(), runningMode: .video)
        #expect(throws: VisionTaskError.runningModeMismatch(required: .image, current: .video)) { try video.run(image) }
        let first = try video.run(videoFrame: image, timestampInMilliseconds: 40)
        #expect(first.faces.count == 2, "zidane.jpg shows two faces")
        #expect(Set(first.faces.compactMap(\.trackingID)).count == 2)
        #expect(throws: VisionTaskError.nonIncreasingTimestamp(previous: 40, current: 40)) {
            try video.run(videoFrame: image, timestampInMilliseconds: 40)
        }
        let second = try video.run(videoFrame: image)
        #expect(Set(second.faces.compactMap(\.trackingID)) == Set(first.faces.compactMap(\.trackingID)))
        video.close()
        #expect(throws: VisionTaskError.closed) { try video.run(videoFrame: image, timestampInMilliseconds: 10_000) }
    }

    @Test func sendingALiveFrameNeverWaitsForTheFrameInFlight() async throws {
        let image = try Fixtures.image("zidane.jpg")
        var options = FacesTask.Options()
        options.landmarks = true
        let runner = TaskRunner<FacesTask>(task: try FacesTask(options: options), runningMode: .liveStream)
        let results = runner.liveStreamResults
        // The tracker's state is held while a frame is computed; sending only checks the timestamp, so
        // the whole burst is sent while the first frame (detection and two meshes) is still computed:
        // the newest frame waits and the ten between are dropped.
        for index in 0..<12 { try runner.send(image, timestampInMilliseconds: index * 33) }
        var received: [(timestamp: Int, dropped: Int, faces: Int)] = []
        for await result in results {
            received.append((result.timestampInMilliseconds, result.droppedFrames, try result.result.get().faces.count))
            if received.count == 2 { break }
        }
        #expect(received.map(\.timestamp) == [0, 11 * 33])
        #expect(received.map(\.dropped).reduce(0, +) == 10)
        #expect(received.map(\.faces) == [2, 2], "zidane.jpg shows two faces")
        runner.close()
        #expect(throws: VisionTaskError.closed) { try runner.send(image, timestampInMilliseconds: 1000) }
    }

    @Test func theRegistryListsEveryTaskWithItsOptionsAndModels() throws {
        let registry = TaskRegistry.standard
        let names = registry.entries.map(\.descriptor.name)
        #expect(names == ["faces", "objects", "labels", "embeddings", "rectangles", "barcodes", "text", "track", "segment", "pose", "hands"])
        let listing = try #require(try JSONSerialization.jsonObject(with: registry.listing()) as? [[String: Any]])
        #expect(listing.count == names.count)
        let faces = try #require(listing.first { $0["name"] as? String == "faces" })
        let options = try #require(faces["options"] as? [String: Any])
        #expect(options["threshold"] as? Double == 0.5)
        #expect(options["landmarks"] as? Bool == false)
        #expect((faces["models"] as? [String])?.contains("face_landmark.tflite") == true)
        for entry in registry.entries {
            for model in entry.descriptor.models {
                #expect(FileManager.default.fileExists(atPath: try Fixtures.model(model).path), "\(entry.descriptor.name): \(model)")
            }
        }
        // The listed defaults decode back into each task's options.
        let decoded = try JSONDecoder().decode(FacesTask.Options.self, from: try #require(registry.entry(named: "faces")).defaultOptions)
        #expect(decoded == FacesTask.Options())
    }

    @Test func optionsOutOfRangeAreRefused() throws {
        var faces = FacesTask.Options()
        faces.threshold = 5
        #expect(throws: VisionTaskError.self) { try FacesTask(options: faces) }
        var objects = ObjectsTask.Options()
        objects.threshold = -1
        #expect(throws: VisionTaskError.self) { try ObjectsTask(options: objects) }
        var barcodes = BarcodesTask.Options()
        barcodes.formats = "QRCode,Hologram"
        #expect(throws: VisionTaskError.self) { try BarcodesTask(options: barcodes) }
        var track = TrackTask.Options()
        track.boxes = [PixelRect(CGRect(x: Double.nan, y: 1, width: 2, height: 3))]
        #expect(throws: VisionTaskError.self) { try TrackTask(options: track) }
    }

    /// A face turned a hair the other way or a point a hair left of the edge is written as 0, as ECMAScript's
    /// JSON.stringify writes negative zero (ECMA-262, Number::toString), not as "-0".
    @Test func roundedNumbersAreNeverNegativeZero() throws {
        struct Angle: Codable { @OneDecimal var roll: Double }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let point = String(decoding: try encoder.encode(PixelPoint(CGPoint(x: -0.004, y: -0.3))), as: UTF8.self)
        #expect(point == #"{"x":0,"y":-0.3}"#)
        #expect(String(decoding: try encoder.encode(Angle(roll: -0.04)), as: UTF8.self) == #"{"roll":0}"#)
    }

    @Test func outputsRoundTripThroughTheirJSON() throws {
        var options = FacesTask.Options()
        options.landmarks = true
        let faces = try FacesTask(options: options).output(for: try Fixtures.image("zidane.jpg"))
        let decoded = try JSONDecoder().decode(FacesTask.Output.self, from: JSONEncoder().encode(faces))
        #expect(decoded.faces.count == faces.faces.count)
        for (face, back) in zip(faces.faces, decoded.faces) {
            #expect(abs(face.boundingBox.x - back.boundingBox.x) <= 0.005)
            #expect(back.landmarks?.keys.sorted() == face.landmarks?.keys.sorted())
            #expect(back.contours?.count == FaceContourType.allCases.count)
        }
        let text = try TextTask().output(for: try Fixtures.image("page.png"))
        let textBack = try JSONDecoder().decode(RecognizedText.self, from: JSONEncoder().encode(text))
        #expect(textBack.text == text.text)
        #expect(!text.text.isEmpty)
    }
}
