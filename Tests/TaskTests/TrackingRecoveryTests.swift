import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// Issue 13: seeded tracking of hand-held objects through fast moves, occlusion and scale change, on
/// videos whose truth is the path they were made along (``HandHeldObjectVideo``).
@Suite(.serialized) struct TrackingRecoveryTests {
    /// How well a tracker followed one video.
    struct Score: CustomStringConvertible {
        /// Frames with at least half the object in view.
        var visibleFrames = 0
        /// Of those, frames whose box overlaps the truth with IoU ≥ 0.5.
        var onObjectFrames = 0
        /// Frames from the object's coming back into view (¾ visible after being fully hidden) to the first
        /// frame on it again; nil when it never was.
        var framesToReacquire: Int?
        /// The highest confidence reported while the object was fully hidden.
        var hiddenConfidence: Float = 0
        /// Frames fully hidden, and of those, frames reported lost.
        var hiddenFrames = 0
        var hiddenLostFrames = 0
        /// Milliseconds per frame spent in the tracker.
        var millisecondsPerFrame = 0.0

        var onObject: Double { Double(onObjectFrames) / Double(max(1, visibleFrames)) }

        var description: String {
            String(
                format: "on-object %.3f (%d/%d visible), re-acquired after %@ frames, hidden %d frames (lost %d, max confidence %.3f), %.2f ms/frame",
                onObject, onObjectFrames, visibleFrames, framesToReacquire.map(String.init) ?? "never", hiddenFrames,
                hiddenLostFrames, hiddenConfidence, millisecondsPerFrame)
        }
    }

    typealias Cut = HandHeldObjectVideo.Cut
    /// Object, background, occluder and path seed of each video.
    static let videos: [String: (object: Cut, background: String, occluder: Cut, seed: UInt64)] = [
        "cup over horses": (
            Cut(name: "coffee.png", rect: CGRect(x: 170, y: 15, width: 240, height: 290), width: 96, height: 116), "horses.jpg",
            Cut(name: "baboon.jpg", rect: CGRect(x: 100, y: 100, width: 300, height: 250), width: 236, height: 176), 1
        ),
        "face over kite": (
            Cut(name: "astronaut.png", rect: CGRect(x: 130, y: 30, width: 200, height: 200), width: 100, height: 100), "kite.jpg",
            Cut(name: "chelsea.png", rect: CGRect(x: 50, y: 20, width: 300, height: 200), width: 240, height: 160), 2
        ),
        "bus sign over giraffe": (
            Cut(name: "bus.jpg", rect: CGRect(x: 370, y: 520, width: 340, height: 160), width: 150, height: 70), "giraffe.jpg",
            Cut(name: "messi5.jpg", rect: CGRect(x: 100, y: 50, width: 300, height: 150), width: 290, height: 130), 3
        ),
        // Held out: these two were made after the half-search threshold was set on the three above. The chick
        // then showed that a lost object must be searched for at other sizes too: it shrinks while hidden.
        "box over quokka": (
            Cut(name: "box.png", rect: CGRect(x: 0, y: 0, width: 324, height: 223), width: 120, height: 83), "quokka.jpg",
            Cut(name: "dog.jpg", rect: CGRect(x: 120, y: 120, width: 400, height: 300), width: 240, height: 180), 4
        ),
        "chick over eagle": (
            Cut(name: "chicky_512.png", rect: CGRect(x: 100, y: 100, width: 300, height: 300), width: 90, height: 90), "eagle.jpg",
            Cut(name: "cat_det.jpg", rect: CGRect(x: 50, y: 50, width: 300, height: 250), width: 230, height: 190), 5
        ),
    ]

    static func score(_ video: HandHeldObjectVideo, level: TrackTask.Level) throws -> Score {
        var options = TrackTask.Options()
        options.boxes = [PixelRect(video.truth[0])]
        options.level = level
        let runner = TaskRunner(task: try TrackTask(options: options), runningMode: .video)
        var score = Score()
        var comeBack: Int?
        var seconds = 0.0
        for index in video.truth.indices {
            let frame = try video.frame(index)
            let start = DispatchTime.now().uptimeNanoseconds
            let track = try runner.run(videoFrame: frame).tracks[0]
            seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let visibility = video.visibility(index)
            let isOn = track.boundingBox.rect.intersectionOverUnion(with: video.truth[index]) >= 0.5
            if visibility == 0 {
                score.hiddenFrames += 1
                score.hiddenLostFrames += track.lost ? 1 : 0
                score.hiddenConfidence = max(score.hiddenConfidence, track.confidence)
                comeBack = nil
            } else if score.hiddenFrames > 0, score.framesToReacquire == nil, visibility >= 0.75 {
                comeBack = comeBack ?? index
                if isOn, let comeBack { score.framesToReacquire = index - comeBack }
            }
            if visibility >= 0.5 {
                score.visibleFrames += 1
                score.onObjectFrames += isOn ? 1 : 0
            }
        }
        score.millisecondsPerFrame = seconds * 1000 / Double(video.truth.count)
        return score
    }

    @Test(arguments: videos.keys.sorted(), TrackTask.Level.allCases)
    func staysOnTheObjectAndFindsItAgain(video name: String, level: TrackTask.Level) throws {
        let setting = try #require(Self.videos[name])
        let video = try HandHeldObjectVideo(
            object: setting.object, background: setting.background, occluder: setting.occluder, seed: setting.seed)
        let score = try Self.score(video, level: level)
        print("tracking \(name), \(level): \(score)")
        #expect(score.visibleFrames > 150 && score.hiddenFrames >= 10)
        #expect(score.onObject >= (level == .accurate ? 0.95 : 0.90))
        #expect(try #require(score.framesToReacquire) <= 5)
        #expect(score.hiddenConfidence < SingleObjectTracker.confidenceThreshold)
    }

    /// A cup cut from coffee.png slides out of the frame on the right, stays out for 10 frames and comes
    /// back: while the frame's edge cuts it, the search keeps the cup's whole size (a box the edge has
    /// narrowed would never match it again), so both trackers find it within a few frames of its return,
    /// and while it is out it is reported lost. Truth: the path the frames are drawn along.
    @Test(arguments: TrackTask.Level.allCases)
    func findsAnObjectThatLeftTheFrameWhenItComesBack(level: TrackTask.Level) throws {
        let cup = try Fixtures.image("coffee.png").cropped(to: CGRect(x: 170, y: 15, width: 240, height: 290)).resized(width: 96, height: 116)
        let scene = try Fixtures.image("horses.jpg").resized(width: 640, height: 480).buffer
        let positions = (0..<20).map { 400 + 15 * $0 } + Array(repeating: 700, count: 10) + (0..<28).map { 700 - 15 * $0 }
        var options = TrackTask.Options()
        options.boxes = [PixelRect(CGRect(x: 400, y: 180, width: 96, height: 116))]
        options.level = level
        let runner = TaskRunner(task: try TrackTask(options: options), runningMode: .video)
        var hiddenLost = 0, hidden = 0, returned: Int?, foundAgain: Int?
        for (index, x) in positions.enumerated() {
            var frame = scene
            let shown = min(96, 640 - x)
            if shown > 0 {
                try Fixtures.paste(cup.buffer.cropped(x: 0, y: 0, width: shown, height: 116), into: &frame, x: x, y: 180)
            }
            let track = try runner.run(videoFrame: VisionImage(buffer: frame)).tracks[0]
            let truth = CGRect(x: x, y: 180, width: shown, height: 116)
            if shown <= 0 {
                hidden += 1
                hiddenLost += track.lost && track.confidence == 0 ? 1 : 0
            } else if hidden > 0, shown >= 72 {
                returned = returned ?? index
                if foundAgain == nil, !track.lost, track.boundingBox.rect.intersectionOverUnion(with: truth) >= 0.5 {
                    foundAgain = index
                }
            }
        }
        #expect(hidden >= 10 && hiddenLost == hidden, "\(hiddenLost) of \(hidden) frames out of view reported lost")
        let back = try #require(returned)
        #expect(try #require(foundAgain, "never found again") - back <= 5)
    }

    /// A cup cut from coffee.png turns anticlockwise in the image plane, 6° a frame up to a half turn, while it
    /// is carried 15 px a frame to the frame's right edge, where it stays, whole, for 15 frames (the turning
    /// motorbike of issue 30, on a fixture). Turned, it looks little like its seed when it reaches the edge;
    /// the tracker that followed it there has not taken it out of the frame, so it is never reported lost.
    /// Truth: the place the turned patch is drawn at.
    @Test(arguments: TrackTask.Level.allCases)
    func keepsATurnedObjectThatReachesTheEdge(level: TrackTask.Level) throws {
        let coffee = try Fixtures.image("coffee.png").upright().buffer.interleaved()
        let cup = CGRect(x: 170, y: 15, width: 240, height: 290)
        let scene = try Fixtures.image("horses.jpg").resized(width: 640, height: 480).buffer
        let positions = Array(stride(from: 200, to: 544, by: 15)) + Array(repeating: 544, count: 16)
        var options = TrackTask.Options()
        options.boxes = [PixelRect(CGRect(x: 200, y: 180, width: 96, height: 116))]
        options.level = level
        let runner = TaskRunner(task: try TrackTask(options: options), runningMode: .video)
        var lost = 0, onCup = 0
        for (index, x) in positions.enumerated() {
            let angle = Double(min(180, 6 * index)) * .pi / 180
            let (cosine, sine) = (cos(angle), sin(angle))
            let turn = AffineTransform(
                m11: cosine, m12: -sine, m21: sine, m22: cosine, tX: cup.midX - cosine * cup.midX - sine * cup.midY,
                tY: cup.midY + sine * cup.midX - cosine * cup.midY)
            let patch = try coffee.warped(by: turn, width: coffee.width, height: coffee.height)
                .cropped(x: Int(cup.minX), y: Int(cup.minY), width: Int(cup.width), height: Int(cup.height)).resized(width: 96, height: 116)
            var frame = scene
            try Fixtures.paste(patch, into: &frame, x: x, y: 180)
            let track = try runner.run(videoFrame: VisionImage(buffer: frame)).tracks[0]
            lost += track.lost ? 1 : 0
            onCup += track.boundingBox.rect.intersectionOverUnion(with: CGRect(x: x, y: 180, width: 96, height: 116)) >= 0.5 ? 1 : 0
        }
        #expect(lost == 0, "\(lost) of \(positions.count) frames with the whole cup in view reported lost")
        if level == .accurate {
            #expect(onCup >= positions.count * 9 / 10, "on the cup in \(onCup) of \(positions.count) frames")
        }
    }

    /// A view of 400×300 pixels panning over `scene` `step` px a frame to the left, from `start` (its top-left
    /// corner in the scene), the camera following a `chickSide`-pixel chick drawn at the view's centre, seeded
    /// with `seed`, a box that is mostly the scene's background: the tracker follows that background, which
    /// the pan carries to the frame's edge, while the chick stays whole in view in every frame (truth: where
    /// the frames are cut and the chick is drawn; the view does not zoom, so the object's size stays the
    /// seed's). Returns the frames reported lost while more than half of an object of the seed's size can be
    /// inside the tracker's box (which the tracker cannot tell from a still object the pan leaves behind,
    /// ``losesAStillObjectThePanLeavesBehind``, once it is carried out), all frames reported lost, and the
    /// frames whose box holds the whole chick again after a box that did not overlap it.
    static func lostFramesFollowingAPan(
        over scene: PixelBuffer, from start: (x: Int, y: Int), step: Int, chickSide: Int, seed: CGRect, frames: Int,
        level: TrackTask.Level
    ) throws -> (mostlyInView: Int, all: Int, backOnChick: Int) {
        let chick = try Fixtures.image("chicky_512.png").cropped(to: CGRect(x: 100, y: 100, width: 300, height: 300))
            .resized(width: chickSide, height: chickSide)
        var options = TrackTask.Options()
        options.boxes = [PixelRect(seed)]
        options.level = level
        let runner = TaskRunner(task: try TrackTask(options: options), runningMode: .video)
        var lostMostlyInView = 0, lost = 0, backOnChick = 0, hasLeftChick = false
        let chickBox = CGRect(x: 200 - chickSide / 2, y: 150 - chickSide / 2, width: chickSide, height: chickSide)
        for index in 0..<frames {
            var frame = try scene.cropped(x: start.x - step * index, y: start.y, width: 400, height: 300)
            try Fixtures.paste(chick.buffer, into: &frame, x: 200 - chickSide / 2, y: 150 - chickSide / 2)
            let track = try runner.run(videoFrame: VisionImage(buffer: frame)).tracks[0]
            let box = track.boundingBox.rect
            let inside = box.intersection(CGRect(x: 0, y: 0, width: 400, height: 300))
            let shown = inside.isNull ? 0 : inside.width * inside.height
            lost += track.lost ? 1 : 0
            lostMostlyInView += track.lost && shown > max(box.width * box.height, seed.width * seed.height) / 2 ? 1 : 0
            hasLeftChick = hasLeftChick || !box.intersects(chickBox)
            backOnChick += hasLeftChick && !track.lost && box.contains(chickBox) ? 1 : 0
        }
        return (lostMostlyInView, lost, backOnChick)
    }

    /// kite.jpg (1352×900) panned 8 px a frame lower down, a 20×20 chick, a 100×100 seed box centred on it that
    /// is mostly waves (``lostFramesFollowingAPan``): the tracker follows the waves, which the pan carries more
    /// than half out of the frame (near frame 27), while the chick stays in view. The learned embedder finds the
    /// carried box less like the seed than like the seed's surroundings, so the tracker had drifted: it searches
    /// round the last trusted place and re-seats the tracker on the chick, never reporting it lost (before, the
    /// chick was reported lost in 23 of 50 frames at the fast level, eval/README.md). After the
    /// re-seat KCF stays on the chick (23 frames); CSRT, restarted on a box that is again mostly waves, holds it
    /// for 3 frames and then follows the waves once more: the limit of a seed that is mostly background.
    @Test(arguments: TrackTask.Level.allCases)
    func reseatsATrackerTheSceneCarriedOffTheObject(level: TrackTask.Level) throws {
        let lost = try Self.lostFramesFollowingAPan(
            over: try Fixtures.image("kite.jpg").buffer, from: (1000, 600), step: 8, chickSide: 20,
            seed: CGRect(x: 150, y: 100, width: 100, height: 100), frames: 50, level: level)
        #expect(lost.all == 0, "the chick, always in view, reported lost in \(lost.all) of 50 frames")
        #expect(lost.backOnChick >= 1, "the box never came back to the chick after drifting off it")
    }

    /// kite.jpg (1352×900) panned 6 px a frame, a 20×20 chick, a 180×180 seed box that is mostly waves, which
    /// CSRT follows to the frame's edge and out (``lostFramesFollowingAPan``). A box the scene carried to the
    /// edge is not the object leaving: the chick may be reported lost only once the box is carried more than
    /// half out of the frame.
    @Test(arguments: TrackTask.Level.allCases)
    func keepsAnObjectWhoseTrackerTheSceneCarriedToTheEdge(level: TrackTask.Level) throws {
        let lost = try Self.lostFramesFollowingAPan(
            over: try Fixtures.image("kite.jpg").buffer, from: (1000, 480), step: 6, chickSide: 20,
            seed: CGRect(x: 110, y: 60, width: 180, height: 180), frames: 60, level: level)
        print("tracking a chick on a panning view over kite.jpg, \(level): lost in \(lost.all) of 60 frames")
        #expect(lost.mostlyInView == 0, "\(lost.mostlyInView) frames reported lost with the chick in view and the box mostly in the frame")
    }

    /// quokka.jpg (960×643, drawn at 1200×804) panned 8 px a frame, a 16×16 chick, an 80×80 seed box that is
    /// mostly grass (``lostFramesFollowingAPan``). At the fast level KCF stops following the grass and the
    /// searches for the seed carry the box with the scene to the frame's edge: whether the scene carried it
    /// there is judged on the box the tracker follows, whichever step placed it (before, on KCF's own box,
    /// which had not moved: the same frames as a quality-100 MJPEG AVI through `swiftvision track` were
    /// reported lost with the box mostly in the frame in 19 of 60 at the fast level, after it in 0).
    @Test(arguments: TrackTask.Level.allCases)
    func keepsAnObjectWhoseBoxASearchCarriedToTheEdge(level: TrackTask.Level) throws {
        let lost = try Self.lostFramesFollowingAPan(
            over: try Fixtures.image("quokka.jpg").buffer.resized(width: 1200, height: 804), from: (800, 250), step: 8,
            chickSide: 16, seed: CGRect(x: 180, y: 110, width: 80, height: 80), frames: 60, level: level)
        print("tracking a chick on a panning view over quokka.jpg, \(level): lost in \(lost.all) of 60 frames")
        #expect(lost.mostlyInView == 0, "\(lost.mostlyInView) frames reported lost with the chick in view and the box mostly in the frame")
    }

    /// A cup pasted into horses.jpg (773×512; its place fixed in the scene) while a view of 320×240 pixels pans
    /// right over the photo 8 px a frame until the cup has left it on the left and stays out for 11 frames:
    /// the tracker's box is carried to the edge by the scene, as a drifted tracker's is, and the cup really
    /// leaves; it is reported lost in every frame it is wholly out of view (truth: where the frames are cut).
    @Test(arguments: TrackTask.Level.allCases)
    func losesAStillObjectThePanLeavesBehind(level: TrackTask.Level) throws {
        let cup = try Fixtures.image("coffee.png").cropped(to: CGRect(x: 170, y: 15, width: 240, height: 290)).resized(width: 64, height: 77)
        var scene = try Fixtures.image("horses.jpg").buffer
        try Fixtures.paste(cup.buffer, into: &scene, x: 300, y: 200)
        var options = TrackTask.Options()
        options.boxes = [PixelRect(CGRect(x: 100, y: 80, width: 64, height: 77))]
        options.level = level
        let runner = TaskRunner(task: try TrackTask(options: options), runningMode: .video)
        var outOfView = 0, lostOut = 0
        for left in stride(from: 200, through: 773 - 320, by: 8) {
            let frame = try scene.cropped(x: left, y: 120, width: 320, height: 240)
            let track = try runner.run(videoFrame: VisionImage(buffer: frame)).tracks[0]
            if 300 + 64 <= left {
                outOfView += 1
                lostOut += track.lost ? 1 : 0
            }
        }
        #expect(outOfView == 11 && lostOut == outOfView, "\(lostOut) of \(outOfView) frames with the cup out of view reported lost")
    }
}
