import Foundation
import Synchronization
import SwiftVisionTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import MLKit
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// `swiftvision serve --models DIR` on a free loopback port, hosting a folder of model files with a token,
/// as a fleet's model host; stopped on deinit.
final class ModelHostProcess {
    let folder: URL
    let token = "model-host-token-\(UUID().uuidString.prefix(8))"
    let base: URL
    private let log: URL
    private let process = Process()

    /// Starts the host on `folder`, which holds the models, and waits until it listens.
    init(folder: URL) throws {
        self.folder = folder
        let tokenFile = folder.deletingLastPathComponent().appendingPathComponent("models-token")
        try Data((token + "\n").utf8).write(to: tokenFile)
        log = folder.deletingLastPathComponent().appendingPathComponent("host.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        process.executableURL = Fixtures.executable
        process.arguments = ["serve", "--port", "0", "--models", folder.path, "--models-token-file", tokenFile.path]
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var port: Int?
        for _ in 0..<600 where port == nil && process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
            port = Self.text(of: log).firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) }
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            throw HostDidNotStart(log: Self.text(of: log))
        }
        base = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// `swiftvision serve --models` exited or did not listen within 30 s.
    struct HostDidNotStart: Error {
        let log: String
    }

    deinit {
        // Foundation starts children with SIGTERM blocked: stop the server with SIGKILL.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// What the server logged so far: one access line per request (`method=… path=… status=…`).
    func logText() -> String { Self.text(of: log) }

    private static func text(of log: URL) -> String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// The statuses the server answered `GET path` with, in order.
    func statuses(ofGet path: String) -> [Int] {
        logText().split(separator: "\n").compactMap { line in
            guard line.contains("method=GET path=\(path) ") else { return nil }
            return line.firstMatch(of: /status=(\d+)/).flatMap { Int($0.1) }
        }
    }

    /// One request to the host, with its token unless `token` says otherwise; no cache in between.
    func fetch(
        _ path: String, method: String = "GET", token: String?? = .none, headers: [String: String] = [:]
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        request.cachePolicy = .reloadIgnoringLocalCacheData
        if let bearer = token ?? self.token { request.setValue("Bearer " + bearer, forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let (body, response) = try await URLSession(configuration: configuration).data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        let fields = Dictionary(
            http.allHeaderFields.map { (String(describing: $0.key).lowercased(), String(describing: $0.value)) }) { $1 }
        return (http.statusCode, fields, body)
    }

    /// The `code` of a JSON error body.
    static func errorCode(_ body: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: [String: Any]])?["error"]?["code"] as? String
    }
}

/// The model host of issue 29: `swiftvision serve --models DIR` serves model files by name with a token,
/// an ETag and a SHA-256, and ML Kit's `CustomRemoteModel(remoteModelSource: FirebaseModelSource(name:))`
/// downloads from it through `ModelManager` (with `ModelManager.modelHost` set, as `SWIFTVISION_MODEL_HOST`
/// would set it), then labels a photo with the model. The checksums are `sha256sum`'s.
@Suite(.serialized) struct ModelHostTests {
    /// The SHA-256 of `file` by coreutils' `sha256sum`, an implementation apart from the host's.
    static func sha256sum(_ file: URL) throws -> String {
        let run = try Fixtures.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [file.path])
        return String(run.output.prefix(64))
    }

    /// A folder holding `models/` and the host's token file, with `files` copied into `models/` by name.
    static func hostFolder(_ files: [String: String]) throws -> (root: URL, models: URL) {
        let root = try Fixtures.temporaryDirectory()
        let models = root.appendingPathComponent("models", isDirectory: true)
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        for (name, model) in files {
            try FileManager.default.copyItem(at: try Fixtures.model(model), to: models.appendingPathComponent(name + ".tflite"))
        }
        return (root, models)
    }

    @Test func theHostServesListsAnswers304AndRefusesWhatItShould() async throws {
        let (root, models) = try Self.hostFolder(["classifier": LabelsTask.baseModelName])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(atPath: models.appendingPathComponent("outside.tflite").path, withDestinationPath: "/etc/passwd")
        let host = try ModelHostProcess(folder: models)
        let file = models.appendingPathComponent("classifier.tflite")
        let bytes = try Data(contentsOf: file)
        let sha256 = try Self.sha256sum(file)

        let listing = try await host.fetch("/v1/models")
        #expect(listing.status == 200)
        let entries = try #require((try JSONSerialization.jsonObject(with: listing.body) as? [String: Any])?["models"] as? [[String: Any]])
        #expect(entries.count == 1 && entries[0]["name"] as? String == "classifier", "\(entries)")
        #expect(entries.first?["size"] as? Int == bytes.count && entries.first?["sha256"] as? String == sha256)

        let whole = try await host.fetch("/v1/models/classifier")
        #expect(whole.status == 200 && whole.body == bytes)
        #expect(whole.headers["etag"] == "\"\(sha256)\"" && whole.headers["x-model-sha256"] == sha256)
        #expect(whole.headers["content-length"] == String(bytes.count))
        let head = try await host.fetch("/v1/models/classifier", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == String(bytes.count))
        let unchanged = try await host.fetch("/v1/models/classifier", headers: ["If-None-Match": "\"\(sha256)\""])
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.headers["etag"] == "\"\(sha256)\"")
        let other = try await host.fetch("/v1/models/classifier", headers: ["If-None-Match": "\"\(String(repeating: "0", count: 64))\""])
        #expect(other.status == 200 && other.body == bytes)
        let part = try await host.fetch("/v1/models/classifier", headers: ["Range": "bytes=100-199"])
        #expect(part.status == 206 && part.body == bytes[100..<200] && part.headers["content-range"] == "bytes 100-199/\(bytes.count)")
        let past = try await host.fetch("/v1/models/classifier", headers: ["Range": "bytes=\(bytes.count)-"])
        #expect(past.status == 416 && past.headers["content-range"] == "bytes */\(bytes.count)")

        // No token, or a wrong one: 401 with a JSON error, for the list and for a file.
        for path in ["/v1/models", "/v1/models/classifier"] {
            for token: String? in [nil, host.token + "x", String(host.token.dropLast())] {
                let refused = try await host.fetch(path, token: .some(token))
                #expect(refused.status == 401 && ModelHostProcess.errorCode(refused.body) == "unauthorized", "\(path) \(String(describing: token))")
                #expect(refused.headers["www-authenticate"]?.hasPrefix("Bearer") == true && !refused.body.contains(bytes.prefix(16)))
            }
        }
        // Names no model can have: traversal (the path is not percent-decoded), a NUL, too long, hidden.
        for name in ["..%2Fclassifier", "..%2F..%2Fetc%2Fpasswd", "classifier%00", "a%2Fb", ".classifier", String(repeating: "a", count: 129)] {
            let refused = try await host.fetch("/v1/models/\(name)")
            #expect(refused.status == 400, "\(name): \(refused.status)")
            #expect(["bad_model_name", "bad_path"].contains(ModelHostProcess.errorCode(refused.body)), "\(name)")
        }
        // A link out of the folder and an unknown name: 404, and the listing leaves the link out.
        for name in ["outside", "missing"] {
            let missing = try await host.fetch("/v1/models/\(name)")
            #expect(missing.status == 404 && ModelHostProcess.errorCode(missing.body) == "unknown_model", "\(name)")
        }
    }

    @Test func aFirebaseModelSourceDownloadsFromTheHostLabelsAndFollowsAReplacedFile() async throws {
        let name = "hosted-\(UUID().uuidString.prefix(8).lowercased())"
        let (root, models) = try Self.hostFolder([name: LabelsTask.baseModelName])
        defer { try? FileManager.default.removeItem(at: root) }
        let host = try ModelHostProcess(folder: models)
        let hosted = models.appendingPathComponent(name + ".tflite")
        let path = "/v1/models/\(name)"

        // The seeds' code, as written for iOS.
        let remoteModel = CustomRemoteModel(remoteModelSource: FirebaseModelSource(name: name))
        let manager = ModelManager.modelManager()
        #expect(!manager.isModelDownloaded(remoteModel))
        ModelManager.modelHost = ModelHost(url: host.base, token: host.token + "wrong")
        defer { ModelManager.modelHost = nil }
        await #expect(throws: ModelManagerError.httpStatus(401, url: URL(string: host.base.absoluteString + path)!)) {
            for try await _ in manager.downloadUpdates(remoteModel) {}
        }
        ModelManager.modelHost = ModelHost(url: host.base, token: host.token)
        defer { try? manager.deleteDownloadedModel(remoteModel) }

        func download() async throws {
            let succeeded = Mutex(false)
            let observer = NotificationCenter.default.addObserver(forName: .mlkitModelDownloadDidSucceed, object: nil, queue: nil) { note in
                guard let model = note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel, model.name == name else { return }
                succeeded.withLock { $0 = true }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let conditions = ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: true)
            let progress = ModelManager.modelManager().download(remoteModel, conditions: conditions)
            // The download runs on a detached task, which a busy machine may start late: wait up to a minute.
            for _ in 0..<6000 where !succeeded.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            try #require(succeeded.withLock { $0 }, "\(host.logText().suffix(2000))")
            #expect(progress.fractionCompleted == 1)
        }
        func installedChecksum() throws -> String {
            try Self.sha256sum(try #require(manager.downloadedModel(for: remoteModel)).url)
        }
        func topLabel() throws -> String? {
            let labeler = ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(remoteModel: remoteModel))
            return try labeler.results(in: try Fixtures.image("coffee.png").mlKitImage).first?.text
        }

        try await download()
        #expect(try manager.isModelDownloaded(remoteModel) && installedChecksum() == Self.sha256sum(hosted))
        // The base classifier's top label on this photo: MediaPipe's (ClassifierFidelityTests, ImageLabelerTests).
        #expect(try topLabel() == "espresso")
        #expect(host.statuses(ofGet: path) == [401, 200])

        // Unchanged on the host: a conditional request, answered 304, and the file stays.
        try await download()
        #expect(host.statuses(ofGet: path) == [401, 200, 304])

        // The fleet replaces the file (a rename over it): the next download gets the new one, whose
        // SHA-256 the host now sends, and the labeler runs it.
        let staged = models.appendingPathComponent(".staged")
        try FileManager.default.copyItem(at: try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite"), to: staged)
        #expect(rename(staged.path, hosted.path) == 0)
        let replaced = try Self.sha256sum(hosted)
        let head = try await host.fetch(path, method: "HEAD")
        #expect(head.headers["x-model-sha256"] == replaced)
        try await download()
        #expect(host.statuses(ofGet: path) == [401, 200, 304, 200])
        #expect(try installedChecksum() == replaced)
        // The float16 copy of the same classifier: the same top label (ModelManagerTests).
        #expect(try topLabel() == "espresso")

        // ML Kit's delete, with its completion.
        let deleted = await withCheckedContinuation { continuation in
            manager.deleteDownloadedModel(remoteModel) { continuation.resume(returning: $0 == nil) }
        }
        #expect(deleted && !manager.isModelDownloaded(remoteModel))
    }

    @Test func theHostComesFromTheEnvironmentAsOnAFleet() {
        let host = ModelHost(environment: ["SWIFTVISION_MODEL_HOST": "https://models.example:8443", "SWIFTVISION_MODEL_TOKEN": "t0k"])
        #expect(host?.token == "t0k" && host?.modelURL(named: "birds").absoluteString == "https://models.example:8443/v1/models/birds")
        #expect(ModelHost(environment: ["SWIFTVISION_MODEL_HOST": ""]) == nil && ModelHost(environment: [:]) == nil)
        #expect(ModelHost(environment: ["SWIFTVISION_MODEL_HOST": "models.example"]) == nil)
    }
}
