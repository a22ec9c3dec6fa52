import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SwiftVision
import SwiftVisionTestSupport
import Synchronization
import Testing

@testable import SwiftVisionServer

/// Photos from the set-up's sample set (`make test` installs them) and requests built from them.
enum Samples {
    static func data(_ name: String) throws -> Data {
        let url = SwiftVisionCache.current.sample(named: name)
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path): run `make test`")
        return try Data(contentsOf: url)
    }

    static func body(_ name: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try data(name))
    }

    static let jpeg: HTTPFields = [.contentType: "image/jpeg"]
    static let png: HTTPFields = [.contentType: "image/png"]

    /// A `multipart/form-data` body holding `files` as image parts.
    static func form(_ files: [(field: String, name: String)], boundary: String = "swiftvision-test-boundary") throws -> (HTTPFields, ByteBuffer) {
        var body = Data()
        for file in files {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\n".utf8)
            body += Data("Content-Type: application/octet-stream\r\n\r\n".utf8)
            body += try data(file.name)
            body += Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return ([.contentType: "multipart/form-data; boundary=\(boundary)"], ByteBuffer(bytes: body))
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// The error code of a JSON error body.
    static func errorCode(_ response: TestResponse) throws -> String? {
        (try json(response)["error"] as? [String: Any])?["code"] as? String
    }
}

@Suite(.serialized) struct EndpointTests {
    static func app(_ change: (inout ServerConfiguration) -> Void = { _ in }) -> some ApplicationProtocol {
        var configuration = ServerConfiguration()
        configuration.port = 0
        change(&configuration)
        return VisionService.makeApplication(configuration: configuration)
    }

    @Test func everyTaskAnswersOnRealPhotos() async throws {
        try await Self.app().test(.router) { client in
            let faces = try await client.execute(uri: "/v1/faces?landmarks", method: .post, headers: Samples.jpeg, body: try Samples.body("zidane.jpg"))
            #expect(faces.status == .ok)
            let faceList = try #require(try Samples.json(faces)["faces"] as? [[String: Any]])
            #expect(faceList.count == 2, "zidane.jpg shows two faces")
            #expect(faceList.allSatisfy { ($0["landmarks"] as? [String: Any])?["leftEye"] != nil })
            #expect(try Samples.json(faces)["width"] as? Int == 1280)

            let objects = try await client.execute(
                uri: "/v1/objects?multiple=true&classify=true", method: .post, headers: Samples.jpeg, body: try Samples.body("bus.jpg"))
            let found = try #require(try Samples.json(objects)["objects"] as? [[String: Any]])
            let names = Set(found.flatMap { ($0["labels"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } })
            #expect(names.isSuperset(of: ["person", "bus"]), "\(names)")
            #expect(try Samples.json(objects)["width"] as? Int == 810 && Samples.json(objects)["height"] as? Int == 1080)

            let labels = try await client.execute(uri: "/v1/labels?threshold=0.2", method: .post, headers: Samples.png, body: try Samples.body("chelsea.png"))
            let labelNames = (try Samples.json(labels)["labels"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            #expect(labelNames.contains("Egyptian cat"), "scikit-image's chelsea is a cat: \(labelNames)")

            let embedding = try await client.execute(uri: "/v1/embeddings", method: .post, headers: Samples.png, body: try Samples.body("coffee.png"))
            #expect((try Samples.json(embedding)["embedding"] as? [Double])?.count == 1280)

            let codes = try await client.execute(uri: "/v1/barcodes", method: .post, headers: Samples.png, body: try Samples.body("pyzbar-qrcode.png"))
            let values = (try Samples.json(codes)["barcodes"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            #expect(values == ["Thalassiodracon"], "pyzbar's test QR code holds Thalassiodracon")

            let text = try await client.execute(uri: "/v1/text?level=fast", method: .post, headers: Samples.png, body: try Samples.body("page.png"))
            #expect((try Samples.json(text)["text"] as? String)?.contains("segmentation") == true)

            let rectangles = try await client.execute(uri: "/v1/rectangles?max=0", method: .post, headers: Samples.jpeg, body: try Samples.body("bus.jpg"))
            #expect(rectangles.status == .ok)
            #expect(try Samples.json(rectangles)["rectangles"] is [Any])

            let form = try Samples.form([("image", "zidane.jpg")])
            let multipart = try await client.execute(uri: "/v1/faces", method: .post, headers: form.0, body: form.1)
            #expect((try Samples.json(multipart)["faces"] as? [Any])?.count == 2)
        }
    }

    /// The registry line serves the pose task: bus.jpg shows a standing man (MediaPipe Python finds his
    /// pose too, see PoseTests), the cat photo no one.
    @Test func poseAnswersWithThirtyThreeLandmarks() async throws {
        try await Self.app().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/pose?min-detection-confidence=0.5", method: .post, headers: Samples.jpeg, body: try Samples.body("bus.jpg"))
            #expect(response.status == .ok)
            let poses = try #require(try Samples.json(response)["poses"] as? [[String: Any]])
            #expect(poses.count == 1)
            let landmarks = try #require(poses.first?["landmarks"] as? [[String: Any]])
            #expect(landmarks.count == 33)
            #expect(landmarks.allSatisfy { $0["visibility"] is Double && $0["presence"] is Double })
            #expect((poses.first?["worldLandmarks"] as? [Any])?.count == 33)
            let cat = try await client.execute(uri: "/v1/pose", method: .post, headers: Samples.png, body: try Samples.body("chelsea.png"))
            #expect((try Samples.json(cat)["poses"] as? [Any])?.isEmpty == true)
        }
    }

    /// The registry line serves the hand task: a 280×280 cut of bus.jpg shows two hands (MediaPipe Python
    /// finds both, see HandTests), limited to one by `max-hands`; the cat photo shows none.
    @Test func handsAnswerWithTwentyOneLandmarks() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hands-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        let bus = try VisionImage(contentsOf: SwiftVisionCache.current.sample(named: "bus.jpg"))
        try bus.cropped(to: CGRect(x: 0, y: 420, width: 280, height: 280)).write(to: file)
        let body = ByteBuffer(bytes: try Data(contentsOf: file))
        try await Self.app().test(.router) { client in
            let response = try await client.execute(uri: "/v1/hands", method: .post, headers: Samples.png, body: body)
            #expect(response.status == .ok)
            let hands = try #require(try Samples.json(response)["hands"] as? [[String: Any]])
            #expect(hands.count == 2)
            for hand in hands {
                #expect((hand["landmarks"] as? [[String: Any]])?.count == 21)
                #expect((hand["worldLandmarks"] as? [Any])?.count == 21)
                #expect(["Left", "Right"].contains(hand["handedness"] as? String))
            }
            let one = try await client.execute(uri: "/v1/hands?max-hands=1", method: .post, headers: Samples.png, body: body)
            #expect((try Samples.json(one)["hands"] as? [Any])?.count == 1)
            let cat = try await client.execute(uri: "/v1/hands", method: .post, headers: Samples.png, body: try Samples.body("chelsea.png"))
            #expect((try Samples.json(cat)["hands"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func theTaskListNamesEveryTaskWithItsOptions() async throws {
        try await Self.app().test(.router) { client in
            let response = try await client.execute(uri: "/v1/tasks", method: .get)
            let tasks = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            #expect(tasks.compactMap { $0["name"] as? String } == TaskRegistry.standard.entries.map(\.descriptor.name))
            #expect(tasks.allSatisfy { $0["options"] is [String: Any] })
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
        }
    }

    @Test func similarityComparesTwoImages() async throws {
        try await Self.app().test(.router) { client in
            let same = try Samples.form([("first", "coffee.png"), ("second", "coffee.png")])
            let identical = try Samples.json(try await client.execute(uri: "/v1/similarity", method: .post, headers: same.0, body: same.1))
            // 1 at most, however the sums round: a cosine is −1…1.
            #expect((identical["cosineSimilarity"] as? Double).map { $0 <= 1 && $0 > 1 - 1e-5 } == true, "\(identical)")
            let other = try Samples.form([("first", "coffee.png"), ("second", "bus.jpg")])
            let different = try Samples.json(try await client.execute(uri: "/v1/similarity", method: .post, headers: other.0, body: other.1))
            #expect((different["cosineSimilarity"] as? Double ?? 1) < 0.6)
            let one = try Samples.form([("first", "coffee.png")])
            let single = try await client.execute(uri: "/v1/similarity", method: .post, headers: one.0, body: one.1)
            #expect(single.status == .badRequest)
        }
    }

    @Test func errorsHaveTheirStatusAndAJSONBody() async throws {
        let truncated = ByteBuffer(bytes: try Samples.data("bus.jpg").prefix(2000))
        try await Self.app({ $0.maxBodyBytes = 400_000; $0.maxPixels = 500_000 }).test(.router) { client in
            let cases: [(uri: String, headers: HTTPFields, body: ByteBuffer, status: HTTPResponse.Status, code: String)] = [
                ("/v1/faces?threshold=5", Samples.jpeg, try Samples.body("bus.jpg"), .badRequest, "bad_option"),
                ("/v1/faces?threshold=x", Samples.jpeg, try Samples.body("bus.jpg"), .badRequest, "bad_option"),
                ("/v1/faces?bogus=1", Samples.jpeg, try Samples.body("bus.jpg"), .badRequest, "bad_option"),
                ("/v1/objects?model=/etc/passwd", Samples.jpeg, try Samples.body("bus.jpg"), .badRequest, "bad_option"),
                ("/v1/track?box=nan,1,2,3", Samples.jpeg, try Samples.body("bus.jpg"), .badRequest, "bad_option"),
                ("/v1/barcodes?formats=Hologram", Samples.png, try Samples.body("pyzbar-qrcode.png"), .badRequest, "bad_option"),
                ("/v1/teleport", Samples.jpeg, try Samples.body("bus.jpg"), .notFound, "unknown_task"),
                ("/v1/faces", [.contentType: "text/plain"], ByteBuffer(string: "hello"), .unsupportedMediaType, "not_an_image"),
                ("/v1/faces", Samples.jpeg, ByteBuffer(string: "not a picture at all"), .unsupportedMediaType, "not_an_image"),
                ("/v1/faces", Samples.jpeg, ByteBuffer(), .unsupportedMediaType, "not_an_image"),
                ("/v1/faces", Samples.jpeg, truncated, .unprocessableContent, "undecodable_image"),
                // bus.jpg: 810×1080 pixels (above 500 000) in fewer than 400 000 bytes; coffee.png: more bytes than that.
                ("/v1/faces", Samples.jpeg, try Samples.body("bus.jpg"), .contentTooLarge, "image_too_large"),
                ("/v1/faces", Samples.png, try Samples.body("coffee.png"), .contentTooLarge, "body_too_large"),
            ]
            for item in cases {
                let response = try await client.execute(uri: item.uri, method: .post, headers: item.headers, body: item.body)
                #expect(response.status == item.status, "\(item.uri): \(String(buffer: response.body))")
                #expect(try Samples.errorCode(response) == item.code, "\(item.uri)")
                #expect(response.headers[.contentType] == "application/json")
            }
            let missing = try await client.execute(uri: "/v2/anything", method: .get)
            #expect(missing.status == .notFound)
            #expect(try Samples.errorCode(missing) == "not_found")
        }
    }

    /// A video posted to a task (an MJPEG AVI and an MP4 of bus.jpg written here by OpenCV, as bytes or as
    /// `video/mp4`) is named as a video, with where its frames go, not as "not an image in a supported format".
    @Test func aPostedVideoIsNamedAsOne() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Fixtures.image("bus.jpg").resized(width: 160, height: 212)
        let videos = try ["clip.avi", "clip.mp4"].map { name in
            let url = folder.appendingPathComponent(name)
            let writer = try VideoWriter(url: url, width: photo.width, height: photo.height, framesPerSecond: 5)
            for _ in 0..<3 { try writer.append(photo) }
            writer.close()
            return try Data(contentsOf: url)
        }
        try await Self.app().test(.router) { client in
            let posts: [(HTTPFields, Data)] = [
                ([.contentType: "application/octet-stream"], videos[0]), ([.contentType: "application/octet-stream"], videos[1]),
                (Samples.jpeg, videos[1]), ([.contentType: "video/mp4"], videos[1]),
            ]
            for (headers, video) in posts {
                let response = try await client.execute(uri: "/v1/faces", method: .post, headers: headers, body: ByteBuffer(bytes: video))
                #expect(response.status == .unsupportedMediaType)
                let error = try #require(try Samples.json(response)["error"] as? [String: Any])
                #expect(error["code"] as? String == "not_an_image")
                #expect((error["message"] as? String)?.hasPrefix("the data is a video; each request takes one image") == true, "\(error)")
            }
        }
    }

    /// A value a task's range check refuses is named as the client wrote the option: `max-faces` or
    /// `maxFaces` in a query, the key in a stream's options message; the message is otherwise the task's.
    @Test func optionsATaskRefusesAreNamedAsWritten() async throws {
        try await Self.app().test(.router) { client in
            for (uri, message) in [
                ("/v1/faces?max-faces=0", "invalid option: max-faces must be at least 1, not 0"),
                ("/v1/faces?maxFaces=0", "invalid option: maxFaces must be at least 1, not 0"),
                ("/v1/hands?model-complexity=5", "invalid option: model-complexity must be 0 (lite) or 1 (full), not 5"),
                ("/v1/segment?smoothing=2", "invalid option: smoothing must lie in 0…1, not 2.0"),
                ("/v1/rectangles?min-size=2", "invalid option: min-size must lie in 0…1, not 2.0"),
                ("/v1/text?minTextHeight=5", "invalid option: minTextHeight must lie in 0…1, not 5.0"),
                ("/v1/barcodes?max=-1", "invalid option: max must not be negative, not -1"),
            ] {
                let response = try await client.execute(uri: uri, method: .post, headers: Samples.jpeg, body: try Samples.body("bus.jpg"))
                #expect(response.status == .badRequest, "\(uri)")
                let error = try #require(try Samples.json(response)["error"] as? [String: Any])
                #expect(error["code"] as? String == "bad_option" && error["message"] as? String == message, "\(uri): \(error)")
            }
        }
        #expect(OptionDecoding.name(of: "maxFaces", query: [("max-faces", "0")], overrides: [:]) == "max-faces")
        #expect(OptionDecoding.name(of: "maxFaces", query: [("max-faces", "1")], overrides: ["maxFaces": .number(0)]) == "maxFaces")
    }

    /// A photo alone has nothing to follow: `POST /v1/track` without a `box=` (the OpenAPI document's
    /// repeated seed) is a 400, as the `track` command refuses to run without `--box`; with one it answers
    /// the seed. A stream may still open without one and be seeded later (StreamTests).
    @Test func trackingAPhotoNeedsASeedBox() async throws {
        try await Self.app().test(.router) { client in
            let unseeded = try await client.execute(uri: "/v1/track", method: .post, headers: Samples.jpeg, body: try Samples.body("bus.jpg"))
            #expect(unseeded.status == .badRequest)
            let error = try #require(try Samples.json(unseeded)["error"] as? [String: Any])
            #expect(error["code"] as? String == "bad_option")
            #expect(error["message"] as? String == "invalid option: track needs at least one box=x,y,width,height")
            let seeded = try await client.execute(
                uri: "/v1/track?box=10,20,30,40", method: .post, headers: Samples.jpeg, body: try Samples.body("bus.jpg"))
            #expect(seeded.status == .ok)
            let tracks = try #require(try Samples.json(seeded)["tracks"] as? [[String: Any]])
            let box = try #require(tracks.first?["boundingBox"] as? [String: Double])
            #expect(tracks.count == 1 && box == ["x": 10, "y": 20, "width": 30, "height": 40])
        }
    }

    /// A language the service has no data for is the client's mistake (400) and the answer lists the
    /// languages it has, but not where the service keeps the data nor how an operator adds more: the
    /// command line names Tesseract's data folder (an absolute path, docs/security.md) and `TESSDATA_PREFIX`.
    @Test func aMissingLanguageIsRefusedWithoutTheDataFolder() async throws {
        try await Self.app().test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/text?lang=xx&level=fast", method: .post, headers: Samples.png, body: try Samples.body("page.png"))
            #expect(response.status == .badRequest)
            let error = try #require(try Samples.json(response)["error"] as? [String: Any])
            let message = try #require(error["message"] as? String)
            #expect(error["code"] as? String == "bad_option")
            #expect(message.contains("language xx") && message.contains("eng"), "\(message)")
            #expect(!message.contains("/") && !message.contains("TESSDATA_PREFIX"), "\(message)")
        }
    }

    /// A 413 says the limit it enforces: the configured `maxBodyBytes` (256 KB here, coffee.png is larger),
    /// and 25 MB by default (ServerConfiguration, docs/security.md).
    @Test func aTooLargeBodyIsAnsweredWithTheLimit() async throws {
        let coffee = try Samples.body("coffee.png")
        #expect(coffee.readableBytes > 256 * 1024)
        try await Self.app({ $0.maxBodyBytes = 256 * 1024 }).test(.live) { client in
            let response = try await client.execute(uri: "/v1/faces", method: .post, headers: Samples.png, body: coffee)
            #expect(response.status == .contentTooLarge)
            let error = try #require(try Samples.json(response)["error"] as? [String: Any])
            #expect(error["code"] as? String == "body_too_large")
            #expect(error["message"] as? String == "the request body is larger than the 256 KB the service accepts")
        }
        try await Self.app().test(.router) { client in
            let body = ByteBuffer(repeating: 0, count: 25 * 1024 * 1024 + 1)
            let response = try await client.execute(uri: "/v1/faces", method: .post, headers: Samples.png, body: body)
            #expect(response.status == .contentTooLarge)
            let error = try #require(try Samples.json(response)["error"] as? [String: Any])
            #expect(error["message"] as? String == "the request body is larger than the 25 MB the service accepts")
        }
    }

    @Test func aTokenGuardsTheAPIButNotTheHealthCheck() async throws {
        try await Self.app({ $0.token = "s3cret" }).test(.router) { client in
            let without = try await client.execute(uri: "/v1/tasks", method: .get)
            #expect(without.status == .unauthorized)
            #expect(try Samples.errorCode(without) == "unauthorized")
            let wrong = try await client.execute(uri: "/v1/tasks", method: .get, headers: [.authorization: "Bearer s3cre"])
            #expect(wrong.status == .unauthorized)
            let right = try await client.execute(uri: "/v1/tasks", method: .get, headers: [.authorization: "Bearer s3cret"])
            #expect(right.status == .ok)
            // ?token= is only for WebSocket upgrades: proxies log query strings.
            let query = try await client.execute(uri: "/v1/tasks?token=s3cret", method: .get)
            #expect(query.status == .unauthorized)
            #expect(without.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .unauthorized)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    @Test func metricsCountRequestsByTaskAndStatus() async throws {
        try await Self.app().test(.router) { client in
            _ = try await client.execute(uri: "/v1/labels", method: .post, headers: Samples.png, body: try Samples.body("coffee.png"))
            _ = try await client.execute(uri: "/v1/labels?max=0", method: .post, headers: Samples.png, body: try Samples.body("coffee.png"))
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains(#"swiftvision_requests_total{task="labels",status="200"}"#))
            #expect(metrics.contains(#"swiftvision_requests_total{task="labels",status="400"}"#))
            #expect(metrics.contains("swiftvision_request_duration_seconds_bucket"))
            #expect(metrics.contains("swiftvision_models_loaded"))
        }
    }

    @Test func aFullQueueAnswers503WithRetryAfter() async throws {
        let limiter = RequestLimiter(limit: 1, queueLimit: 1)
        let gate = DispatchSemaphore(value: 0)
        let firstAdmission = try limiter.admit(within: .seconds(30))
        async let first: Void = firstAdmission.run(closing: nil) { gate.wait() }
        // Wait until the first holds the only slot.
        while limiter.load.running == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let secondAdmission = try limiter.admit(within: .seconds(30))
        async let second: Int = secondAdmission.run(closing: nil) { 2 }
        while limiter.load.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        // Admission is decided before any body is read: a third request is refused at once.
        do {
            _ = try limiter.admit(within: .seconds(30))
            Issue.record("a third request should be refused while one runs and one waits")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.headers[.retryAfter] == "1")
        }
        gate.signal()
        try await first
        #expect(try await second == 2)
        #expect(limiter.load.running == 0 && limiter.load.waiting == 0)
    }

    @Test func aRequestPastItsDeadlineIsAnswered504AndNeverRuns() async throws {
        let limiter = RequestLimiter(limit: 1, queueLimit: 1)
        let gate = DispatchSemaphore(value: 0)
        let running = try limiter.admit(within: .seconds(30))
        async let first: Void = running.run(closing: nil) { gate.wait() }
        while limiter.load.running == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let waiting = try limiter.admit(within: .milliseconds(200))
        let ran = Atomic<Bool>(false)
        do {
            _ = try await waiting.run(closing: nil) { ran.store(true, ordering: .relaxed) }
            Issue.record("the waiting request should time out")
        } catch let error as APIError {
            #expect(error.status == .gatewayTimeout)
        }
        gate.signal()
        try await first
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun, "a request that timed out in the queue must not run")
        #expect(limiter.load.running == 0 && limiter.load.waiting == 0)
        // Its place was given back: two more are admitted.
        _ = try limiter.admit(within: .seconds(30))
        _ = try limiter.admit(within: .seconds(30))
    }
}

@Suite struct OptionDecodingTests {
    @Test func theServiceThreadCountReachesEveryTaskThatHasOne() throws {
        let faces = try OptionDecoding.options(for: FacesTask.self, query: [], threads: 1)
        #expect(faces.threads == 1)
        let rectangles = try OptionDecoding.options(for: RectanglesTask.self, query: [("min-aspect", "0.3")], threads: 1)
        #expect(rectangles.minAspect == 0.3)
    }

    @Test(arguments: ["2", "0", "-1", "100000"])
    func threadsAreNeverAClientOption(value: String) throws {
        #expect(throws: APIError.self) { try OptionDecoding.options(for: FacesTask.self, query: [("threads", value)], threads: 1) }
        #expect(throws: APIError.self) {
            try OptionDecoding.options(for: FacesTask.self, query: [], overrides: ["threads": .number(Double(value)!)], threads: nil)
        }
    }

    /// A value its option's type refuses is named with the option as the client wrote it: a count (`maxFaces`, `max`) given a
    /// fraction or a number past Int's 2⁶³ — which JSONDecoder reports without naming the key — and a word
    /// that is not one of a level's choices (`fast`, `accurate`), in a query or a stream's options message.
    @Test func valuesAnOptionsTypeRefusesAreNamedWithTheirOption() throws {
        func message(_ body: () throws -> Void) -> String? {
            do { try body() } catch let error as APIError where error.code == "bad_option" { return error.message } catch {}
            return nil
        }
        #expect(message { _ = try OptionDecoding.options(for: FacesTask.self, query: [("max-faces", "2.5")], threads: 1) }
            == "max-faces takes a whole number, not 2.5")
        #expect(message { _ = try OptionDecoding.options(for: FacesTask.self, query: [("maxFaces", "2.5")], threads: 1) }
            == "maxFaces takes a whole number, not 2.5")
        #expect(message { _ = try OptionDecoding.options(for: HandsTask.self, query: [("model-complexity", "0.5")], threads: 1) }
            == "model-complexity takes a whole number, not 0.5")
        #expect(message { _ = try OptionDecoding.options(for: FacesTask.self, query: [("max-facez", "2")], threads: 1) }?
            .hasPrefix("faces has no option max-facez; its options: ") == true)
        #expect(message { _ = try OptionDecoding.options(for: LabelsTask.self, query: [("max", "1e40")], threads: 1) }
            == "max takes a whole number below 2⁶³, not 1e+40")
        #expect(message { _ = try OptionDecoding.options(for: FacesTask.self, query: [], overrides: ["maxFaces": .number(0.5)], threads: 1) }
            == "maxFaces takes a whole number, not 0.5")
        #expect(message { _ = try OptionDecoding.options(for: TextTask.self, query: [("level", "bogus")], threads: 1) }
            == "level cannot take bogus")
        #expect(message { _ = try OptionDecoding.options(for: TextTask.self, query: [], overrides: ["level": .number(5)], threads: 1) }
            == "level cannot take 5")
        // A whole number in range is a count like any other.
        #expect(try OptionDecoding.options(for: FacesTask.self, query: [("max-faces", "1e3")], threads: 1).maxFaces == 1000)
    }

    @Test(arguments: [1e300, -1e300, 9_223_372_036_854_775_807, -1, 1.5, .infinity, .nan])
    func outOfRangeTimestampsAreBadOptions(value: Double) {
        #expect(throws: APIError.self) { try OptionDecoding.timestamp(.number(value)) }
    }

    @Test func timestampsInRangeAreKept() throws {
        #expect(try OptionDecoding.timestamp(.number(0)) == 0)
        #expect(try OptionDecoding.timestamp(.number(9_007_199_254_740_992)) == 9_007_199_254_740_992)
    }
}
