import Foundation
import MLKit
import MediaPipeTasksVision
import SwiftVision
import SwiftVisionTestSupport
import Testing
import Vision

/// The README's blocks mix the three styles in one file, where ML Kit and MediaPipe both name an
/// `ObjectDetector` and a `FaceDetector` (as on iOS, where such a file says which it means): here they are ML Kit's.
typealias ObjectDetector = MLKitObjectDetection.ObjectDetector
/// ML Kit's options, as ``ObjectDetector``.
typealias ObjectDetectorOptions = MLKitObjectDetection.ObjectDetectorOptions
/// ML Kit's face detector, as ``ObjectDetector``.
typealias FaceDetector = MLKitFaceDetection.FaceDetector
/// ML Kit's options, as ``ObjectDetector``.
typealias FaceDetectorOptions = MLKitFaceDetection.FaceDetectorOptions

/// The README's Swift examples, verbatim, so that the compiler checks them; the test below checks that
/// the README still shows exactly these lines.
enum ReadmeExamples {
    static func readmeQuickStart() throws {
        let image = try VisionImage(contentsOf: URL(fileURLWithPath: "photo.jpg"))  // EXIF orientation honoured
        let interpreter = try Interpreter(contentsOf: SwiftVisionCache.current.model(named: "face_detection_short_range.tflite"))
        let format = try ImageTensorFormat(tensor: interpreter.inputs[0],
                                           metadata: interpreter.model.metadata?.inputs.first, resizeMode: .letterbox)
        let scores = try interpreter.invoke { inputs in
            try image.write(into: inputs[0], format: format)
        } readingOutputs: { outputs in
            Array(outputs[1].bindMemory(to: Float.self))
        }
    }

    static func readmeFaces(image: VisionImage, video: URL) throws {
        let options = FaceDetectorOptions()          // ML Kit style
        options.performanceMode = .accurate           // full-range model + closer looks: small faces of group photos
        options.landmarkMode = .all                   // eyes (pupils), ears, cheeks, nose, mouth
        options.contourMode = .all                    // face oval, eyebrows, eyes, lips, nose
        options.isTrackingEnabled = true              // frames form a stream: tracking IDs
        let detector = FaceDetector.faceDetector(options: options)
        let faces = try detector.results(in: image.mlKitImage)  // or `try await detector.process(image.mlKitImage)`
        for frame in try VideoReader(url: video) {    // video: tracking IDs, the mesh follows each face
            let tracked = try detector.results(inVideoFrame: frame.image.mlKitImage, timestampInMilliseconds: frame.timestampInMilliseconds)
        }

        let observations = try ImageRequestHandler(image).perform(DetectFaceLandmarksRequest())  // Vision style
        let landmarks = observations.first?.landmarks   // faceContour, leftEye, …, leftPupil; normalised lower-left
    }

    static func readmeObjects(image: VisionImage, frame: VideoFrame, box: CGRect, nextFrame: VisionImage) throws {
        let options = ObjectDetectorOptions()         // ML Kit style, YOLOv4-tiny (COCO-80) from the model zoo
        options.detectorMode = .stream                 // tracking IDs across frames (ByteTrack association)
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true      // COCO class + ML Kit's coarse category
        let detector = ObjectDetector.objectDetector(options: options)
        let objects = try detector.results(inVideoFrame: frame.image.mlKitImage, timestampInMilliseconds: frame.timestampInMilliseconds)

        let handler = SequenceRequestHandler()         // Vision style: follow a seed box frame after frame
        var observation = DetectedObjectObservation(imageRect: box, imageSize: image.size)
        var request = TrackObjectRequest(detectedObjectObservation: observation)
        request.trackingLevel = .fast                  // KCF; .accurate is CSRT
        observation = try handler.perform(request, on: nextFrame)   // .isLost while it is hidden or gone
    }

    static func readmeSegmentation(image: VisionImage) throws {
        let options = SelfieSegmenterOptions()        // ML Kit style, MediaPipe's selfie segmentation model
        options.segmenterMode = .singleImage           // .stream (the default) smooths masks from frame to frame
        let mask = try Segmenter.segmenter(options: options).results(in: image.mlKitImage)  // width, height, confidences 0–1
        let confidence = mask.confidence(atX: 600, y: 350)   // upright pixels; the image's size unless shouldEnableRawSizeMask
        var canvas = try ImageCanvas(image: image)
        try canvas.blurBackground(keeping: mask.plane)       // or replaceBackground(keeping:with:), drawMask(_:color:opacity:)

        var request = GeneratePersonSegmentationRequest()     // Vision style
        request.qualityLevel = .balanced                      // .fast: the 256×256 mask; .accurate: the image's size
        let observation = try ImageRequestHandler(image).perform(request)  // pixelBuffer: 8-bit gray, 255 = person
    }

    static func readmePose(image: VisionImage, frame: VideoFrame) throws {
        let options = PoseLandmarkerOptions()         // MediaPipe style: BlazePose detector + full landmark model
        options.runningMode = .video                   // landmarks of one frame place the next frame's crop
        options.outputSegmentationMasks = true         // body mask over the image (ConfidenceMask)
        let landmarker = try PoseLandmarker(options: options)
        let result = try landmarker.detect(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
        let wrist = result.landmarks.first?[PoseLandmarkType.leftWrist.index]   // x, y (0…1), z, visibility, presence

        let pose = try PoseDetector.poseDetector(options: PoseDetectorOptions()).results(in: image.mlKitImage).first   // ML Kit style
        let nose = pose?.landmark(ofType: .nose).position                                        // pixels; inFrameLikelihood
        let body = try ImageRequestHandler(image).perform(DetectHumanBodyPoseRequest()).first   // Vision style: 19 joints
        let neck = body?.joint(for: .neck)?.location                                            // normalised lower-left
    }

    static func readmeHands(image: VisionImage, frame: VideoFrame) throws {
        let options = HandLandmarkerOptions()         // MediaPipe style: palm detector + full hand landmark model
        options.numHands = 2
        options.runningMode = .video                  // each hand's landmarks place its next crop
        let landmarker = try HandLandmarker(options: options)
        let result = try landmarker.detect(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
        let tip = result.landmarks.first?[HandLandmarkType.indexFingerTip.index]   // x, y (0…1), z
        let side = result.handedness.first?.first?.categoryName                    // "Left" or "Right", as MediaPipe

        let hands = try ImageRequestHandler(image).perform(DetectHumanHandPoseRequest())   // Vision style: 21 joints
        let thumb = hands.first?.joint(for: .thumbTip)?.location                           // normalised lower-left
        let chirality = hands.first?.chirality                                             // the subject's hand
    }

    static func readmeRectanglesBarcodesText(image: VisionImage) throws {
        let pages = try RectangleDetector(options: .init(maximumObservations: 0)).results(in: image)  // corners in pixels
        let scan = try image.perspectiveCorrected(pages[0].corners)          // what a document scanner does next
        let codes = try BarcodeScanner.barcodeScanner().results(in: image.mlKitImage)    // ML Kit style: valueType, displayValue, wifi, url…
        let text = try TextRecognizer.textRecognizer(options: TextRecognizerOptions()).results(in: image.mlKitImage)  // blocks → lines → elements

        var request = DetectRectanglesRequest()                               // Vision style, Vision's options and defaults
        request.minimumAspectRatio = 0.3
        let rectangles = try ImageRequestHandler(image).perform(request)      // topLeft… normalised lower-left, imageCorners in pixels
        let lines = try ImageRequestHandler(image).perform(RecognizeTextRequest())  // also DetectBarcodesRequest
    }

    static func readmeLabelsEmbeddings(image: VisionImage, boxes: [CGRect], first: VisionImage, second: VisionImage, otherFeaturePrint: FeaturePrintObservation) async throws {
        let options = ImageLabelerOptions()           // ML Kit style, EfficientNet-Lite0 (ImageNet) from the model zoo
        options.confidenceThreshold = 0.5
        let labels = try ImageLabeler.imageLabeler(options: options).results(in: image.mlKitImage)  // text, confidence, index
        let custom = ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: LocalModel(path: "birds.tflite")))
        let perBox = try custom.results(in: image.mlKitImage, regions: boxes)  // one call for the crops of many boxes

        let remote = RemoteModel(name: "birds", url: URL(string: "https://example.com/birds.tflite")!, sha256: nil)
        let manager = ModelManager.modelManager()
        for try await progress in manager.downloadUpdates(remote) { print(progress.completedBytes, progress.totalBytes ?? -1) }
        let model = manager.downloadedModel(for: remote) ?? LocalModel(path: "bundled/birds.tflite")

        let embedding = ImageEmbedderOptions()        // MediaPipe style: .image, .video or .liveStream
        embedding.l2Normalize = true
        let embedder = try ImageEmbedder(options: embedding)
        let similarity = try ImageEmbedder.cosineSimilarity(                       // an NSNumber, as in MediaPipe
            embedding1: embedder.embed(image: first).embeddings[0], embedding2: embedder.embed(image: second).embeddings[0])
        let featurePrint = try await ImageRequestHandler(image).perform(GenerateImageFeaturePrintRequest())  // Vision style
        let distance = try featurePrint.computeDistance(to: otherFeaturePrint)
    }
}

@Suite struct ReadmeTests {
    /// Lines without their indentation, blank lines dropped.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func everySwiftExampleOfTheReadmeIsCompiledHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let compiled = Self.lines(try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 8)
        for block in blocks {
            let expected = Self.lines(block).filter { !$0.hasPrefix("import ") }
            let found = compiled.indices.contains { start in
                start + expected.count <= compiled.count && Array(compiled[start..<start + expected.count]) == expected
            }
            #expect(found, "README block not compiled in ReadmeTests.swift: \(expected.first ?? "")")
        }
    }
}
