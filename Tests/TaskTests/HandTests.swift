import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MediaPipeTasksVision
@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// MediaPipe Python's hands (`Tests/Python/Reference/hand_reference.py`: the legacy `mp.solutions.hands` graph with
/// `static_image_mode=True, model_complexity=1, max_num_hands=2`, on the same two .tflite files): the
/// reference truth.
enum HandReference {
    struct Hand: Decodable {
        var handedness: String
        var score: Float
        var landmarks: [PoseReference.Point]
        var worldLandmarks: [PoseReference.Point]
    }

    struct Image: Decodable {
        var file: String
        var width: Int
        var height: Int
        var hands: [Hand]
    }

    struct Run: Decodable {
        var models: [String: String]
        var images: [Image]
    }

    /// Runs the reference script on `files` with the models of `complexity` (MediaPipe's `model_complexity`);
    /// with `video`, as the frames of one video, tracking.
    static func run(_ files: [URL], video: Bool = false, complexity: Int = 1) throws -> Run {
        let python = Fixtures.cache.root.appendingPathComponent("tools-venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/hand_reference.py")
        let arguments = [script.path, "--complexity", String(complexity)] + (video ? ["--video"] : []) + files.map(\.path)
        let run = try Fixtures.run(python, arguments)
        try #require(run.status == 0, "hand_reference.py failed: \(run.errors)")
        return try JSONDecoder().decode(Run.self, from: Data(run.output.utf8))
    }

    /// Our hand whose wrist is nearest the reference hand's.
    static func match(_ truth: Hand, in hands: [HandResult]) -> HandResult? {
        let wrist = CGPoint(x: truth.landmarks[0].x, y: truth.landmarks[0].y)
        return hands.min { hypot($0.landmarks[0].x - wrist.x, $0.landmarks[0].y - wrist.y) < hypot($1.landmarks[0].x - wrist.x, $1.landmarks[0].y - wrist.y) }
    }
}

/// Photos with hands, cut from bus.jpg (a set-up sample: Ultralytics' bus photo) where MediaPipe finds
/// them: the man on the right holds one hand on his chest and a phone in the other. The whole photo
/// (810×1080) shows them too small for the palm detector, as MediaPipe Python finds too.
enum HandPhotos {
    /// 280×280 from (0, 420): both hands, as MediaPipe Python finds them.
    static let twoHands = CGRect(x: 0, y: 420, width: 280, height: 280)
    /// 400×400 from (0, 360): MediaPipe Python finds the hand on the chest only.
    static let oneHand = CGRect(x: 0, y: 360, width: 400, height: 400)

    static func image(_ region: CGRect) throws -> VisionImage {
        try Fixtures.image("bus.jpg").cropped(to: region)
    }

    /// The cut-outs as PNG files in `folder`, for the reference script.
    static func files(_ regions: [CGRect], in folder: URL) throws -> [URL] {
        try regions.enumerated().map { index, region in
            let file = folder.appendingPathComponent("hands\(index).png")
            try image(region).write(to: file)
            return file
        }
    }

    /// The size of a reference hand: the longer side of the box around its landmarks.
    static func size(_ truth: [PoseReference.Point]) -> Double { PoseReference.size(truth) }
}

@Suite(.serialized) struct HandTests {
    /// Hands as MediaPipe Python finds them, with the full models and with the lite ones: as many, the same
    /// handedness (score within 0.01), landmarks within 0.5 % of the hand's size (median over the 21, x and y;
    /// also z) and 1 % (worst landmark), world landmarks within 0.5 mm (median). Measured (full): medians
    /// 0.004–0.018 px, worst 0.05 px on hands 32–40 px tall, handedness scores within 0.003, world within
    /// 0.1 mm. The lite models find one hand in the first photo and two in the second, in MediaPipe as here.
    @Test(arguments: [(1, [2, 1]), (0, [1, 2])])
    func matchesMediaPipePythonOnPhotosWithHands(complexity: Int, counts: [Int]) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try HandPhotos.files([HandPhotos.twoHands, HandPhotos.oneHand], in: folder)
        let reference = try HandReference.run(files, complexity: complexity)
        try #require(reference.models.count == 2)
        for (name, path) in reference.models {
            let theirs = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(theirs == (try Data(contentsOf: Fixtures.model(name))), "MediaPipe Python runs another \(name)")
        }
        #expect(reference.images.map(\.hands.count) == counts, "the photos show what MediaPipe found when they were chosen")
        var options = HandsTask.Options()
        options.modelComplexity = complexity
        let task = try HandsTask(options: options)
        for (file, truth) in zip(files, reference.images) {
            let output = try task.output(for: VisionImage(contentsOf: file))
            #expect(output.width == truth.width && output.height == truth.height)
            try #require(output.hands.count == truth.hands.count, "\(file.lastPathComponent): \(output.hands.count) hands")
            for expected in truth.hands {
                let hand = try #require(HandReference.match(expected, in: output.hands))
                #expect(hand.landmarks.count == 21 && hand.worldLandmarks.count == 21)
                #expect(hand.handedness.rawValue == expected.handedness)
                #expect(abs(hand.handednessScore - expected.score) < 0.01, "handedness score \(hand.handednessScore) vs \(expected.score)")
                let size = HandPhotos.size(expected.landmarks)
                let errors = PoseReference.errors(hand.landmarks, expected.landmarks)
                #expect(median(errors) < 0.005 * size, "\(file.lastPathComponent): median \(median(errors)) px, hand \(size) px")
                #expect(errors.max()! < 0.01 * size, "\(file.lastPathComponent): worst \(errors.max()!) px, hand \(size) px")
                let depth = zip(hand.landmarks, expected.landmarks).map { abs($0.z - $1.z) }
                #expect(median(depth) < 0.005 * size, "\(file.lastPathComponent): z \(median(depth)) px")
                let world = zip(hand.worldLandmarks, expected.worldLandmarks).map { (ours: Landmark, truth: PoseReference.Point) -> Double in
                    let (dx, dy, dz) = (ours.x - truth.x, ours.y - truth.y, ours.z - truth.z)
                    return (dx * dx + dy * dy + dz * dz).squareRoot()
                }
                #expect(median(world) < 0.0005, "\(file.lastPathComponent): world \(median(world)) m")
                #expect(hand.boundingBox.rect.insetBy(dx: -1e-9, dy: -1e-9).contains(hand.landmark(.indexFingerTip).point))
            }
        }
    }

    /// MediaPipe Python finds no hand in the cat photo nor in person.jpg (a woman on a lawn, her hands at her
    /// sides): neither do we.
    @Test func findsNoHandWhereMediaPipeFindsNone() throws {
        let files = try ["chelsea.png", "person.jpg"].map(Fixtures.sample)
        let truth = try HandReference.run(files).images
        #expect(truth.allSatisfy { $0.hands.isEmpty })
        let task = try HandsTask()
        for file in files {
            #expect(try task.output(for: VisionImage(contentsOf: file)).hands.isEmpty, "\(file.lastPathComponent)")
        }
    }

    /// A JPEG stored turned with an EXIF orientation: landmarks in the upright image, as MediaPipe Python
    /// finds them in the same file (OpenCV applies the orientation there), within 1 % of the hand's size
    /// (median over the 21; measured 0.004–0.006 px on a 39 px hand).
    @Test(arguments: [ImageOrientation.right, .left, .down])
    func reportsUprightCoordinatesForTurnedPhotos(orientation: ImageOrientation) throws {
        let upright = try HandPhotos.image(HandPhotos.oneHand)
        let stored = try VisionImage(buffer: upright.buffer, orientation: orientation.inverse).upright()
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("turned.jpg")
        try Fixtures.jpeg(storing: stored, orientation: orientation).write(to: file)
        let image = try VisionImage(contentsOf: file)
        #expect(image.width == upright.width && image.height == upright.height)
        let truth = try #require(try HandReference.run([file]).images[0].hands.first)
        let hand = try #require(HandReference.match(truth, in: try HandsTask().output(for: image).hands))
        let errors = PoseReference.errors(hand.landmarks, truth.landmarks)
        #expect(median(errors) < 0.01 * HandPhotos.size(truth.landmarks), "\(orientation): median \(median(errors)) px")
        #expect(hand.handedness.rawValue == truth.handedness)
    }

    /// A mirrored frame (a front camera's) shows the other hand: coordinates mirror and the label swaps.
    @Test func mirroredFramesSwapHandedness() throws {
        let photo = try HandPhotos.image(HandPhotos.oneHand)
        let task = try HandsTask()
        let plain = try #require(try task.output(for: photo).hands.first)
        let mirrored = try #require(try task.output(for: photo.mirrored()).hands.first)
        #expect(mirrored.handedness != plain.handedness)
        for type in [HandLandmarkType.wrist, .thumbTip, .pinkyTip] {
            #expect(abs(mirrored.landmark(type).x - (400 - plain.landmark(type).x)) < 1e-6)
            #expect(abs(mirrored.landmark(type).y - plain.landmark(type).y) < 1e-6)
        }
    }

    @Test func rejectsBadOptions() throws {
        var options = HandsTask.Options()
        options.maxHands = 0
        #expect(throws: VisionTaskError.self) { try HandsTask(options: options) }
        options = HandsTask.Options()
        options.minPresenceConfidence = -1
        #expect(throws: VisionTaskError.self) { try HandsTask(options: options) }
        options = HandsTask.Options()
        options.modelComplexity = 2
        #expect(throws: VisionTaskError.self) { try HandsTask(options: options) }
    }
}

/// A video panning over the two hands: each frame is a 280×280 window of bus.jpg, 4 pixels further right
/// than the one before, so the hands move 4 pixels left per frame.
enum PanningHandVideo {
    static let step = 4
    static let frameCount = 20

    static func frames() throws -> [VisionImage] {
        let photo = try Fixtures.image("bus.jpg")
        return try (0..<frameCount).map { index in
            try photo.cropped(to: HandPhotos.twoHands.offsetBy(dx: Double(index * step), dy: 0))
        }
    }
}

@Suite(.serialized) struct HandVideoTests {
    /// Both hands are tracked through the pan: the palm detector runs on the first frame only (two hands are
    /// tracked from then on); each frame's landmarks follow the pan (MediaPipe Python's landmarks of the
    /// second frame, the first tracked one, moved by the pan: within 10 % of the hand's size, median over
    /// the 21; the hands are about 32 px tall, the window's edges change what the model sees; the first
    /// frame's crops come from the palms, not from landmarks, and the hand holding the phone differs by
    /// about 14 px there, in MediaPipe as in ours) and match MediaPipe Python's own tracking of the same
    /// frames (PNG files), hand by hand, within 3 % with the same handedness (measured: at most 0.64 px).
    @Test func tracksTheHandsThroughAPanAndDetectsOnlyOnce() throws {
        let frames = try PanningHandVideo.frames()
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Fixtures.pngFiles(frames, in: folder)
        let tracked = try HandReference.run(files, video: true).images
        let first = tracked[1].hands
        try #require(tracked[0].hands.count == 2 && first.count == 2, "MediaPipe finds both hands in the first frames")
        let task = try HandsTask()
        var state = task.makeStreamState()
        for (index, frame) in frames.enumerated() {
            let output = try task.output(forFrame: frame, state: &state)
            try #require(output.hands.count == 2, "frame \(index)")
            let offset = CGPoint(x: (index - 1) * PanningHandVideo.step, y: 0)
            for theirs in tracked[index].hands {
                let hand = try #require(HandReference.match(theirs, in: output.hands))
                let still = try #require(first.min { abs($0.landmarks[0].y - theirs.landmarks[0].y) < abs($1.landmarks[0].y - theirs.landmarks[0].y) })
                let size = HandPhotos.size(still.landmarks)
                let panned = PoseReference.errors(hand.landmarks, still.landmarks, offset: offset)
                #expect(index == 0 || median(panned) < 0.1 * size, "frame \(index): median \(median(panned)) px off the pan, hand \(size) px")
                let errors = PoseReference.errors(hand.landmarks, theirs.landmarks)
                #expect(median(errors) < 0.03 * size, "frame \(index): median \(median(errors)) px off MediaPipe's tracking")
                #expect(hand.handedness.rawValue == theirs.handedness, "frame \(index)")
            }
        }
        #expect(state.detectorRuns == 1)
    }

    /// A frame without hands loses them, and the next frame runs the detector (the frame without hands did
    /// not: it started with two tracked hands); it finds the hands again.
    @Test func detectsAgainWhenTheHandsAreLost() throws {
        let task = try HandsTask()
        var state = task.makeStreamState()
        let hands = try PanningHandVideo.frames()[0]
        let cat = try Fixtures.image("chelsea.png")
        #expect(try task.output(forFrame: hands, state: &state).hands.count == 2)
        #expect(try task.output(forFrame: cat, state: &state).hands.isEmpty)
        #expect(try task.output(forFrame: hands, state: &state).hands.count == 2)
        #expect(state.detectorRuns == 2)
    }

    /// While fewer hands are tracked than asked for (one hand in view, two asked for), the detector runs on
    /// every frame, as MediaPipe's graph does; with one asked for it runs once.
    @Test func detectsOnEveryFrameWhileHandsAreMissing() throws {
        let photo = try HandPhotos.image(HandPhotos.oneHand)
        for (limit, runs) in [(2, 3), (1, 1)] {
            var options = HandsTask.Options()
            options.maxHands = limit
            let task = try HandsTask(options: options)
            var state = task.makeStreamState()
            for _ in 0..<3 { #expect(try task.output(forFrame: photo, state: &state).hands.count == 1) }
            #expect(state.detectorRuns == runs, "max \(limit) hands")
        }
    }
}

@Suite(.serialized) struct HandAdapterTests {
    /// MediaPipe style: the image-mode landmarks are the task's, normalised; handedness is one category with
    /// MediaPipe's label and index (Left 0, Right 1); one hand by default, as MediaPipe's `num_hands`.
    @Test func handLandmarkerNormalisesAndLabels() throws {
        let image = try HandPhotos.image(HandPhotos.twoHands)
        let hands = try HandsTask().output(for: image).hands
        try #require(hands.count == 2)
        #expect(try HandLandmarker().detect(image: image).landmarks.count == 1)
        var options = HandLandmarkerOptions()
        options.numHands = 2
        let result = try HandLandmarker(options: options).detect(image: image)
        try #require(result.landmarks.count == 2 && result.worldLandmarks.count == 2 && result.handedness.count == 2)
        for (index, hand) in hands.enumerated() {
            for (normalized, pixel) in zip(result.landmarks[index], hand.landmarks) {
                #expect(abs(normalized.x * 280 - pixel.x) < 1e-9 && abs(normalized.y * 280 - pixel.y) < 1e-9)
            }
            #expect(result.worldLandmarks[index] == hand.worldLandmarks)
            let category = try #require(result.handedness[index].first)
            #expect(category.categoryName == hand.handedness.rawValue && category.score == hand.handednessScore)
            #expect(category.index == (hand.handedness == .left ? 0 : 1))
        }
    }

    /// A live stream: the delegate gets every result in timestamp order, with both hands found.
    @Test func handLandmarkerDeliversLiveStreamResults() async throws {
        final class Collector: NSObject, HandLandmarkerLiveStreamDelegate, @unchecked Sendable {
            let lock = NSLock()
            var results: [(Int, Int)] = []
            func handLandmarker(_ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?, timestampInMilliseconds: Int, error: (any Error)?) {
                lock.withLock { results.append((timestampInMilliseconds, result?.landmarks.count ?? -1)) }
            }
        }
        let collector = Collector()
        var options = HandLandmarkerOptions()
        options.runningMode = .liveStream
        options.numHands = 2
        options.handLandmarkerLiveStreamDelegate = collector
        let landmarker = try HandLandmarker(options: options)
        for (index, frame) in try PanningHandVideo.frames().prefix(3).enumerated() {
            try landmarker.detectAsync(image: frame, timestampInMilliseconds: index * 100)
            while collector.lock.withLock({ collector.results.count }) <= index { try await Task.sleep(nanoseconds: 10_000_000) }
        }
        #expect(collector.results.map(\.0) == [0, 100, 200])
        #expect(collector.results.allSatisfy { $0.1 == 2 })
        // A delegate in image mode: MediaPipe's invalid argument (MPPVisionTaskRunner.mm).
        #expect(mediaPipeFailure { _ = try HandLandmarker(options: with(HandLandmarkerOptions()) { $0.handLandmarkerLiveStreamDelegate = collector }) }?.code == .invalidArgumentError)
    }

    /// Vision style: 21 named joints at the task's landmarks in normalised lower-left coordinates, each with
    /// the hand's confidence; the chirality is the subject's hand, the opposite of MediaPipe's mirrored label.
    @Test func visionRequestNamesJointsAndChirality() throws {
        let image = try HandPhotos.image(HandPhotos.oneHand)
        let hand = try #require(try HandsTask().output(for: image).hands.first)
        let observations = try ImageRequestHandler(image).perform(DetectHumanHandPoseRequest())
        try #require(observations.count == 1)
        let observation = observations[0]
        #expect(observation.availableJointNames.count == 21)
        #expect(observation.chirality == (hand.handedness == .left ? .right : .left))
        for (name, type) in [(HumanHandPoseObservation.JointName.wrist, HandLandmarkType.wrist), (.thumbMP, .thumbMCP), (.littleTip, .pinkyTip)] {
            let joint = try #require(observation.joint(for: name))
            #expect(abs(joint.location.x - hand.landmark(type).x / 400) < 1e-9)
            #expect(abs(joint.location.y - (1 - hand.landmark(type).y / 400)) < 1e-9)
            #expect(joint.confidence == hand.score)
        }
    }
}

@Suite struct HandCommandTests {
    /// `swiftvision hands --json --draw --max-hands 1`: one line per input, the broken file's a JSON error
    /// line; the photo's line has one hand of 21 landmarks in the shape the README gives, and the drawing
    /// has the photo's size.
    @Test func handsCommandPrintsLandmarksAndGoesOnAfterABadFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.jpg")
        try Data("no picture".utf8).write(to: broken)
        let photo = try HandPhotos.files([HandPhotos.twoHands], in: folder)[0]
        let drawn = folder.appendingPathComponent("drawn")
        let run = try Fixtures.run(
            Fixtures.executable, ["hands", "--json", "--max-hands", "1", "--draw", drawn.path, broken.path, photo.path])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(lines.count == 2 && lines.allSatisfy { $0 != nil }, "every line is JSON: \(run.output)")
        #expect(lines[0]?["file"] as? String == broken.path && (lines[0]?["error"] as? String)?.contains("not an image") == true)
        #expect(lines[1]?["file"] as? String == photo.path && lines[1]?["width"] as? Int == 280)
        let hands = try #require(lines[1]?["hands"] as? [[String: Any]])
        try #require(hands.count == 1)
        #expect((hands[0]["landmarks"] as? [[String: Any]])?.count == 21)
        #expect(hands[0]["boundingBox"] is [String: Any] && hands[0]["score"] is Double && hands[0]["handedness"] is String)
        let drawing = try VisionImage(contentsOf: drawn.appendingPathComponent("hands0.png"))
        #expect(drawing.width == 280 && drawing.height == 280)
    }
}
