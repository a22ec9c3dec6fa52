import Dispatch
import Foundation
import MLKit
import Synchronization
import Testing

/// The remote-model code of ML Kit's custom-model guides, as written for iOS, against a model host that
/// does not answer (the discard port of this machine, which nothing listens on): the download fails the
/// way ML Kit documents it (`.mlkitModelDownloadDidFail` with the model and the error in `userInfo`), the
/// model is not downloaded, and a detector made with it anyway reports ML Kit's "not found" (code 5).
/// The successful download from a real host is ModelHostTests' (RuntimeTests).
@Suite(.serialized) struct RemoteModelPortTests {
    @Test func aHostedModelThatCannotBeDownloadedFailsAsInMLKit() async throws {
        let name = "port-remote-\(UUID().uuidString.prefix(8).lowercased())"
        ModelManager.modelHost = ModelHost(url: URL(string: "http://127.0.0.1:9")!, token: "fleet-token")
        defer { ModelManager.modelHost = nil }

        let firebaseModelSource = FirebaseModelSource(name: name)
        let remoteModel = CustomRemoteModel(remoteModelSource: firebaseModelSource)
        let failure = Mutex<(any Error)?>(nil)
        let observer = NotificationCenter.default.addObserver(forName: .mlkitModelDownloadDidFail, object: nil, queue: nil) { notification in
            guard let userInfo = notification.userInfo,
                let model = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
                model.name == name
            else { return }
            let error = userInfo[ModelDownloadUserInfoKey.error.rawValue] as? any Error
            failure.withLock { $0 = error }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let downloadConditions = ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: true)
        let downloadProgress = ModelManager.modelManager().download(remoteModel, conditions: downloadConditions)
        // The download runs on a detached task, which a busy machine may start late: wait up to a minute.
        for _ in 0..<6000 where failure.withLock({ $0 == nil }) { try await Task.sleep(for: .milliseconds(10)) }
        let error = try #require(failure.withLock { $0 })
        #expect(String(describing: error).contains("the download broke off"), "\(error)")
        #expect(downloadProgress.completedUnitCount == 0)
        #expect(!ModelManager.modelManager().isModelDownloaded(remoteModel))

        // The guide checks isModelDownloaded first; a detector made with the remote model anyway reports
        // ML Kit's error on its first image.
        let options = CustomObjectDetectorOptions(remoteModel: remoteModel)
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.classificationConfidenceThreshold = NSNumber(value: 0.5)
        options.maxPerObjectLabelCount = 3
        options.callbackQueue = PortFixtures.callbacks
        let detector = ObjectDetector.objectDetector(options: options)
        let image = try VisionImage(contentsOf: PortFixtures.sample("coffee.png"))
        let delivered = await PortFixtures.completion { detector.process(image, completion: $0) }
        let reported = try #require(delivered.error as NSError?)
        #expect(reported.domain == mlKitErrorDomain && reported.code == MLKitErrorCode.notFound.rawValue, "\(reported)")
        #expect(delivered.results == nil && delivered.onCallbacks)
    }
}
