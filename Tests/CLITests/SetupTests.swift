import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// `swiftvision setup` on a cache that an earlier, interrupted run left behind.
@Suite struct SetupTests {
    @Test func aDamagedPackageInTheDownloadsIsDownloadedAgain() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Fixtures.executable.path), "run `swift build` first")
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = SwiftVisionCache(root: folder.appendingPathComponent("cache"))
        let fileManager = FileManager.default
        // Every file is in place but those that come from the pyzbar wheel, and that wheel is cut in half.
        let fromPyzbar = Asset.all.filter { $0.source == .pyzbar }
        try #require(!fromPyzbar.isEmpty)
        for asset in Asset.all where asset.source != .pyzbar {
            let target = cache.root.appendingPathComponent(asset.destination)
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.place(Fixtures.cache.root.appendingPathComponent(asset.destination), at: target)
        }
        let wheelName = try #require(try fileManager.contentsOfDirectory(atPath: Fixtures.cache.downloads.path)
            .first { $0.hasPrefix("pyzbar-0.1.9-") && $0.hasSuffix(".whl") })
        let whole = try Data(contentsOf: Fixtures.cache.downloads.appendingPathComponent(wheelName))
        try fileManager.createDirectory(at: cache.downloads, withIntermediateDirectories: true)
        try whole.prefix(whole.count / 2).write(to: cache.downloads.appendingPathComponent(wheelName))
        for name in try fileManager.contentsOfDirectory(atPath: Fixtures.cache.downloads.path) where name.hasPrefix("darknet_") {
            try Self.place(Fixtures.cache.downloads.appendingPathComponent(name), at: cache.downloads.appendingPathComponent(name))
        }
        // pip finds the wheel in a local folder instead of the index, so the test needs no network.
        let index = folder.appendingPathComponent("index")
        try fileManager.createDirectory(at: index, withIntermediateDirectories: true)
        try whole.write(to: index.appendingPathComponent(wheelName))

        let run = try Fixtures.run(Fixtures.executable, ["setup", "--samples"], environment: [
            "SWIFTVISION_CACHE": cache.root.path, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": index.path,
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("\(wheelName) in the cache is damaged; downloading it again"))
        let installer = AssetInstaller(cache: cache)
        #expect(fromPyzbar.allSatisfy(installer.isInstalled))
        #expect(try Data(contentsOf: cache.downloads.appendingPathComponent(wheelName)) == whole)
    }

    /// A hard link to `file` at `target`, or a copy where the two lie on different file systems.
    static func place(_ file: URL, at target: URL) throws {
        do {
            try FileManager.default.linkItem(at: file, to: target)
        } catch {
            try FileManager.default.copyItem(at: file, to: target)
        }
    }
}
