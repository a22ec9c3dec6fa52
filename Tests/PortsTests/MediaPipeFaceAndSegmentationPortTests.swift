import Foundation
import MediaPipeTasksVision
import Synchronization
import SwiftVisionTestSupport
import Testing

/// MediaPipe code in the shape of Google's iOS guides for the face detector, the face landmarker and the
/// image segmenter, with only the image lines changed. Truth: MediaPipe Python's Tasks API on the same models
/// and photos (``MediaPipeTasksReference``) and MediaPipe's documented defaults.
@Suite(.serialized) struct MediaPipeFaceAndSegmentationPortTests {
    /// Records what a live stream delivers, as an app's view controller would.
    final class StreamRecorder: NSObject, FaceDetectorLiveStreamDelegate, FaceLandmarkerLiveStreamDelegate,
        ImageSegmenterLiveStreamDelegate, @unchecked Sendable
    {
        let faces = Mutex<[Int: FaceDetectorResult]>([:])
        let faceErrors = Mutex<[Int: NSError]>([:])
        let meshes = Mutex<[Int: FaceLandmarkerResult]>([:])
        let masks = Mutex<[Int: ImageSegmenterResult]>([:])

        func faceDetector(
            _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            if let result { faces.withLock { $0[timestampInMilliseconds] = result } }
            if let error { faceErrors.withLock { $0[timestampInMilliseconds] = error as NSError } }
        }

        func faceLandmarker(
            _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            if let result { meshes.withLock { $0[timestampInMilliseconds] = result } }
        }

        func imageSegmenter(
            _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            if let result { masks.withLock { $0[timestampInMilliseconds] = result } }
        }

        /// Waits up to 5 s for `delivered` to hold.
        static func wait(until delivered: () -> Bool) async throws {
            for _ in 0..<200 where !delivered() {
                try await Task.sleep(for: .milliseconds(25))
            }
        }
    }

    /// The photos: one close face (astronaut.png, 512×512), four small faces (facereg.jpg, 200×200), a wide
    /// photo letterboxed into the detector's square where MediaPipe's detector finds one unsure face
    /// (zidane.jpg, 1280×720); people to segment in zidane.jpg and person.jpg.
    static let facePhotos = ["astronaut.png", "facereg.jpg", "zidane.jpg"]
    static let meshPhotos = ["facereg.jpg", "astronaut.png"]
    static let segmentPhotos = ["zidane.jpg", "person.jpg"]

    /// MediaPipe Python's results on the photos, in the order above; the masks are written into a temporary folder.
    static let reference: Result<MediaPipeTasksReference, any Error> = Result {
        let folder = try Fixtures.temporaryDirectory()
        let requests =
            facePhotos.map { "faces=\(PortFixtures.sample($0).path)" } + meshPhotos.map { "landmarks=\(PortFixtures.sample($0).path)" }
            + segmentPhotos.map { "segment=\(PortFixtures.sample($0).path)" }
        return try MediaPipeTasksReference.run(requests, in: folder)
    }

    static let detectorPath = PortFixtures.model("face_detection_short_range.tflite").path

    /// Box corners within 1 px (both sides truncate the boxes to whole pixels; a value a hair either side of
    /// a whole number may land 1 px apart), key points within 1 px.
    static let boxTolerance = 1.0
    static let keypointTolerance = 1.0

    @Test func optionsHaveMediaPipesDefaults() {
        let detector = FaceDetectorOptions()
        #expect(detector.runningMode == .image && detector.minDetectionConfidence == 0.5 && detector.minSuppressionThreshold == 0.3)
        // MPPBaseOptions.h: `NSString *modelAssetPath`, not nullable; MPPBaseOptions.m sets it to an empty string.
        let modelAssetPath: String = detector.baseOptions.modelAssetPath
        #expect(modelAssetPath.isEmpty && detector.faceDetectorLiveStreamDelegate == nil)
        #expect(detector.baseOptions.delegate == .CPU)
        let landmarker = FaceLandmarkerOptions()
        #expect(landmarker.numFaces == 1 && landmarker.minFaceDetectionConfidence == 0.5)
        #expect(landmarker.minFacePresenceConfidence == 0.5 && landmarker.minTrackingConfidence == 0.5)
        #expect(!landmarker.outputFaceBlendshapes && !landmarker.outputFacialTransformationMatrixes)
        let segmenter = ImageSegmenterOptions()
        #expect(segmenter.runningMode == .image && segmenter.shouldOutputConfidenceMasks && !segmenter.shouldOutputCategoryMask)
    }

    @Test func theReferenceRanTheInstalledModels() throws {
        let reference = try Self.reference.get()
        let installed = ["face_detection_short_range.tflite", "face_landmark.tflite"].map { PortFixtures.model($0).path }
        for (wheel, ours) in zip(reference.models, installed) {
            #expect(FileManager.default.contentsEqual(atPath: wheel, andPath: ours), "\(wheel)")
        }
    }

    /// Expects `ours` to be MediaPipe's `theirs`: the same faces in the same order, each box's corners and key
    /// points within the tolerances, the scores within 0.01.
    static func expectSameFaces(_ ours: FaceDetectorResult, _ theirs: MediaPipeTasksReference.Result, _ name: String) {
        #expect(ours.detections.count == theirs.detections.count, "\(name)")
        for (our, their) in zip(ours.detections, theirs.detections) {
            let (box, truth) = (our.boundingBox, their.boundingBox)
            #expect(abs(box.minX - truth.minX) <= boxTolerance && abs(box.minY - truth.minY) <= boxTolerance, "\(name): \(box) \(truth)")
            #expect(abs(box.maxX - truth.maxX) <= boxTolerance && abs(box.maxY - truth.maxY) <= boxTolerance, "\(name): \(box) \(truth)")
            #expect(overlap(box, truth) >= 0.9, "\(name)")
            #expect(abs(our.categories[0].score - their.score) <= 0.01, "\(name)")
            let points = (our.keypoints ?? []).map { CGPoint(x: $0.location.x * Double(theirs.width), y: $0.location.y * Double(theirs.height)) }
            #expect(points.count == 6, "\(name)")
            for (point, truth) in zip(points, their.points) {
                #expect(hypot(point.x - truth.x, point.y - truth.y) <= keypointTolerance, "\(name): \(point) \(truth)")
            }
        }
    }

    /// The intersection over union of two boxes.
    static func overlap(_ first: CGRect, _ second: CGRect) -> Double {
        let common = first.intersection(second)
        guard !common.isNull else { return 0 }
        let area = common.width * common.height
        return area / (first.width * first.height + second.width * second.height - area)
    }

    /// Every one of MediaPipe's iOS sample apps sets `baseOptions.delegate` from a CPU/GPU picker; on Linux
    /// `.GPU` runs on the CPU and finds MediaPipe Python's faces, as `.CPU` does.
    @Test func theSamplesDelegateChoiceRunsOnTheCPU() throws {
        let reference = try Self.reference.get()
        for delegate in Delegate.allCases {
            let faceDetectorOptions = FaceDetectorOptions()
            faceDetectorOptions.runningMode = .image
            faceDetectorOptions.minDetectionConfidence = 0.5
            faceDetectorOptions.minSuppressionThreshold = 0.3
            faceDetectorOptions.baseOptions.modelAssetPath = Self.detectorPath
            faceDetectorOptions.baseOptions.delegate = delegate
            let faceDetector = try FaceDetector(options: faceDetectorOptions)
            for (index, name) in Self.facePhotos.enumerated() {
                let result = try faceDetector.detect(image: try MPImage(contentsOf: PortFixtures.sample(name)))
                Self.expectSameFaces(result, reference.results[index], "\(delegate): \(name)")
            }
        }
    }

    @Test func faceDetectorFindsMediaPipesFacesInEveryRunningMode() async throws {
        let reference = try Self.reference.get()
        let faceDetector = try FaceDetector(modelPath: Self.detectorPath)
        let photos = try Self.facePhotos.map { try MPImage(contentsOf: PortFixtures.sample($0)) }
        for (index, (name, image)) in zip(Self.facePhotos, photos).enumerated() {
            Self.expectSameFaces(try faceDetector.detect(image: image), reference.results[index], name)
        }

        let video = FaceDetectorOptions()
        video.runningMode = .video
        let videoDetector = try FaceDetector(options: video)
        for (index, image) in photos.enumerated() {
            let result = try videoDetector.detect(videoFrame: image, timestampInMilliseconds: 33 * index)
            #expect(result.timestampInMilliseconds == 33 * index)
            Self.expectSameFaces(result, reference.results[index], "video frame \(index)")
        }

        let recorder = StreamRecorder()
        let live = FaceDetectorOptions()
        live.runningMode = .liveStream
        live.faceDetectorLiveStreamDelegate = recorder
        let liveDetector = try FaceDetector(options: live)
        try liveDetector.detectAsync(image: photos[1], timestampInMilliseconds: 0)
        try await StreamRecorder.wait { recorder.faces.withLock { !$0.isEmpty } }
        let delivered = try #require(recorder.faces.withLock { $0[0] })
        Self.expectSameFaces(delivered, reference.results[1], "live stream")
    }

    @Test func aLateLiveStreamFrameIsRefusedAndTheStreamGoesOn() async throws {
        // MediaPipe's iOS FaceDetector: detectAsync's timestamps must increase; a frame whose timestamp does not is
        // refused by the call itself (MPPTasksErrorCodeInvalidArgumentError), its delegate hears nothing of it, and
        // the stream goes on: the next frame with a later timestamp is detected as before.
        let recorder = StreamRecorder()
        let live = FaceDetectorOptions()
        live.runningMode = .liveStream
        live.faceDetectorLiveStreamDelegate = recorder
        let detector = try FaceDetector(options: live)
        let image = try MPImage(contentsOf: PortFixtures.sample("astronaut.png"))
        try detector.detectAsync(image: image, timestampInMilliseconds: 100)
        try await StreamRecorder.wait { recorder.faces.withLock { $0[100] != nil } }
        for late in [100, 40, -5] {
            do {
                try detector.detectAsync(image: image, timestampInMilliseconds: late)
                Issue.record("a frame at \(late) ms after one at 100 ms was accepted")
            } catch let error as NSError {
                #expect(error.domain == MPPTasksErrorDomain && error.code == Int(TasksErrorCode.invalidArgumentError.rawValue), "\(late)")
            }
        }
        try detector.detectAsync(image: image, timestampInMilliseconds: 133)
        try await StreamRecorder.wait { recorder.faces.withLock { $0[133] != nil } }
        let faces = recorder.faces.withLock { $0 }
        #expect(faces.keys.sorted() == [100, 133])
        #expect(recorder.faceErrors.withLock { $0.isEmpty })
        // The same photo gives the same faces: one, as MediaPipe finds (the reference results above).
        #expect(faces[100]?.detections.count == 1 && faces[133]?.detections.count == 1)
    }

    @Test func faceLandmarkerFitsMediaPipesMesh() async throws {
        let reference = try Self.reference.get()
        let options = FaceLandmarkerOptions()
        options.numFaces = 5
        let faceLandmarker = try FaceLandmarker(options: options)
        for (offset, name) in Self.meshPhotos.enumerated() {
            let theirs = reference.results[Self.facePhotos.count + offset]
            let ours = try faceLandmarker.detect(image: try MPImage(contentsOf: PortFixtures.sample(name)))
            #expect(ours.faceLandmarks.count == theirs.meshes.count && ours.faceBlendshapes.isEmpty, "\(name)")
            let error = Self.medianDistance(ours, theirs)
            #expect(error <= 1, "\(name): median landmark error \(error) px")
        }

        let recorder = StreamRecorder()
        let live = FaceLandmarkerOptions()
        live.runningMode = .liveStream
        live.faceLandmarkerLiveStreamDelegate = recorder
        let liveLandmarker = try FaceLandmarker(options: live)
        try liveLandmarker.detectAsync(image: try MPImage(contentsOf: PortFixtures.sample("astronaut.png")), timestampInMilliseconds: 5)
        try await StreamRecorder.wait { recorder.meshes.withLock { !$0.isEmpty } }
        let delivered = try #require(recorder.meshes.withLock { $0[5] })
        #expect(Self.medianDistance(delivered, reference.results[Self.facePhotos.count + 1]) <= 1)
    }

    @Test func faceLandmarkerFollowsAFaceThroughAVideo() throws {
        let reference = try Self.reference.get()
        let theirs = reference.results[Self.facePhotos.count + 1]
        let options = FaceLandmarkerOptions()
        options.runningMode = .video
        let faceLandmarker = try FaceLandmarker(options: options)
        let astronaut = try MPImage(contentsOf: PortFixtures.sample("astronaut.png"))
        // The same photo again and again: from the second frame the mesh's crop comes from the previous mesh,
        // and the mesh stays on MediaPipe's image-mode mesh.
        for timestamp in [0, 33, 66] {
            let frame = try faceLandmarker.detect(videoFrame: astronaut, timestampInMilliseconds: timestamp)
            #expect(frame.timestampInMilliseconds == timestamp && frame.faceLandmarks.count == 1)
            let error = Self.medianDistance(frame, theirs)
            #expect(error <= 1.5, "frame \(timestamp): median landmark error \(error) px")
        }
    }

    /// The median distance in pixels between our mesh points and MediaPipe's, each of its faces paired with
    /// ours nearest to it; infinity when a face has no partner.
    static func medianDistance(_ ours: FaceLandmarkerResult, _ theirs: MediaPipeTasksReference.Result) -> Double {
        let (width, height) = (Double(theirs.width), Double(theirs.height))
        let meshes = ours.faceLandmarks.map { $0.map { CGPoint(x: $0.x * width, y: $0.y * height) } }
        func centroid(_ points: [CGPoint]) -> CGPoint {
            CGPoint(x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
        }
        var distances: [Double] = []
        for mesh in theirs.meshes {
            let center = centroid(mesh)
            func offset(_ points: [CGPoint]) -> Double { hypot(centroid(points).x - center.x, centroid(points).y - center.y) }
            guard let nearest = meshes.min(by: { offset($0) < offset($1) }), nearest.count == mesh.count else { return .infinity }
            distances += zip(nearest, mesh).map { hypot($0.x - $1.x, $0.y - $1.y) }
        }
        guard !distances.isEmpty else { return .infinity }
        return distances.sorted()[distances.count / 2]
    }

    /// The intersection over union of two masks' pixels that are set.
    static func intersectionOverUnion(_ first: [Bool], _ second: [Bool]) -> Double {
        guard first.count == second.count else { return 0 }
        var (both, either) = (0, 0)
        for index in first.indices {
            if first[index] && second[index] { both += 1 }
            if first[index] || second[index] { either += 1 }
        }
        return either == 0 ? 0 : Double(both) / Double(either)
    }

    @Test func imageSegmenterMasksAgreeWithMediaPipes() async throws {
        let reference = try Self.reference.get()
        let options = ImageSegmenterOptions()
        options.shouldOutputCategoryMask = true
        let imageSegmenter = try ImageSegmenter(options: options)
        for (offset, name) in Self.segmentPhotos.enumerated() {
            let theirs = reference.results[Self.facePhotos.count + Self.meshPhotos.count + offset]
            let result = try imageSegmenter.segment(image: try MPImage(contentsOf: PortFixtures.sample(name)))
            let confidence = try #require(result.confidenceMasks?.first)
            let category = try #require(result.categoryMask)
            #expect(result.confidenceMasks?.count == 1 && confidence.dataType == .float32 && category.dataType == .uInt8)
            #expect(confidence.width == theirs.width && confidence.height == theirs.height)
            #expect(category.width == theirs.width && category.height == theirs.height)
            let (ourPeople, theirPeople) = (confidence.float32Data.map { $0 > 0.5 }, try theirs.confidences().map { $0 > 0.5 })
            #expect(ourPeople.contains(true) && ourPeople.count == theirPeople.count)
            #expect(Self.intersectionOverUnion(ourPeople, theirPeople) >= 0.95, "\(name) confidence")
            let (ourCategory, theirCategory) = (category.uint8Data.map { $0 == 0 }, try theirs.categories().map { $0 == 0 })
            #expect(Self.intersectionOverUnion(ourCategory, theirCategory) >= 0.95, "\(name) category")
            #expect(Set(category.uint8Data).isSubset(of: [0, 255]))
        }

        let person = try MPImage(contentsOf: PortFixtures.sample("person.jpg"))
        let single = try #require(try ImageSegmenter(options: ImageSegmenterOptions()).segment(image: person).confidenceMasks?.first)
        let video = ImageSegmenterOptions()
        video.runningMode = .video
        let videoSegmenter = try ImageSegmenter(options: video)
        for timestamp in [0, 40] {
            let frame = try videoSegmenter.segment(videoFrame: person, timestampInMilliseconds: timestamp)
            let same = frame.confidenceMasks?.first?.float32Data == single.float32Data
            #expect(same && frame.categoryMask == nil, "frame \(timestamp)'s mask is the image's")
        }

        let recorder = StreamRecorder()
        let live = ImageSegmenterOptions()
        live.runningMode = .liveStream
        live.imageSegmenterLiveStreamDelegate = recorder
        let liveSegmenter = try ImageSegmenter(options: live)
        try liveSegmenter.segmentAsync(image: person, timestampInMilliseconds: 7)
        try await StreamRecorder.wait { recorder.masks.withLock { !$0.isEmpty } }
        let delivered = recorder.masks.withLock { $0[7]?.confidenceMasks?.first?.float32Data }
        #expect(delivered == single.float32Data, "the live stream's mask is the image's")
    }

    /// The error `body` throws, as the `NSError` an iOS caller gets.
    static func nsError(_ body: () throws -> Void) -> NSError? {
        do {
            try body()
            return nil
        } catch {
            return error as NSError
        }
    }

    @Test func badInputGetsNSErrorsNotCrashes() throws {
        let missing = Self.nsError { _ = try FaceDetector(modelPath: "/nonexistent/blaze_face_short_range.tflite") }
        #expect(missing?.localizedDescription.contains("/nonexistent/blaze_face_short_range.tflite") == true)
        let other = Self.nsError { _ = try FaceDetector(modelPath: PortFixtures.model("face_landmark.tflite").path) }
        #expect(other?.localizedDescription.contains("face_detection_short_range.tflite") == true)
        #expect(Self.nsError { _ = try FaceLandmarker(modelPath: Self.detectorPath) } != nil)
        #expect(Self.nsError { _ = try ImageSegmenter(modelPath: "/nonexistent/selfie_segmenter.tflite") } != nil)

        let blendshapes = FaceLandmarkerOptions()
        blendshapes.outputFaceBlendshapes = true
        #expect(Self.nsError { _ = try FaceLandmarker(options: blendshapes) }?.localizedDescription.contains("blendshape") == true)
        let presence = FaceLandmarkerOptions()
        presence.minFacePresenceConfidence = 0.7
        #expect(Self.nsError { _ = try FaceLandmarker(options: presence) } != nil)
        let noMasks = ImageSegmenterOptions()
        noMasks.shouldOutputConfidenceMasks = false
        #expect(Self.nsError { _ = try ImageSegmenter(options: noMasks) } != nil)
        let confidence = FaceDetectorOptions()
        confidence.minDetectionConfidence = 1.5
        #expect(Self.nsError { _ = try FaceDetector(options: confidence) } != nil)

        let image = try MPImage(contentsOf: PortFixtures.sample("astronaut.png"))
        let imageMode = try FaceDetector(options: FaceDetectorOptions())
        let wrongMode = Self.nsError { _ = try imageMode.detect(videoFrame: image, timestampInMilliseconds: 0) }
        #expect(wrongMode?.domain.isEmpty == false && wrongMode?.localizedDescription.contains("video") == true)
        #expect(Self.nsError { try imageMode.detectAsync(image: image, timestampInMilliseconds: 0) } != nil)
        let video = ImageSegmenterOptions()
        video.runningMode = .video
        let videoSegmenter = try ImageSegmenter(options: video)
        _ = try videoSegmenter.segment(videoFrame: image, timestampInMilliseconds: 10)
        #expect(Self.nsError { _ = try videoSegmenter.segment(videoFrame: image, timestampInMilliseconds: 10) } != nil)
        #expect(Self.nsError { _ = try videoSegmenter.segment(image: image) } != nil)
        let delegateInImageMode = FaceDetectorOptions()
        let recorder = StreamRecorder()
        delegateInImageMode.faceDetectorLiveStreamDelegate = recorder
        #expect(Self.nsError { _ = try FaceDetector(options: delegateInImageMode) } != nil)
    }
}
