import Dispatch
import Foundation
import MLKit
import Testing

/// ML Kit code in the shape of Google's iOS guides, with only the image lines changed
/// (`VisionImage(contentsOf:)` for `VisionImage(image: uiImage)`), and the callback queue set since a
/// test has no main loop. Truth: ML Kit's documented defaults, and the hand-checked content of the
/// sample photos (coffee.png is an espresso, ImageNet class 967; zidane.jpg shows two faces; bus.jpg a
/// bus and at least three people).
@Suite(.serialized) struct MLKitPortTests {
    @Test func optionsAreClassesWithMLKitsDefaults() {
        let labeling = ImageLabelerOptions()
        #expect(labeling.confidenceThreshold == nil)
        labeling.confidenceThreshold = 0.4
        #expect(labeling.confidenceThreshold?.floatValue == 0.4)
        let faces = FaceDetectorOptions()
        #expect(faces.performanceMode == .fast && faces.landmarkMode == .none && faces.contourMode == .none)
        #expect(faces.minFaceSize == 0.1 && !faces.isTrackingEnabled)
        #expect(faces.callbackQueue.label == DispatchQueue.main.label)
        let objects = ObjectDetectorOptions()
        #expect(objects.detectorMode == .stream && !objects.shouldEnableMultipleObjects && !objects.shouldEnableClassification)
        let custom = CustomObjectDetectorOptions(localModel: LocalModel(path: "/nonexistent.tflite"))
        #expect(custom.classificationConfidenceThreshold == nil && custom.maxPerObjectLabelCount == 10)
        #expect(CustomImageLabelerOptions(localModel: LocalModel(path: "/nonexistent.tflite")).maxResultCount == 10)
        #expect(SelfieSegmenterOptions().segmenterMode == .stream && PoseDetectorOptions().detectorMode == .stream)
    }

    @Test func labelsAPhoto() async throws {
        let options = ImageLabelerOptions()
        options.confidenceThreshold = 0.7
        options.callbackQueue = PortFixtures.callbacks
        let labeler = ImageLabeler.imageLabeler(options: options)
        let image = try VisionImage(contentsOf: PortFixtures.sample("coffee.png"))
        image.orientation = .up

        let labels = try labeler.results(in: image)
        let first = try #require(labels.first)
        #expect(first.text == "espresso" && first.index == 967 && first.confidence >= 0.7)
        #expect(labels.allSatisfy { $0.confidence >= 0.7 })

        let delivered = await PortFixtures.completion { labeler.process(image, completion: $0) }
        #expect(delivered.results == labels && delivered.error == nil && delivered.onCallbacks)
    }

    @Test func findsFacesWithLandmarks() throws {
        let options = FaceDetectorOptions()
        options.performanceMode = .accurate
        options.landmarkMode = .all
        options.contourMode = .all
        options.classificationMode = .all
        let faceDetector = FaceDetector.faceDetector(options: options)
        let faces = try faceDetector.results(in: VisionImage(contentsOf: PortFixtures.sample("zidane.jpg")))
        #expect(faces.count == 2)
        for center in [CGPoint(x: 990, y: 195), CGPoint(x: 615, y: 355)] {
            let face = try #require(faces.first { $0.frame.contains(center) }, "no face around \(center)")
            #expect(face.hasHeadEulerAngleY && face.hasHeadEulerAngleZ && !face.hasHeadEulerAngleX && !face.hasTrackingID)
            // The guide reads each value behind its flag; nothing is classified here, so no flag is set.
            var read: [CGFloat] = []
            if face.hasHeadEulerAngleX { read.append(face.headEulerAngleX) }
            if face.hasSmilingProbability { read.append(face.smilingProbability) }
            if face.hasLeftEyeOpenProbability { read.append(face.leftEyeOpenProbability) }
            if face.hasRightEyeOpenProbability { read.append(face.rightEyeOpenProbability) }
            #expect(read.isEmpty)
            let leftEye = try #require(face.landmark(ofType: .leftEye))
            #expect(face.frame.contains(Self.cgPoint(from: leftEye.position)))
            let outline = try #require(face.contour(ofType: .face)).points.map(Self.cgPoint(from:))
            #expect(!outline.isEmpty && outline.allSatisfy { face.frame.insetBy(dx: -0.2 * face.frame.width, dy: -0.2 * face.frame.height).contains($0) })
        }
    }

    /// What ML Kit's quickstart does with every landmark and contour point it draws: a function of a
    /// `VisionPoint`, to which faces hand their landmarks and contour points and poses their `Vision3DPoint`s.
    static func cgPoint(from visionPoint: VisionPoint) -> CGPoint {
        CGPoint(x: visionPoint.x, y: visionPoint.y)
    }

    /// The quickstart's pose lines: each landmark's `position` is a `Vision3DPoint`, passed where a
    /// `VisionPoint` is taken. Truth: person.jpg (640×424) shows one person standing upright, so the nose
    /// lies above both ankles, inside the image.
    @Test func posePositionsAreVisionPoints() throws {
        let options = PoseDetectorOptions()
        options.detectorMode = .singleImage
        let poseDetector = PoseDetector.poseDetector(options: options)
        let poses = try poseDetector.results(in: VisionImage(contentsOf: PortFixtures.sample("person.jpg")))
        #expect(poses.count == 1)
        let pose = try #require(poses.first)
        let nose: Vision3DPoint = pose.landmark(ofType: .nose).position
        let drawn = [nose, pose.landmark(ofType: .leftAnkle).position, pose.landmark(ofType: .rightAnkle).position]
            .map(Self.cgPoint(from:))
        #expect(CGRect(x: 0, y: 0, width: 640, height: 424).contains(drawn[0]) && drawn[0].y < drawn[1].y && drawn[0].y < drawn[2].y)
        #expect(nose.z.isFinite && nose == pose.landmark(ofType: .nose).position && nose != pose.landmark(ofType: .leftEar).position)
    }

    /// The guide's tracking lines: `trackingID` is an `Int` read behind `hasTrackingID`, as in ML Kit's `MLKFace`
    /// (`BOOL hasTrackingID`, `NSInteger trackingID`). Truth: ML Kit's definition of the ID, which names one
    /// face across a stream's frames; zidane.jpg holds two faces, panned 4 pixels a frame, always in view.
    @Test func tracksFacesWithIDsAsTheGuideReadsThem() throws {
        let options = FaceDetectorOptions()
        options.performanceMode = .accurate
        options.isTrackingEnabled = true
        let faceDetector = FaceDetector.faceDetector(options: options)
        var idsByFace: [[Int]] = [[], []]
        for (index, frame) in try PortFixtures.pannedFrames(of: "zidane.jpg", count: 6).enumerated() {
            let faces = try faceDetector.results(in: VisionImage(image: frame))
            #expect(faces.count == 2, "frame \(index)")
            for face in faces {
                if face.hasTrackingID {
                    let trackingId: Int = face.trackingID
                    // The faces stand at x 615 and 990 in the photo: the left one is the first.
                    idsByFace[face.frame.midX < 800 - 4 * CGFloat(index) ? 0 : 1].append(trackingId)
                } else {
                    Issue.record("frame \(index): a face without a tracking ID in a stream")
                }
            }
        }
        #expect(idsByFace.allSatisfy { $0.count == 6 && Set($0).count == 1 }, "\(idsByFace)")
        #expect(idsByFace[0].first != idsByFace[1].first)
    }

    @Test func detectsAndClassifiesObjects() throws {
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        let objectDetector = ObjectDetector.objectDetector(options: options)
        let objects = try objectDetector.results(in: VisionImage(contentsOf: PortFixtures.sample("bus.jpg")))
        let names = objects.compactMap { $0.labels.first?.text }
        #expect(names.contains("bus") && names.filter { $0 == "person" }.count >= 3, "\(names)")
        #expect(objects.allSatisfy { $0.trackingID == nil && $0.frame.width > 0 })

        let stream = ObjectDetectorOptions()
        let tracker = ObjectDetector.objectDetector(options: stream)
        let tracked = try tracker.results(in: VisionImage(contentsOf: PortFixtures.sample("bus.jpg")))
        #expect(tracked.count == 1 && tracked[0].trackingID != nil && tracked[0].labels.isEmpty)
    }

    @Test func labelsObjectsWithACustomClassifier() throws {
        let localModel = LocalModel(path: PortFixtures.model("efficientnet_lite0_classifier.tflite").path)
        let options = CustomObjectDetectorOptions(localModel: localModel)
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.shouldEnableMultipleObjects = true
        options.classificationConfidenceThreshold = NSNumber(value: 0.3)
        options.maxPerObjectLabelCount = 3
        let objects = try ObjectDetector.objectDetector(options: options)
            .results(in: VisionImage(contentsOf: PortFixtures.sample("bus.jpg")))
        #expect(!objects.isEmpty)
        #expect(objects.allSatisfy { $0.labels.count <= 3 && $0.labels.allSatisfy { $0.confidence >= 0.3 } })
        #expect(objects.contains { $0.labels.contains { $0.text.hasSuffix("bus") } }, "\(objects.map(\.labels))")
    }

    @Test func badInputGetsMLKitErrors() async throws {
        // The file stands in for ML Kit's UIImage: what cannot be read is ML Kit's invalid argument, as the detectors
        // report an image they cannot use (MLKitErrorCode: gRPC's INVALID_ARGUMENT, 3).
        for url in [URL(fileURLWithPath: "/nonexistent.png"), PortFixtures.model("face_landmark.tflite")] {
            do {
                _ = try VisionImage(contentsOf: url)
                Issue.record("\(url.path) made an image")
            } catch let error as NSError {
                #expect(error.domain == mlKitErrorDomain && error.code == MLKitErrorCode.invalidArgument.rawValue, "\(error)")
                #expect(error.localizedDescription.contains(url.path) || error.localizedDescription.contains("not an image"))
            }
        }
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: "/nonexistent/model.tflite"))
        options.callbackQueue = PortFixtures.callbacks
        let labeler = ImageLabeler.imageLabeler(options: options)
        let image = try VisionImage(contentsOf: PortFixtures.sample("coffee.png"))
        do {
            _ = try labeler.results(in: image)
            Issue.record("a missing model gave labels")
        } catch let error as NSError {
            #expect(error.domain == mlKitErrorDomain && error.code == MLKitErrorCode.notFound.rawValue)
        }
        let delivered = await PortFixtures.completion { labeler.process(image, completion: $0) }
        #expect(delivered.results == nil && (delivered.error as NSError?)?.code == MLKitErrorCode.notFound.rawValue)
        #expect(delivered.onCallbacks)

        let closed = FaceDetector.faceDetector()
        closed.close()
        #expect((try? closed.results(in: image)) == nil)
        do {
            _ = try closed.results(in: image)
        } catch let error as NSError {
            #expect(error.domain == mlKitErrorDomain && error.code == MLKitErrorCode.failedPrecondition.rawValue)
        }
    }
}
