import Foundation
import SwiftVisionCore
import Synchronization

/// Downloads remote models into a folder and finds them there, as ML Kit's `ModelManager`.
///
/// A download streams into `NAME.tflite.partial`; an interrupted one is resumed by the next
/// download of the same model. The finished file is checked (the SHA-256 when the model has one,
/// then that LiteRT loads it) and only then renamed to `NAME.tflite`, so a half-written or corrupt
/// model is never used. Concurrent downloads of one model share a single transfer. A model larger than
/// 1 GiB is refused from the size its server declares, before a byte is written (or, with no size
/// declared, once the body runs past it, and what came is discarded); a transfer that moves less than
/// 1 KiB a second for 30 s, or does not connect within 30 s, is stopped as stalled and can be resumed.
///
/// As ML Kit, a model already downloaded is transferred again only when its server publishes a newer
/// file: the record beside the model keeps the file's validators (`ETag`, `Last-Modified`), and
/// the next download asks with a conditional request (`If-None-Match`, `If-Modified-Since`). A
/// `304 Not Modified` leaves the model as it is; a new file is downloaded beside the old one, checked,
/// and replaces it in one rename. A server that sends no validators gets the whole file every time.
public struct ModelManager: Sendable, Hashable {
    /// The folder holding the downloaded models.
    public let directory: URL
    /// How large a model may be and how slow its transfer may get.
    package var limits = DownloadLimits.standard

    /// A manager of the models in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The manager of the cache's `models/downloaded` folder.
    public static func modelManager() -> ModelManager {
        ModelManager(directory: SwiftVisionCache.current.models.appendingPathComponent("downloaded", isDirectory: true))
    }

    /// The model host that models without an address are downloaded from: the one set here, else the one
    /// `SWIFTVISION_MODEL_HOST` and `SWIFTVISION_MODEL_TOKEN` name. Read when each download starts.
    public static var modelHost: ModelHost? {
        get { configuredHost.withLock { $0 } ?? ModelHost(environment: ProcessInfo.processInfo.environment) }
        set { configuredHost.withLock { $0 = newValue } }
    }

    private static let configuredHost = Mutex<ModelHost?>(nil)

    /// Whether `model` is downloaded and ready to use.
    public func isModelDownloaded(_ model: RemoteModel) -> Bool {
        downloadedModel(for: model) != nil
    }

    /// The downloaded file of `model`, nil when it is not downloaded. The seeds' pattern
    /// "remote if downloaded, else local" reads `manager.downloadedModel(for: remote) ?? local`.
    public func downloadedModel(for model: RemoteModel) -> LocalModel? {
        guard model.hasValidName else { return nil }
        let file = modelFile(model.name)
        return FileManager.default.fileExists(atPath: file.path) ? LocalModel(url: file) : nil
    }

    /// The downloaded models, by name. A record that cannot be read (damaged, or not one of ours) is
    /// left out, as is a record whose model file is missing.
    public func downloadedModels() throws -> [RemoteModel] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".partial.json") }.sorted()
            .compactMap { name in
                guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)),
                    let record = try? JSONDecoder().decode(RemoteModel.self, from: data)
                else { return nil }
                return isModelDownloaded(record) ? record : nil
            }
    }

    /// Deletes the downloaded file of `model` and any partial download of it.
    public func deleteDownloadedModel(_ model: RemoteModel) throws {
        guard model.hasValidName else { throw ModelManagerError.invalidName(model.name) }
        guard isModelDownloaded(model) else { throw ModelManagerError.notDownloaded(name: model.name) }
        let partial = partialFile(model.name)
        for file in [modelFile(model.name), recordFile(model.name), partial, ResumableTransfer.stateFile(for: partial)]
        where FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }

    /// Starts downloading `model`, or joins its download in flight, and returns ML Kit's `Progress`.
    /// A model in place is kept unless its server has a newer file; either way the progress ends at
    /// the file's size and success is posted. The outcome is posted as
    /// ``Foundation/Notification/Name/modelDownloadDidSucceed`` or
    /// ``Foundation/Notification/Name/modelDownloadDidFail``, with the model (and error) in `userInfo`.
    @discardableResult
    public func download(_ model: RemoteModel, conditions: ModelDownloadConditions = ModelDownloadConditions()) -> Progress {
        start(model, conditions: conditions).progress
    }

    /// Starts downloading `model`, or joins its download in flight, and yields its progress; the
    /// stream finishes once the model is in place, or throws a ``ModelManagerError``. A model in place
    /// whose server has no newer file yields one update, complete, without a transfer.
    public func downloadUpdates(
        _ model: RemoteModel, conditions: ModelDownloadConditions = ModelDownloadConditions()
    ) -> AsyncThrowingStream<ModelDownloadProgress, any Error> {
        start(model, conditions: conditions).follow()
    }

    // MARK: Files

    private func modelFile(_ name: String) -> URL { directory.appendingPathComponent(name + ".tflite") }
    private func partialFile(_ name: String) -> URL { directory.appendingPathComponent(name + ".tflite.partial") }
    private func recordFile(_ name: String) -> URL { directory.appendingPathComponent(name + ".json") }

    // MARK: Downloading

    /// Downloads in flight, by destination file, across all managers of the process.
    private static let inFlight = Mutex<[URL: ModelDownload]>([:])

    private func start(_ model: RemoteModel, conditions: ModelDownloadConditions) -> ModelDownload {
        let destination = modelFile(model.name).standardizedFileURL
        let (download, isNew) = Self.inFlight.withLock { downloads in
            if let running = downloads[destination] { return (running, false) }
            let download = ModelDownload()
            downloads[destination] = download
            return (download, true)
        }
        guard isNew else { return download }
        Task.detached(priority: .utility) {
            let outcome: Result<Void, ModelManagerError>
            do {
                try await fetch(model, conditions: conditions) { download.report($0) }
                outcome = .success(())
            } catch {
                outcome = .failure(error as? ModelManagerError ?? .transferFailed(reason: error.localizedDescription))
            }
            Self.inFlight.withLock { _ = $0.removeValue(forKey: destination) }
            download.finish(outcome)
            switch outcome {
            case .success:
                NotificationCenter.default.post(
                    name: .modelDownloadDidSucceed, object: nil,
                    userInfo: [ModelDownloadUserInfoKey.remoteModel.rawValue: model])
            case .failure(let error):
                NotificationCenter.default.post(
                    name: .modelDownloadDidFail, object: nil,
                    userInfo: [ModelDownloadUserInfoKey.remoteModel.rawValue: model, ModelDownloadUserInfoKey.error.rawValue: error])
            }
        }
        return download
    }

    /// Transfers the file, checks it and moves it into place.
    private func fetch(
        _ model: RemoteModel, conditions: ModelDownloadConditions,
        onProgress: @escaping @Sendable (ModelDownloadProgress) -> Void
    ) async throws {
        guard model.hasValidName else { throw ModelManagerError.invalidName(model.name) }
        let (source, token) = try address(of: model)
        guard ResumableTransfer.isAllowed(source) else { throw ModelManagerError.insecureURL(source) }
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ModelManagerError.transferFailed(reason: "cannot create \(directory.path): \(error.localizedDescription)")
        }
        // Other processes downloading the same model wait for this one: one partial file, one writer.
        // The locks live beside the models folder, which holds only models and their records.
        let locks = directory.appendingPathExtension("locks")
        try? manager.createDirectory(at: locks, withIntermediateDirectories: true)
        let lock = open(locks.appendingPathComponent(model.name + ".lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw ModelManagerError.transferFailed(reason: "cannot lock \(model.name): \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(lock, LOCK_UN) }
        let partial = partialFile(model.name)
        func transfer(unlessMatching installed: ModelValidators?) async throws -> ResumableTransfer.Outcome {
            try await ResumableTransfer(source: source, token: token, partial: partial, limits: limits, onProgress: onProgress)
                .run(conditions: conditions, unlessMatching: installed)
        }
        var outcome = try await transfer(unlessMatching: installedValidators(of: model))
        defer {
            try? manager.removeItem(at: partial)
            try? manager.removeItem(at: ResumableTransfer.stateFile(for: partial))
        }
        if outcome == .notModified {
            if let size = fileSize(modelFile(model.name)) {
                onProgress(ModelDownloadProgress(completedBytes: size, totalBytes: size))
                return
            }
            // The model was deleted while the server was asked: download it whole.
            outcome = try await transfer(unlessMatching: nil)
        }
        guard case .downloaded(let validators, let served) = outcome else {
            throw ModelManagerError.transferFailed(reason: "the server answered 304 to a request that was not conditional")
        }
        try check(partial, of: model, served: served)
        do {
            // The record loses its validators before the file is replaced and gets the new ones after:
            // a download stopped in between finds no validators and transfers the file again, rather
            // than taking the old file for the new one.
            try store(ModelRecord(model: model, validators: nil))
            guard rename(partial.path, modelFile(model.name).path) == 0 else {
                throw ModelManagerError.transferFailed(reason: String(cString: strerror(errno)))
            }
            try store(ModelRecord(model: model, validators: validators))
        } catch let error as ModelManagerError {
            throw error
        } catch {
            throw ModelManagerError.transferFailed(reason: "cannot store the model: \(error.localizedDescription)")
        }
    }

    /// Where `model` is downloaded from, and the token to send there: its address, or the model host's.
    private func address(of model: RemoteModel) throws -> (url: URL, token: String?) {
        if let url = model.url { return (url, nil) }
        guard let host = Self.modelHost else { throw ModelManagerError.noModelHost(name: model.name) }
        return (host.modelURL(named: model.name), host.token)
    }

    /// The validators of `model`'s file in place, when it is there and its record is of the same
    /// model (name, address and checksum); nil otherwise, and the download is unconditional.
    private func installedValidators(of model: RemoteModel) -> ModelValidators? {
        guard fileSize(modelFile(model.name)) != nil, let data = try? Data(contentsOf: recordFile(model.name)),
            let record = try? JSONDecoder().decode(ModelRecord.self, from: data), record.model == model
        else { return nil }
        return record.validators
    }

    private func fileSize(_ file: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int64
    }

    private func store(_ record: ModelRecord) throws {
        try JSONEncoder().encode(record).write(to: recordFile(record.model.name), options: .atomic)
    }

    /// Throws unless `file` has the model's checksum and the one its server sent (`served`), and loads as
    /// a TFLite model.
    private func check(_ file: URL, of model: RemoteModel, served: String?) throws {
        let expected = [model.sha256, served].compactMap { $0 }
        if !expected.isEmpty {
            let actual = try AssetInstaller.sha256(of: file)
            if let wrong = expected.first(where: { $0 != actual }) {
                throw ModelManagerError.checksumMismatch(expected: wrong, actual: actual)
            }
        }
        // Loading checks the file's identifier and structure (ModelFileCheck) before LiteRT reads it.
        do {
            _ = try LiteRT.Model(contentsOf: file)
        } catch {
            throw ModelManagerError.invalidModel(reason: error.localizedDescription)
        }
    }
}
