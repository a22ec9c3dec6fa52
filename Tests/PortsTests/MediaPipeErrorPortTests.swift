import Foundation
import MediaPipeTasksVision
import Testing

/// MediaPipe's failures as an iOS app catches them: `NSError`s in `MPPTasksErrorDomain`
/// (`com.google.mediapipe.tasks`) whose codes are `TasksErrorCode` values. Truth: MediaPipe's iOS sources, named
/// at each check (`MPPCommon.h`, `MPPCommonUtils.mm`, `MPPVisionTaskRunner.mm`, and the C++ task library whose
/// absl status codes `MPPCommonUtils` turns into `TasksErrorCode`s one to one).
@Suite struct MediaPipeErrorPortTests {
    /// Collects what a hand landmarker's live stream hands over, as an app's view controller would.
    final class HandRecorder: NSObject, HandLandmarkerLiveStreamDelegate, @unchecked Sendable {
        func handLandmarker(
            _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {}
    }

    /// The error `body` throws, as the `NSError` an iOS caller catches; nil when it throws none.
    static func caught(_ body: () throws -> Void) -> NSError? {
        do {
            try body()
            return nil
        } catch let error as NSError {
            return error
        }
    }

    @Test func domainAndCodesAreMediaPipes() {
        // MPPCommonUtils.mm: MPPTasksErrorDomain = @"com.google.mediapipe.tasks"; MPPCommon.h: the codes 1…16.
        #expect(MPPTasksErrorDomain == "com.google.mediapipe.tasks")
        #expect(TasksErrorCode.cancelledError.rawValue == 1 && TasksErrorCode.invalidArgumentError.rawValue == 3)
        #expect(TasksErrorCode.notFoundError.rawValue == 5 && TasksErrorCode.internalError.rawValue == 13)
        #expect(TasksErrorCode.unavailableError.rawValue == 14 && TasksErrorCode.unauthenticatedError.rawValue == 16)
        #expect(TasksErrorCode.allCases.map(\.rawValue) == Array(1...16))
    }

    @Test func aMissingModelIsNotFound() {
        // external_file_handler.cc: a model path that cannot be opened (ENOENT) is absl kNotFound, which
        // MPPCommonUtils.mm reports as MPPTasksErrorCodeNotFoundError.
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = "/nonexistent/hand_landmarker.task"
        let hands = Self.caught { _ = try HandLandmarker(options: options) }
        #expect(hands?.domain == MPPTasksErrorDomain && hands?.code == Int(TasksErrorCode.notFoundError.rawValue))
        #expect(hands?.localizedDescription.contains("/nonexistent/hand_landmarker.task") == true)
        let embedder = Self.caught { _ = try ImageEmbedder(modelPath: "/nonexistent/mobilenet_v3_small.tflite") }
        #expect(embedder?.domain == MPPTasksErrorDomain && embedder?.code == Int(TasksErrorCode.notFoundError.rawValue))
    }

    @Test func callsOfAnotherRunningModeAndLateTimestampsAreInvalidArguments() throws {
        let invalidArgument = Int(TasksErrorCode.invalidArgumentError.rawValue)
        let image = try MPImage(contentsOf: PortFixtures.sample("astronaut.png"))
        // MPPVisionTaskRunner.mm: a video frame or a live-stream frame given to a task in image mode is
        // MPPTasksErrorCodeInvalidArgumentError.
        let imageMode = try FaceDetector(options: FaceDetectorOptions())
        for call in [
            { _ = try imageMode.detect(videoFrame: image, timestampInMilliseconds: 0) },
            { try imageMode.detectAsync(image: image, timestampInMilliseconds: 0) },
        ] as [() throws -> Void] {
            let error = Self.caught(call)
            #expect(error?.domain == MPPTasksErrorDomain && error?.code == invalidArgument, "\(String(describing: error))")
        }
        // The task runner refuses a timestamp that does not increase with absl kInvalidArgument ("Input
        // timestamp must be monotonically increasing."), MPPTasksErrorCodeInvalidArgumentError on iOS.
        let options = FaceDetectorOptions()
        options.runningMode = .video
        let video = try FaceDetector(options: options)
        _ = try video.detect(videoFrame: image, timestampInMilliseconds: 40)
        let late = Self.caught { _ = try video.detect(videoFrame: image, timestampInMilliseconds: 40) }
        #expect(late?.domain == MPPTasksErrorDomain && late?.code == invalidArgument)
        #expect(late?.localizedDescription.contains("40") == true)
    }

    @Test func aLiveStreamDelegateInImageModeIsAnInvalidArgument() {
        // MPPVisionTaskRunner.mm: a task in image or video mode whose options set a delegate is not made,
        // with MPPTasksErrorCodeInvalidArgumentError.
        let recorder = HandRecorder()
        let options = HandLandmarkerOptions()
        options.runningMode = .image
        options.handLandmarkerLiveStreamDelegate = recorder
        let error = Self.caught { _ = try HandLandmarker(options: options) }
        #expect(error?.domain == MPPTasksErrorDomain && error?.code == Int(TasksErrorCode.invalidArgumentError.rawValue))
        #expect(error?.localizedDescription.contains("live-stream delegate") == true)
    }
}
