import Foundation
import Synchronization
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// Downloads from a real HTTP server on 127.0.0.1 (`Tests/Python/Reference/model_server.py`) serving the
/// model zoo's float16 classifier, with cut transfers, corrupt files and range requests.
@Suite struct ModelManagerTests {
    let server: TestModelServer
    let folder: URL
    let manager: ModelManager
    let served: URL
    let checksum: String

    init() throws {
        try self.init(newer: nil)
    }

    /// A server that publishes `newer` on demand (see ``TestModelServer/publishNewer()``).
    init(newer: URL?) throws {
        served = try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite")
        checksum = try AssetInstaller.sha256(of: served)
        server = try TestModelServer(serving: served, newer: newer)
        folder = try Fixtures.temporaryDirectory()
        manager = ModelManager(directory: folder.appendingPathComponent("models"))
    }

    func remote(_ path: String, checked: Bool = true) -> RemoteModel {
        RemoteModel(name: "classifier-\(UUID().uuidString.prefix(8))", url: server.url(path), sha256: checked ? checksum : nil)
    }

    /// Runs the download to its end; returns the progress seen, or throws its error.
    func download(_ model: RemoteModel) async throws -> [ModelDownloadProgress] {
        try await Self.download(model, by: manager)
    }

    static func download(_ model: RemoteModel, by manager: ModelManager) async throws -> [ModelDownloadProgress] {
        var updates: [ModelDownloadProgress] = []
        for try await update in manager.downloadUpdates(model) { updates.append(update) }
        return updates
    }

    func filesInFolder() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: manager.directory.path).sorted()
    }

    @Test func downloadsChecksAndMovesTheModelIntoPlace() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = remote("/model.tflite")
        #expect(!manager.isModelDownloaded(model) && manager.downloadedModel(for: model) == nil)
        let updates = try await download(model)
        let size = Int64(try Data(contentsOf: served).count)
        #expect(updates.last == ModelDownloadProgress(completedBytes: size, totalBytes: size))
        #expect(updates.map(\.completedBytes) == updates.map(\.completedBytes).sorted())
        let file = try #require(manager.downloadedModel(for: model))
        #expect(try AssetInstaller.sha256(of: file.url) == checksum)
        #expect(try filesInFolder() == [model.name + ".json", model.name + ".tflite"])
        #expect(try manager.downloadedModels() == [model])
        // A damaged record beside it is left out of the list; the good one stays listed.
        let damaged = folder.appendingPathComponent("models/damaged.json")
        try Data("{\"name\": \"damaged\", \"url\"".utf8).write(to: damaged)
        #expect(try manager.downloadedModels() == [model])
        try FileManager.default.removeItem(at: damaged)
        // The seeds' pattern: the remote model once downloaded, else the bundled one.
        let labeler = try ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(remoteModel: model, modelManager: manager))
        #expect(try labeler.results(in: try Fixtures.image("coffee.png").mlKitImage).first?.text == "espresso")
        try manager.deleteDownloadedModel(model)
        #expect(try !manager.isModelDownloaded(model) && filesInFolder().isEmpty)
        #expect(throws: ModelManagerError.notDownloaded(name: model.name)) { try manager.deleteDownloadedModel(model) }
    }

    @Test func anInterruptedTransferIsResumedAndNeverUsedHalfWritten() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = remote("/cut/model.tflite")
        let size = try Data(contentsOf: served).count
        let error = await #expect(throws: ModelManagerError.self) { try await download(model) }
        #expect(error?.description.contains("broke off") == true, "\(String(describing: error))")
        // Half the bytes wait in a partial file; the model is not there to be used.
        #expect(!manager.isModelDownloaded(model))
        let partial = manager.directory.appendingPathComponent(model.name + ".tflite.partial")
        #expect((try FileManager.default.attributesOfItem(atPath: partial.path))[.size] as? Int == size / 2)
        #expect(throws: ModelManagerError.notDownloaded(name: model.name)) {
            let labeler = ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(remoteModel: model, modelManager: manager))
            return try unwrappingMLKitError { try labeler.results(in: try Fixtures.image("coffee.png").mlKitImage) }
        }
        let bundled = LocalModel(url: served)
        #expect(manager.downloadedModel(for: model) ?? bundled == bundled)
        // The next download asks only for the missing bytes.
        let updates = try await download(model)
        #expect(updates.first?.completedBytes == Int64(size / 2) && updates.last?.completedBytes == Int64(size))
        let requests = try await server.requests()
        #expect(requests.map(\.range) == [nil, "bytes=\(size / 2)-"])
        let file = try #require(manager.downloadedModel(for: model))
        #expect(try AssetInstaller.sha256(of: file.url) == checksum)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    @Test func aServerIgnoringTheRangeMakesTheDownloadStartOver() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = remote("/cut-then-full/model.tflite")
        await #expect(throws: ModelManagerError.self) { try await download(model) }
        let updates = try await download(model)
        #expect(updates.first?.completedBytes == 0)
        let requests = try await server.requests()
        #expect(requests.count == 2 && requests[1].range != nil)
        #expect(try AssetInstaller.sha256(of: try #require(manager.downloadedModel(for: model)).url) == checksum)
    }

    @Test func aChecksumMismatchDiscardsTheFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = remote("/corrupt/model.tflite")
        let error = await #expect(throws: ModelManagerError.self) { try await download(model) }
        guard case .checksumMismatch(let expected, let actual) = error else {
            Issue.record("expected a checksum mismatch, got \(String(describing: error))")
            return
        }
        #expect(expected == checksum && actual != checksum)
        #expect(try !manager.isModelDownloaded(model) && filesInFolder().isEmpty)
    }

    @Test func modelsComeOverHTTPSOrFromThisMachineOnly() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Refused before any connection: plain http to another machine, and other schemes.
        for address in ["http://example.com/model.tflite", "ftp://127.0.0.1/model.tflite", "file:///etc/passwd"] {
            let model = RemoteModel(name: "far", url: URL(string: address)!, sha256: nil)
            let error = await #expect(throws: ModelManagerError.self) { try await download(model) }
            #expect(error == .insecureURL(URL(string: address)!))
        }
        // A server on this machine that redirects to plain http elsewhere: the redirect is not followed.
        let away = remote("/away/model.tflite", checked: false)
        let error = await #expect(throws: ModelManagerError.self) { try await download(away) }
        #expect(error == .insecureURL(URL(string: "http://192.0.2.1/model.tflite")!), "\(String(describing: error))")
        #expect(try !manager.isModelDownloaded(away) && filesInFolder().isEmpty)
        // A redirect on this machine, given as a relative reference, is followed.
        let moved = remote("/moved/model.tflite")
        _ = try await download(moved)
        #expect(try AssetInstaller.sha256(of: try #require(manager.downloadedModel(for: moved)).url) == checksum)
        #expect(try await server.requests().map(\.path).suffix(2) == ["/moved/model.tflite", "/model.tflite"])
    }

    @Test func aFileThatIsNotAModelIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = remote("/garbage.tflite", checked: false)
        let error = await #expect(throws: ModelManagerError.self) { try await download(model) }
        #expect(error?.description.contains("not a usable model") == true, "\(String(describing: error))")
        #expect(try !manager.isModelDownloaded(model) && filesInFolder().isEmpty)
    }

    @Test func httpErrorsAndBadNamesAreReported() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = remote("/missing.tflite")
        await #expect(throws: ModelManagerError.httpStatus(404, url: server.url("/missing.tflite"))) { try await download(missing) }
        let badName = RemoteModel(name: "../escape", url: server.url("/model.tflite"))
        await #expect(throws: ModelManagerError.invalidName("../escape")) { try await download(badName) }
        #expect(!manager.isModelDownloaded(badName))
    }

    @Test func concurrentDownloadsShareOneTransfer() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (model, manager) = (remote("/slow/model.tflite"), manager)
        async let first = Self.download(model, by: manager)
        async let second = Self.download(model, by: manager)
        let (a, b) = try await (first, second)
        #expect(a.last?.completedBytes == b.last?.completedBytes)
        #expect(try await server.requests().count == 1)
        #expect(manager.isModelDownloaded(model))
    }

    @Test func mlKitProgressAndNotifications() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = remote("/model.tflite")
        let bad = remote("/corrupt/model.tflite")
        let outcomes = Mutex<[String: String]>([:])
        var observers: [any NSObjectProtocol] = []
        for (name, succeeded) in [(Notification.Name.modelDownloadDidSucceed, true), (.modelDownloadDidFail, false)] {
            observers.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                guard let model = note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
                    [good.name, bad.name].contains(model.name)
                else { return }
                let error = note.userInfo?[ModelDownloadUserInfoKey.error.rawValue] as? ModelManagerError
                let outcome = (succeeded ? "succeeded" : "failed") + (error.map { " with \($0)" } ?? "")
                outcomes.withLock { $0[model.name] = outcome }
            })
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let progress = manager.download(good, conditions: ModelDownloadConditions(allowsCellularAccess: false, allowsBackgroundDownloading: true))
        manager.download(bad)
        // The downloads run on detached tasks, which a busy machine may start late: wait up to a minute.
        for _ in 0..<6000 where outcomes.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        let seen = outcomes.withLock { $0 }
        #expect(seen[good.name] == "succeeded")
        #expect(seen[bad.name]?.hasPrefix("failed with the downloaded model has SHA-256") == true, "\(seen)")
        #expect(progress.completedUnitCount == Int64(try Data(contentsOf: served).count) && progress.fractionCompleted == 1)
        #expect(manager.isModelDownloaded(good) && !manager.isModelDownloaded(bad))
    }
}

/// Servers that lie about a model's size, send more than a model may be, or stall.
extension ModelManagerTests {
    func partialFiles(of model: RemoteModel, in manager: ModelManager) -> [String] {
        let partial = manager.directory.appendingPathComponent(model.name + ".tflite.partial")
        return [partial, ResumableTransfer.stateFile(for: partial)].map(\.path).filter(FileManager.default.fileExists)
    }

    /// A declared 2 GiB is refused from the response's head: not a byte is written, and nothing is left that
    /// a retry would try to resume.
    @Test func aModelDeclaredLargerThanTheLimitIsRefusedBeforeAByteIsWritten() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = remote("/huge/model.tflite")
        let progress = Mutex<[ModelDownloadProgress]>([])
        let error = await #expect(throws: ModelManagerError.self) {
            for try await update in manager.downloadUpdates(model) { progress.withLock { $0.append(update) } }
        }
        #expect(error == .tooLarge(limit: DownloadLimits.standard.maximumBytes, declared: 2 << 30), "\(String(describing: error))")
        #expect(progress.withLock { $0 }.allSatisfy { $0.completedBytes == 0 })
        #expect(partialFiles(of: model, in: manager).isEmpty && !manager.isModelDownloaded(model))
    }

    /// A body that runs past the limit with no size declared, and a resumed transfer whose whole file is
    /// larger than the limit: refused, and the partial file and its state are removed.
    @Test func aTransferPastTheLimitLeavesNoPartialFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var limited = manager
        limited.limits.maximumBytes = 1 << 20
        let undeclared = remote("/undeclared/model.tflite")
        let error = await #expect(throws: ModelManagerError.self) { try await Self.download(undeclared, by: limited) }
        #expect(error == .tooLarge(limit: 1 << 20, declared: nil), "\(String(describing: error))")
        #expect(partialFiles(of: undeclared, in: limited).isEmpty)

        // Half the file is kept by a transfer cut short; resuming it, the server says the whole file is 9.3 MB,
        // over the limit.
        let cut = remote("/cut/model.tflite")
        await #expect(throws: ModelManagerError.self) { try await download(cut) }
        #expect(partialFiles(of: cut, in: limited).count == 2)
        let size = Int64(try Data(contentsOf: served).count)
        let resumed = await #expect(throws: ModelManagerError.self) { try await Self.download(cut, by: limited) }
        #expect(resumed == .tooLarge(limit: 1 << 20, declared: size), "\(String(describing: resumed))")
        #expect(partialFiles(of: cut, in: limited).isEmpty)
        // The next download asks for the whole file again (this server then cuts it short again).
        await #expect(throws: ModelManagerError.self) { try await download(cut) }
        let ranges = try await server.requests().filter { $0.path == "/cut/model.tflite" }.map(\.range)
        #expect(ranges == [nil, "bytes=\(size / 2)-", nil])
    }

    /// A server sending 2 bytes a second stalls the transfer, which stops once the stall window has passed
    /// (2 s here, 30 s by default) with an error saying so; the bytes received are kept for resuming.
    /// How long the transfer ran is read from the bytes it kept, not from a clock: under a full test run the
    /// transfer's task may wait for a thread before it starts, which says nothing about the stall window.
    @Test func aStalledTransferStopsWithinTheStallWindow() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var limited = manager
        limited.limits.stallSeconds = 2
        let model = remote("/drip/model.tflite")
        let error = await #expect(throws: ModelManagerError.self) { try await Self.download(model, by: limited) }
        #expect(error?.description.contains("stalled: less than 1024 bytes a second for 2 s") == true, "\(String(describing: error))")
        #expect(partialFiles(of: model, in: limited).count == 2, "the partial file and its state are kept for resuming")
        // The server drips 120 bytes over 60 s before it closes; stopped after the 2 s window, the transfer kept
        // a few of them.
        let partial = limited.directory.appendingPathComponent(model.name + ".tflite.partial")
        let kept = (try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? .max
        #expect(kept <= 20, "the transfer kept \(kept) bytes: it ran far longer than the stall window")
    }
}
