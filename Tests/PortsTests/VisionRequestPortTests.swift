import Foundation
import SwiftVisionCore
import SwiftVisionTestSupport
import Testing
import Vision

/// The `VN…` requests of barcodes, text, body and hand pose, person segmentation, classification and
/// feature prints, in the shape of Apple's guides: a request with a completion handler, performed by a
/// `VNImageRequestHandler(url:options:)`, whose `results` are cast. Truth: zxing-cpp's Python binding
/// (`zxing_peer.py`) on the same photo, the words printed on page.png (`Fixtures.pageWords`), MediaPipe
/// Python's pose, hands and person mask on the same photos (`pose_reference.py`, `hand_reference.py`,
/// `selfie_segmentation_reference.py`), coffee.png's hand-checked class (an espresso, as MLKitPortTests
/// has it), and Apple's `VNErrorCode` values.
@Suite(.serialized) struct VisionRequestPortTests {
    /// `request`'s results after `VNImageRequestHandler(url:options:)` performed it, as its completion
    /// handler saw them (and checked that it had no error).
    static func perform<Observation>(_ request: (@escaping VNRequestCompletionHandler) -> VNRequest, on url: URL) throws -> [Observation] {
        var found: [Observation]?
        let made = request { request, error in
            #expect(error == nil)
            found = request.results as? [Observation]
        }
        try VNImageRequestHandler(url: url, options: [:]).perform([made])
        return try #require(found)
    }

    /// `point`, in 0–1 of an image of `size` with the origin at the lower left, in top-left pixels.
    static func topLeftPixels(_ point: VNPoint, _ size: CGSize) -> CGPoint {
        let pixel = VNImagePointForNormalizedPoint(point.location, Int(size.width), Int(size.height))
        return CGPoint(x: pixel.x, y: size.height - pixel.y)
    }

    /// Whether `inner` lies inside `outer`, give or take float rounding (1e-9).
    static func encloses(_ outer: CGRect, _ inner: CGRect) -> Bool {
        inner.minX >= outer.minX - 1e-9 && inner.maxX <= outer.maxX + 1e-9 && inner.minY >= outer.minY - 1e-9
            && inner.maxY <= outer.maxY + 1e-9
    }

    @Test func readsBarcodesAsZXingDoes() throws {
        let files = try ["pyzbar-qrcode.png", "pyzbar-code128.png"].map { try Fixtures.sample($0).path }
        let python = Fixtures.cache.root.appendingPathComponent("venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/zxing_peer.py")
        let run = try Fixtures.run(python, [script.path] + files)
        try #require(run.status == 0, "zxing_peer.py: \(run.errors)")
        let peer = try JSONDecoder().decode([String: [[String]]].self, from: Data(run.output.utf8))

        for (file, symbology) in zip(files, [VNBarcodeSymbology.qr, .code128]) {
            let truth = try #require(peer[file]?.map { $0[1] })
            try #require(!truth.isEmpty, "zxing-cpp reads \(file)")
            let barcodes: [VNBarcodeObservation] = try Self.perform({ VNDetectBarcodesRequest(completionHandler: $0) }, on: URL(fileURLWithPath: file))
            #expect(barcodes.map(\.payloadStringValue) == truth, "\(file)")
            #expect(barcodes.allSatisfy { $0.symbology == symbology && $0.confidence == 1 })
            for barcode in barcodes {
                let corners = [barcode.topLeft, barcode.topRight, barcode.bottomRight, barcode.bottomLeft]
                #expect(corners.allSatisfy { Self.encloses(barcode.boundingBox, CGRect(origin: $0, size: .zero)) })
                #expect(Self.encloses(CGRect(x: 0, y: 0, width: 1, height: 1), barcode.boundingBox))
            }
        }

        let onlyEAN = VNDetectBarcodesRequest()
        #expect(try onlyEAN.supportedSymbologies().contains(.ean13) && onlyEAN.symbologies.contains(.qr))
        onlyEAN.symbologies = [.ean13]
        try VNImageRequestHandler(url: URL(fileURLWithPath: files[0]), options: [:]).perform([onlyEAN])
        #expect(onlyEAN.results?.isEmpty == true, "a QR code is not read when only EAN-13 is asked for")
    }

    @Test func readsThePagesWords() throws {
        let lines: [VNRecognizedTextObservation] = try Self.perform({ VNRecognizeTextRequest(completionHandler: $0) }, on: Fixtures.sample("page.png"))
        let words = Set(lines.compactMap { $0.topCandidates(1).first }.flatMap { $0.string.split(separator: " ").map(String.init) })
        let found = Fixtures.pageWords.filter(words.contains)
        #expect(Double(found.count) >= 0.9 * Double(Fixtures.pageWords.count), "read \(words.sorted())")

        let line = try #require(lines.first { $0.topCandidates(1).first?.string.contains(" ") == true })
        let text = try #require(line.topCandidates(3).first)
        #expect(line.topCandidates(3).count == 1 && line.topCandidates(0).isEmpty)
        let firstWord = try #require(text.string.range(of: String(text.string.split(separator: " ")[0])))
        let wordBox = try #require(try text.boundingBox(for: firstWord)).boundingBox
        #expect(Self.encloses(line.boundingBox, wordBox) && wordBox.width < line.boundingBox.width, "\(wordBox) in \(line.boundingBox)")
        #expect(try text.boundingBox(for: text.string.startIndex..<text.string.endIndex)?.boundingBox == line.boundingBox)
        let request = VNRecognizeTextRequest()
        #expect(request.recognitionLevel == .accurate && request.usesLanguageCorrection && request.minimumTextHeight == 1 / 32)
        #expect(request.revision == VNRecognizeTextRequestRevision3 && VNRecognizeTextRequest.supportedRevisions == IndexSet(1...3))
        #expect(try !request.supportedRecognitionLanguages().isEmpty)
    }

    @Test func bodyJointsMatchMediaPipePython() throws {
        struct Point: Decodable { var x: Double, y: Double }
        struct Pose: Decodable { var landmarks: [Point] }
        struct Image: Decodable { var width: Int, height: Int, pose: Pose? }
        struct Run: Decodable { var images: [Image] }
        let photo = try Fixtures.sample("person.jpg")
        let reference = try JSONDecoder().decode(Run.self, from: Fixtures.referenceOutput("pose_reference.py", [photo.path]))
        let truth = try #require(reference.images.first?.pose?.landmarks)
        let size = CGSize(width: reference.images[0].width, height: reference.images[0].height)
        // BlazePose's landmarks under each of Vision's joints: the neck and the root are midpoints.
        let landmarks: [(VNHumanBodyPoseObservation.JointName, [Int])] = [
            (.nose, [0]), (.leftEye, [2]), (.rightEye, [5]), (.leftEar, [7]), (.rightEar, [8]), (.neck, [11, 12]),
            (.leftShoulder, [11]), (.rightShoulder, [12]), (.leftElbow, [13]), (.rightElbow, [14]), (.leftWrist, [15]),
            (.rightWrist, [16]), (.root, [23, 24]), (.leftHip, [23]), (.rightHip, [24]), (.leftKnee, [25]),
            (.rightKnee, [26]), (.leftAnkle, [27]), (.rightAnkle, [28]),
        ]
        let bodies: [VNHumanBodyPoseObservation] = try Self.perform({ VNDetectHumanBodyPoseRequest(completionHandler: $0) }, on: photo)
        let body = try #require(bodies.first)
        #expect(bodies.count == 1 && body.availableJointNames.count == 19)
        let box = truth.map { CGPoint(x: $0.x, y: $0.y) }.boundingBox
        let bodySize = max(box.width, box.height)
        for (name, indices) in landmarks {
            let expected = CGPoint(
                x: indices.map { truth[$0].x }.reduce(0, +) / Double(indices.count),
                y: indices.map { truth[$0].y }.reduce(0, +) / Double(indices.count))
            let ours = Self.topLeftPixels(try body.recognizedPoint(name), size)
            #expect(hypot(ours.x - expected.x, ours.y - expected.y) < 0.02 * bodySize, "\(name.rawValue): \(ours) against \(expected)")
        }
        let arm = try body.recognizedPoints(.leftArm)
        #expect(Set(arm.keys) == [.leftShoulder, .leftElbow, .leftWrist])
        #expect(try arm[.leftWrist]?.location == body.recognizedPoint(.leftWrist).location)
        #expect(try body.recognizedPoints(.all).count == 19)
    }

    @Test func followsABodyThroughASequence() throws {
        // A camera panning over person.jpg: what it shows moves 4 pixels left and 2 up a frame.
        let frames = try PortFixtures.pannedFrames(of: "person.jpg", count: 6)
        let size = CGSize(width: frames[0].width, height: frames[0].height)
        let sequence = VNSequenceRequestHandler()
        let request = VNDetectHumanBodyPoseRequest()
        var noses: [CGPoint] = []
        for frame in frames {
            try sequence.perform([request], on: frame)
            let body = try #require((request.results as? [VNHumanBodyPoseObservation])?.first)
            noses.append(Self.topLeftPixels(try body.recognizedPoint(.nose), size))
        }
        for (index, nose) in noses.enumerated() {
            let expected = CGPoint(x: noses[0].x - CGFloat(4 * index), y: noses[0].y - CGFloat(2 * index))
            #expect(hypot(nose.x - expected.x, nose.y - expected.y) < 3, "frame \(index): \(nose) against \(expected)")
        }
    }

    @Test func handJointsMatchMediaPipePython() throws {
        struct Point: Decodable { var x: Double, y: Double }
        struct Hand: Decodable { var handedness: String, landmarks: [Point] }
        struct Image: Decodable { var hands: [Hand] }
        struct Run: Decodable { var images: [Image] }
        // Both of the man's hands on the right of bus.jpg (810×1080), where MediaPipe Python finds them
        // (HandTests), and a larger part round them, cut out as files.
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let regions = [CGRect(x: 0, y: 420, width: 280, height: 280), CGRect(x: 0, y: 405, width: 405, height: 270)]
        let photos = try regions.enumerated().map { index, region in
            let photo = folder.appendingPathComponent("hands\(index).png")
            try Fixtures.image("bus.jpg").cropped(to: region).write(to: photo)
            return photo
        }
        let reference = try JSONDecoder().decode(Run.self, from: Fixtures.referenceOutput("hand_reference.py", photos.map(\.path)))

        let request = VNDetectHumanHandPoseRequest()
        #expect(request.maximumHandCount == 2)
        let hands: [VNHumanHandPoseObservation] = try Self.perform({ VNDetectHumanHandPoseRequest(completionHandler: $0) }, on: photos[0])
        // The same parts as regions of interest of the whole photo, made from their pixels (lower-left
        // origin), whose results are normalised to the region as in Vision: 380/1080 is no binary fraction,
        // (0, 0.375, 0.5, 0.25) is.
        var found = [hands]
        for region in [CGRect(x: 0, y: 1080 - 700, width: 280, height: 280), CGRect(x: 0, y: 1080 - 675, width: 405, height: 270)] {
            let inRegion = VNDetectHumanHandPoseRequest()
            inRegion.regionOfInterest = VNNormalizedRectForImageRect(region, 810, 1080)
            try VNImageRequestHandler(url: Fixtures.sample("bus.jpg"), options: [:]).perform([inRegion])
            found.append(try #require(inRegion.results as? [VNHumanHandPoseObservation]))
        }
        let truths = [reference.images[0].hands] + reference.images.map(\.hands)
        for (hands, (truth, region)) in zip(found, zip(truths, [regions[0]] + regions)) {
            #expect(hands.count == truth.count && truth.count == 2)
            let wrists = try hands.map { Self.topLeftPixels(try $0.recognizedPoint(.wrist), region.size) }
            for expected in truth {
                // Our hand whose wrist is nearest the reference hand's.
                let distances = wrists.map { hypot($0.x - expected.landmarks[0].x, $0.y - expected.landmarks[0].y) }
                let hand = hands[try #require(distances.indices.min { distances[$0] < distances[$1] })]
                // MediaPipe labels hands as seen in a mirror: its "Left" is the subject's right hand.
                #expect(hand.chirality == (expected.handedness == "Left" ? .right : .left))
                let box = expected.landmarks.map { CGPoint(x: $0.x, y: $0.y) }.boundingBox
                for (name, point) in zip(try request.supportedJointNames(), expected.landmarks) {
                    let ours = Self.topLeftPixels(try hand.recognizedPoint(name), region.size)
                    #expect(hypot(ours.x - point.x, ours.y - point.y) < 0.02 * max(box.width, box.height), "\(region): \(name.rawValue)")
                }
                #expect(try Set(hand.recognizedPoints(.indexFinger).keys) == [.indexMCP, .indexPIP, .indexDIP, .indexTip])
            }
        }
    }

    @Test func personMaskMatchesMediaPipePython() throws {
        struct Entry: Decodable { var width: Int, height: Int, mask: String }
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Fixtures.sample("person.jpg")
        let entries = try JSONDecoder().decode(
            [Entry].self, from: Fixtures.referenceOutput("selfie_segmentation_reference.py", [folder.path, photo.path]))
        let truth = try Data(contentsOf: URL(fileURLWithPath: entries[0].mask)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }

        let request = VNGeneratePersonSegmentationRequest()
        #expect(request.qualityLevel == .accurate && request.outputPixelFormat == kCVPixelFormatType_OneComponent8)
        let masks: [VNPixelBufferObservation] = try Self.perform({ VNGeneratePersonSegmentationRequest(completionHandler: $0) }, on: photo)
        let mask = try #require(masks.first).pixelBuffer
        #expect(mask.width == entries[0].width && mask.height == entries[0].height)
        let (both, either) = zip(mask.confidences, truth).reduce(into: (0, 0)) { counts, pair in
            let (ours, theirs) = (pair.0 >= 0.5, pair.1 >= 0.5)
            counts.0 += ours && theirs ? 1 : 0
            counts.1 += ours || theirs ? 1 : 0
        }
        #expect(either > 0 && Double(both) / Double(either) >= 0.99, "IoU \(Double(both) / Double(max(either, 1)))")
    }

    @Test func classifiesAnEspressoAndComparesFeaturePrints() throws {
        let coffee = try Fixtures.sample("coffee.png")
        let classes: [VNClassificationObservation] = try Self.perform({ VNClassifyImageRequest(completionHandler: $0) }, on: coffee)
        #expect(classes.first?.identifier == "espresso")
        let identifiers = try VNClassifyImageRequest().supportedIdentifiers()
        #expect(identifiers.count == 1000 && identifiers.contains("espresso") && classes.count == identifiers.count)
        #expect(zip(classes, classes.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })

        // The middle of coffee.png, scaled down: the same picture, to be nearer coffee.png than a cat is.
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Fixtures.image("coffee.png")
        let crop = folder.appendingPathComponent("crop.png")
        try image.cropped(to: CGRect(x: image.width / 10, y: image.height / 10, width: image.width * 8 / 10, height: image.height * 8 / 10))
            .resized(width: image.width / 2, height: image.height / 2).write(to: crop)
        let prints = try [coffee, crop, Fixtures.sample("chelsea.png")].map { url in
            let found: [VNFeaturePrintObservation] = try Self.perform({ VNGenerateImageFeaturePrintRequest(completionHandler: $0) }, on: url)
            return try #require(found.first)
        }
        #expect(prints[0].elementType == .float && prints[0].data.count == 4 * prints[0].elementCount)
        var (toItself, toCrop, toCat) = (Float(-1), Float(-1), Float(-1))
        try prints[0].computeDistance(&toItself, to: prints[0])
        try prints[0].computeDistance(&toCrop, to: prints[1])
        try prints[0].computeDistance(&toCat, to: prints[2])
        #expect(toItself < 1e-5 && toCrop < toCat, "to its crop \(toCrop), to a cat \(toCat)")
    }

    @Test func badInputGetsVisionErrors() throws {
        let garbage = Data("this is a text file, not a picture\n".utf8)
        let handlers: [(VNImageRequestHandler, VNErrorCode)] = [
            (VNImageRequestHandler(url: URL(fileURLWithPath: "/nonexistent.png"), options: [:]), .ioError),
            (VNImageRequestHandler(data: garbage, options: [:]), .invalidFormat),
        ]
        for (handler, code) in handlers {
            var reported: NSError?
            let request = VNDetectBarcodesRequest { _, error in reported = error as NSError? }
            let thrown = #expect(throws: NSError.self) { try handler.perform([request]) }
            #expect(thrown?.domain == VNErrorDomain && thrown?.code == code.rawValue, "\(String(describing: thrown))")
            #expect(reported?.domain == VNErrorDomain && reported?.code == code.rawValue)
            #expect(request.results == nil)
        }

        let unsupported = VNDetectBarcodesRequest()
        unsupported.symbologies = [.msiPlessey]
        let hands = VNDetectHumanHandPoseRequest()
        hands.maximumHandCount = 0
        let pixels = VNGeneratePersonSegmentationRequest()
        pixels.outputPixelFormat = 0x4247_5241
        let future = VNDetectBarcodesRequest()
        future.revision = VNDetectBarcodesRequestRevision4 + 1
        for (request, code) in [(unsupported, .invalidOption), (hands, .invalidOption), (pixels, .invalidOption), (future, .unsupportedRevision)] as [(VNRequest, VNErrorCode)] {
            let thrown = #expect(throws: NSError.self) {
                try VNImageRequestHandler(url: Fixtures.sample("coffee.png"), options: [:]).perform([request])
            }
            #expect(thrown?.domain == VNErrorDomain && thrown?.code == code.rawValue)
        }
    }
}
