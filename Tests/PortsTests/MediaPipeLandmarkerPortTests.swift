import Foundation
import MediaPipeTasksVision
import Testing

/// The hand and pose landmarker guides for iOS, whose first line sets `options.baseOptions.modelAssetPath`.
/// Truth: MediaPipe Python finds one pose of 33 landmarks in person.jpg (a woman standing, whole in view).
@Suite struct MediaPipeLandmarkerPortTests {
    @Test func landmarkersTakeTheGuidesBaseOptions() throws {
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = PortFixtures.model("pose_landmark_full.tflite").path
        options.runningMode = .image
        options.minPoseDetectionConfidence = 0.5
        options.numPoses = 1
        let poseLandmarker = try PoseLandmarker(options: options)
        let result = try poseLandmarker.detect(image: MPImage(contentsOf: PortFixtures.sample("person.jpg")))
        #expect(result.landmarks.count == 1 && result.landmarks.first?.count == 33)

        let hands = HandLandmarkerOptions()
        hands.baseOptions.modelAssetPath = PortFixtures.model("hand_landmark_full.tflite").path
        hands.numHands = 2
        _ = try HandLandmarker(options: hands)
        // The guides' bundles hold other files than the installed models: refused when the task is made.
        for (path, make) in [
            ("/nonexistent/hand_landmarker.task", { (path: String) in
                let options = HandLandmarkerOptions()
                options.baseOptions.modelAssetPath = path
                _ = try HandLandmarker(options: options)
            }),
            (PortFixtures.model("pose_detection.tflite").path, { (path: String) in
                let options = PoseLandmarkerOptions()
                options.baseOptions.modelAssetPath = path
                _ = try PoseLandmarker(options: options)
            }),
        ] {
            do {
                try make(path)
                Issue.record("\(path) was accepted")
            } catch {
                #expect((error as NSError).localizedDescription.contains(path), "\(error)")
            }
        }
    }
}
