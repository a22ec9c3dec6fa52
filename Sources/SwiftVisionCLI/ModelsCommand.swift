import ArgumentParser
import Dispatch
import Foundation
import SwiftVision
import Synchronization

struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models", abstract: "List, download and remove models.",
        discussion: """
            Downloaded models live in the cache's models/downloaded folder; use them with --model NAME (as \
            models list shows it) or --model PATH. Installed models come with `swiftvision setup` and stay.
            """,
        subcommands: [List.self, Download.self, Remove.self])

    /// One JSON line per model.
    struct Report: Encodable {
        var file: String
        var name: String
        var source: String
        var url: String?
        var sha256: String?
        var bytes: Int?
    }

    static func report(_ url: URL, name: String, remote: RemoteModel?) -> Report {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
        return Report(
            file: url.path, name: name, source: remote == nil ? "installed" : "downloaded",
            url: remote?.url?.absoluteString, sha256: remote?.sha256, bytes: bytes)
    }

    /// The path of the model `name` that set-up installed (as `models list` shows it), or nil.
    static func installedModel(named name: String) -> String? {
        let file = SwiftVisionCache.current.model(named: name + ".tflite")
        return FileManager.default.fileExists(atPath: file.path) ? file.path : nil
    }

    /// The file a `--model` argument names: the argument itself when it is a path or a file is there,
    /// else the installed or downloaded model of that name, as `models list` shows it. A bare name of
    /// neither is a usage error that lists the models there are.
    static func modelFile(_ argument: String) throws -> String {
        guard !argument.contains("/"), !FileManager.default.fileExists(atPath: argument) else { return argument }
        if let installed = installedModel(named: argument) { return installed }
        let manager = ModelManager.modelManager()
        let downloaded = try manager.downloadedModels().compactMap { remote in
            manager.downloadedModel(for: remote).map { (name: remote.name, path: $0.url.path) }
        }
        if let model = downloaded.first(where: { $0.name == argument }) { return model.path }
        let names = downloaded.map(\.name).sorted()
        throw ValidationError(
            "--model \(argument): no such file; give a path to a .tflite file, or one of the downloaded models: "
                + (names.isEmpty ? "none yet (swiftvision models download NAME URL)" : names.joined(separator: ", ")))
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the installed and the downloaded models.")

        @Flag(help: "Print JSON Lines.")
        var json = false

        func run() throws {
            let cache = SwiftVisionCache.current
            let installed = ((try? FileManager.default.contentsOfDirectory(atPath: cache.models.path)) ?? [])
                .filter { $0.hasSuffix(".tflite") }.sorted()
                .map { ModelsCommand.report(cache.model(named: $0), name: String($0.dropLast(7)), remote: nil) }
            let manager = ModelManager.modelManager()
            let downloaded = try manager.downloadedModels().compactMap { remote in
                manager.downloadedModel(for: remote).map { ModelsCommand.report($0.url, name: remote.name, remote: remote) }
            }
            for report in installed + downloaded {
                if json {
                    try JSONLines.print(report)
                } else {
                    let size = report.bytes.map { String(format: "%.1f MB", Double($0) / 1e6) } ?? "?"
                    print("\(report.name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(report.source.padding(toLength: 11, withPad: " ", startingAt: 0)) \(size)" + (report.url.map { "  \($0)" } ?? ""))
                }
            }
        }
    }

    struct Download: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Download a model; an interrupted download resumes where it stopped.")

        @Argument(help: "The model's name (letters, digits, '.', '_', '-').")
        var name: String

        @Argument(help: "The http(s) URL of the .tflite file; without it, the model host's model of that name ($SWIFTVISION_MODEL_HOST, token in $SWIFTVISION_MODEL_TOKEN).")
        var url: String?

        @Option(help: "The expected SHA-256 of the file; the model is refused when it differs.")
        var sha256: String?

        @Flag(help: "Print one JSON line.")
        var json = false

        func run() throws {
            let source = try url.map { url in
                guard let source = URL(string: url), ["http", "https"].contains(source.scheme?.lowercased() ?? "") else {
                    throw ValidationError("\(url) is not an http(s) URL")
                }
                return source
            }
            let model = RemoteModel(name: name, url: source, sha256: sha256)
            let manager = ModelManager.modelManager()
            let outcome = Mutex<Result<Void, any Error>>(.success(()))
            let finished = DispatchSemaphore(value: 0)
            Task {
                do {
                    var bar: ProgressBar?
                    for try await update in manager.downloadUpdates(model) {
                        if bar == nil { bar = ProgressBar(total: Int(update.totalBytes ?? 0), label: name, unit: "bytes") }
                        bar?.update(Int(update.completedBytes))
                    }
                    bar?.finish()
                } catch {
                    outcome.withLock { $0 = .failure(error) }
                }
                finished.signal()
            }
            finished.wait()
            do {
                try outcome.withLock { try $0.get() }
                guard let file = manager.downloadedModel(for: model) else { throw ModelManagerError.notDownloaded(name: name) }
                let report = ModelsCommand.report(file.url, name: name, remote: model)
                if json { try JSONLines.print(report) } else { print("\(name): \(file.path) (\(report.bytes ?? 0) bytes)") }
            } catch {
                try MediaFiles.reportFailure(of: name, error: error, json: json)
                throw ExitCode(1)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a downloaded model (installed ones stay).")

        @Argument(help: "The model's name.")
        var name: String

        func run() throws {
            let manager = ModelManager.modelManager()
            guard let model = try manager.downloadedModels().first(where: { $0.name == name }) else {
                if ModelsCommand.installedModel(named: name) != nil {
                    throw ValidationError(
                        "\(name) is installed by `swiftvision setup`, not downloaded, and cannot be removed; only downloaded models can")
                }
                throw ModelManagerError.notDownloaded(name: name)
            }
            try manager.deleteDownloadedModel(model)
            print("removed \(name)")
        }
    }
}
