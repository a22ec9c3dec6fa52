import Foundation
import Synchronization
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// One task of each kind shared by many threads gives what serial calls give, and a model's
/// interpreter runs inferences in parallel on instances of its own.
@Suite(.serialized) struct ParallelInferenceTests {
    static let photos = ["zidane.jpg", "person.jpg", "bus.jpg"]
    static let threadCount = 8

    /// Runs `body` on `count` threads of their own, started together, and returns what each returned, in order.
    static func onThreads<Result: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Result) throws -> [Result] {
        let results = Mutex<[Int: Swift.Result<Result, any Error>]>([:])
        let ready = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for index in 0..<count {
            ready.enter()
            done.enter()
            Thread {
                ready.leave()
                start.wait()
                let result = Swift.Result { try body(index) }
                results.withLock { $0[index] = result }
                done.leave()
            }.start()
        }
        ready.wait()
        for _ in 0..<count { start.signal() }
        done.wait()
        return try results.withLock { results in try (0..<count).map { try results[$0]!.get() } }
    }

    /// The JSON of each output for `images`, computed serially and then by `threadCount` threads sharing
    /// `task` (each thread one image, every image by several threads): both must be identical, and
    /// `found` must count something in the serial outputs.
    func expectSharedEqualsSerial<Task: VisionTask>(
        _ task: Task, images: [VisionImage], found: (Task.Output) -> Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let outputs = try images.map { try task.output(for: $0) }
        #expect(outputs.map(found).reduce(0, +) > 0, "\(Task.descriptor.name) finds something", sourceLocation: sourceLocation)
        let serial = try outputs.map { try encoder.encode($0) }
        let shared = try Self.onThreads(Self.threadCount) { index in
            try encoder.encode(task.output(for: images[index % images.count]))
        }
        for (index, output) in shared.enumerated() {
            #expect(
                output == serial[index % images.count],
                "\(Task.descriptor.name) on image \(index % images.count) differs when shared", sourceLocation: sourceLocation)
        }
    }

    static func photos(_ names: [String] = Self.photos) throws -> [VisionImage] {
        try names.map { try Fixtures.image($0) }
    }

    static func scenes<Scene>(_ scenes: [Scene], file: KeyPath<Scene, String>, count: Int = 3) throws -> [VisionImage] {
        try #require(scenes.count >= count, "the fixture scenes were not generated")
        return try scenes.prefix(count).map { try VisionImage(contentsOfFile: $0[keyPath: file]) }
    }

    /// A store whose interpreters grow to three instances, so that eight threads both add instances and wait for them.
    let store = ModelStore(parallelInferences: 3)

    @Test func facesWithLandmarksSharedByEightThreads() throws {
        var options = FacesTask.Options()
        options.landmarks = true
        let task = try FacesTask(options: options, store: store)
        try expectSharedEqualsSerial(task, images: try Self.photos()) { $0.faces.filter { $0.landmarks != nil }.count }
    }

    @Test func objectsSharedByEightThreads() throws {
        let task = try ObjectsTask(options: ObjectsTask.Options(), store: store)
        try expectSharedEqualsSerial(task, images: try Self.photos()) { $0.objects.count }
    }

    @Test func labelsSharedByEightThreads() throws {
        let task = try LabelsTask(options: LabelsTask.Options(), store: store)
        try expectSharedEqualsSerial(task, images: try Self.photos()) { $0.labels.count }
    }

    @Test func embeddingsSharedByEightThreads() throws {
        let task = try EmbeddingsTask(options: EmbeddingsTask.Options(), store: store)
        try expectSharedEqualsSerial(task, images: try Self.photos()) { $0.embeddings.count }
    }

    @Test func segmentationSharedByEightThreads() throws {
        let task = try SegmentTask(options: SegmentTask.Options(), store: store)
        try expectSharedEqualsSerial(task, images: try Self.photos()) { $0.personFraction > 0.05 ? 1 : 0 }
    }

    @Test func poseSharedByEightThreads() throws {
        let task = try PoseTask(options: PoseTask.Options(), store: store)
        try expectSharedEqualsSerial(task, images: try Self.photos()) { $0.poses.count }
    }

    @Test func handsSharedByEightThreads() throws {
        let task = try HandsTask(options: HandsTask.Options(), store: store)
        let images = try [HandPhotos.twoHands, HandPhotos.oneHand].map { try HandPhotos.image($0) }
        try expectSharedEqualsSerial(task, images: images) { $0.hands.count }
    }

    @Test func rectanglesSharedByEightThreads() throws {
        let task = try RectanglesTask(options: RectanglesTask.Options(), store: store)
        let images = try Self.scenes(VisionFixtures.rectangles, file: \.file)
        try expectSharedEqualsSerial(task, images: images) { $0.rectangles.count }
    }

    @Test func barcodesSharedByEightThreads() throws {
        let task = try BarcodesTask(options: BarcodesTask.Options(), store: store)
        let images = try Self.photos(["pyzbar-qrcode.png", "pyzbar-code128.png", "pyzbar-qrcode_rotated.png"])
        try expectSharedEqualsSerial(task, images: images) { $0.barcodes.count }
    }

    @Test func textSharedByEightThreads() throws {
        let task = try TextTask(options: TextTask.Options(), store: store)
        try expectSharedEqualsSerial(task, images: try Self.photos(["page.png"])) { $0.blocks.count }
    }

    @Test func twoThreadsLabelOnTwoInterpretersAtOnce() throws {
        let store = ModelStore(parallelInferences: 2)
        let task = try LabelsTask(options: LabelsTask.Options(), store: store)
        let images = try TaskCoreTests.photos.map { try Fixtures.image($0) }
        let serial = try images.map { try task.output(for: $0) }
        let interpreter = try store.interpreter(contentsOf: try Fixtures.model(LabelsTask.baseModelName))
        #expect(interpreter.compiledInstances == 1)
        let shared = try Self.onThreads(2) { _ in try images.map { try task.output(for: $0) } }
        #expect(shared == [serial, serial])
        #expect(interpreter.compiledInstances == 2)
        #expect(interpreter.mostInferencesAtOnce == 2, "two threads labelled at the same moment")
        #expect(store.statistics.modelsLoaded == 1)
        #expect(store.statistics.compilations == 1, "one interpreter, however many instances it compiles")
    }
}
