import Foundation
import Synchronization
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// Downloads of a model already in place: conditional requests to the loopback server of
/// `Tests/Python/Reference/model_server.py`, which serves the zoo's float16 classifier and, once published,
/// the float32 one as the newer file; the server counts the body bytes it sends.
@Suite struct ModelUpdateTests {
    /// The server, the models folder and its manager.
    let fixture: ModelManagerTests
    let newer: URL

    init() throws {
        newer = try Fixtures.model("efficientnet_lite0_classifier.tflite")
        fixture = try ModelManagerTests(newer: newer)
    }

    var server: TestModelServer { fixture.server }
    var manager: ModelManager { fixture.manager }
    var folder: URL { fixture.folder }
    var served: URL { fixture.served }

    func download(_ model: RemoteModel) async throws -> [ModelDownloadProgress] {
        try await fixture.download(model)
    }

    func size(_ file: URL) throws -> Int { try Data(contentsOf: file).count }

    /// The SHA-256 of the model file in place.
    func installedChecksum(_ model: RemoteModel) throws -> String {
        try AssetInstaller.sha256(of: try #require(manager.downloadedModel(for: model)).url)
    }

    @Test func anUnchangedModelIsNotTransferredAgainAndANewerOneReplacesIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = fixture.remote("/model.tflite", checked: false)
        _ = try await download(model)
        // The second download, through ML Kit's API: a 304, no body, the progress complete and success posted.
        let succeeded = Mutex(false)
        let observer = NotificationCenter.default.addObserver(forName: .modelDownloadDidSucceed, object: nil, queue: nil) { note in
            guard (note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel) == model else { return }
            succeeded.withLock { $0 = true }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let progress = manager.download(model)
        // The download runs on a detached task, which a busy machine may start late: wait up to a minute.
        for _ in 0..<6000 where !succeeded.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(succeeded.withLock { $0 })
        #expect(progress.completedUnitCount == Int64(try size(served)) && progress.fractionCompleted == 1)
        #expect(try installedChecksum(model) == AssetInstaller.sha256(of: served))
        // The server publishes a newer file: the third download transfers it and it takes the old one's place.
        try await server.publishNewer()
        let updates = try await download(model)
        #expect(updates.last == ModelDownloadProgress(completedBytes: Int64(try size(newer)), totalBytes: Int64(try size(newer))))
        #expect(try installedChecksum(model) == AssetInstaller.sha256(of: newer))
        #expect(try FileManager.default.contentsOfDirectory(atPath: manager.directory.path).sorted() == [model.name + ".json", model.name + ".tflite"])
        let requests = try await server.requests()
        #expect(requests.map(\.status) == [200, 304, 200])
        #expect(requests.map(\.bytes) == [try size(served), 0, try size(newer)])
        // The conditional requests carried the ETag the server sent, the file's SHA-256.
        let etag = "\"\(try AssetInstaller.sha256(of: served))\""
        #expect(requests.map(\.ifNoneMatch) == [nil, etag, etag])
        let labeler = try ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(remoteModel: model, modelManager: manager))
        #expect(try labeler.results(in: try Fixtures.image("coffee.png").mlKitImage).first?.text == "espresso")
    }

    @Test func aServerWithADateOnlyIsAskedIfModifiedSince() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = fixture.remote("/dated/model.tflite", checked: false)
        for _ in 0..<2 { _ = try await download(model) }
        try await server.publishNewer()
        _ = try await download(model)
        let requests = try await server.requests()
        #expect(requests.map(\.status) == [200, 304, 200])
        #expect(requests.map(\.bytes) == [try size(served), 0, try size(newer)])
        #expect(requests.allSatisfy { $0.ifNoneMatch == nil })
        #expect(requests[0].ifModifiedSince == nil && requests[1].ifModifiedSince != nil)
        #expect(requests[1].ifModifiedSince == requests[2].ifModifiedSince)
        #expect(try installedChecksum(model) == AssetInstaller.sha256(of: newer))
    }

    @Test func aServerWithoutValidatorsSendsTheWholeFileEachTime() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = fixture.remote("/plain/model.tflite")
        for _ in 0..<2 { _ = try await download(model) }
        let requests = try await server.requests()
        #expect(requests.map(\.status) == [200, 200])
        #expect(requests.map(\.bytes) == [try size(served), try size(served)])
        #expect(requests.allSatisfy { $0.ifNoneMatch == nil && $0.ifModifiedSince == nil })
        #expect(try installedChecksum(model) == AssetInstaller.sha256(of: served))
    }

    @Test func aModelDeletedByHandOrDuringA304IsDownloadedWhole() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // The file deleted by hand, its record left: the next request is not conditional.
        let model = fixture.remote("/model.tflite")
        _ = try await download(model)
        try FileManager.default.removeItem(at: try #require(manager.downloadedModel(for: model)).url)
        _ = try await download(model)
        var requests = try await server.requests()
        #expect(requests.map(\.status) == [200, 200] && requests[1].ifNoneMatch == nil)
        #expect(try installedChecksum(model) == AssetInstaller.sha256(of: served))
        // The model deleted while the server holds its 304 back: the file is downloaded whole.
        let held = fixture.remote("/held/model.tflite")
        _ = try await download(held)
        let (manager, model304) = (manager, held)
        async let updating = ModelManagerTests.download(model304, by: manager)
        var waited = 0
        while try await server.requests().count < 4 && waited < 6000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        try manager.deleteDownloadedModel(held)
        try await server.release()
        _ = try await updating
        requests = try await server.requests()
        #expect(requests.dropFirst(2).map(\.status) == [200, 304, 200])
        #expect(requests.dropFirst(2).map(\.bytes) == [try size(served), 0, try size(served)])
        #expect(requests.last?.ifNoneMatch == nil)
        #expect(try installedChecksum(held) == AssetInstaller.sha256(of: served))
        #expect(try manager.downloadedModels().contains(held))
    }

    @Test func aNewerFileThatFailsItsChecksumLeavesTheModelInPlace() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = fixture.remote("/model.tflite", checked: true)
        _ = try await download(model)
        try await server.publishNewer()
        let error = await #expect(throws: ModelManagerError.self) { try await download(model) }
        guard case .checksumMismatch = error else {
            Issue.record("expected a checksum mismatch, got \(String(describing: error))")
            return
        }
        #expect(try installedChecksum(model) == AssetInstaller.sha256(of: served))
        #expect(try FileManager.default.contentsOfDirectory(atPath: manager.directory.path).sorted() == [model.name + ".json", model.name + ".tflite"])
    }
}
