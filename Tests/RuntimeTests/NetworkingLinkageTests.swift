import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionRuntime

/// The command-line tool starts without FoundationNetworking and libcurl (and the TLS, HTTP/2, SSH and
/// LDAP libraries libcurl links): it loads libcurl with dlopen on its first download.
@Suite struct NetworkingLinkageTests {
    static let executable = Fixtures.executable

    @Test func theToolNeedsNeitherFoundationNetworkingNorLibcurl() throws {
        // readelf lists what the binary names itself; ldd what the loader maps, transitively.
        let needed = try Fixtures.neededLibraries(of: Self.executable).joined(separator: "\n")
        let mapped = try Fixtures.mappedLibraries(of: Self.executable)
        #expect(needed.contains("libFoundation.so") && mapped.contains("libFoundation.so"))
        for listing in [needed, mapped] {
            #expect(!listing.contains("libFoundationNetworking") && !listing.contains("libcurl"), "\(listing)")
        }
    }

    @Test func theToolStillDownloadsAModel() throws {
        let served = try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite")
        let server = try TestModelServer(serving: served)
        let cache = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let checksum = try AssetInstaller.sha256(of: served)
        let run = try Fixtures.run(
            Self.executable, ["models", "download", "--json", "moved", server.url("/moved/model.tflite").absoluteString, "--sha256", checksum],
            environment: ["SWIFTVISION_CACHE": cache.path, "SWIFTVISION_LITERT_LIBRARY": Fixtures.cache.runtimeLibrary.path])
        #expect(run.status == 0, "\(run.errors)")
        let path = try #require(Fixtures.jsonLines(run.output).first?["file"] as? String)
        #expect(try AssetInstaller.sha256(of: URL(fileURLWithPath: path)) == checksum)
    }

    @Test func aMissingLibcurlIsAClearError() throws {
        let error = try #require(throws: ModelManagerError.self) { try CurlLibrary(name: "libcurl-that-is-not-there.so.4") }
        #expect(error.description.contains("install Debian's libcurl4 package"), "\(error)")
    }
}
