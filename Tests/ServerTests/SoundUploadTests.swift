import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SwiftVisionTestSupport
import Testing

/// An MP4 of sound alone (a voice memo, a song saved as `.mp4`) sent to the service as an image is answered 415
/// with the reason that it holds sound only, as the command line says of it, whether the movie box comes after
/// the sound (ffmpeg's default) or first; an MP4 with a video track is not called sound. Before, both were
/// "not an image in a supported format". The files are written by Debian's `ffmpeg` command and the truth of
/// what each holds is `ffprobe`'s list of its streams (Tests/Python/Reference/audio_mp4.py).
///
/// The requests go through the router, not a socket: `swift test` runs every suite of this process at once
/// on Swift's cooperative threads (two on a 2-core machine), which synchronous tests hold for minutes, and
/// the live test client gives up on an answer after 20 s of that. The same files are sent over a real
/// connection to `swiftvision serve` by test_service_attacks.py.
@Suite struct SoundUploadTests {
    @Test func aSoundOnlyMP4IsRefusedAsSound() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: try Fixtures.referenceOutput("audio_mp4.py", [folder.path])) as? [[String: Any]])
        let streams = Dictionary(uniqueKeysWithValues: manifest.map { ($0["file"] as? String ?? "", $0["streams"] as? [String] ?? []) })
        try #require(streams == ["tone.mp4": ["audio"], "tone-faststart.mp4": ["audio"], "clip.mp4": ["video", "audio"]], "\(manifest)")
        try await EndpointTests.app().test(.router) { client in
            for (file, kinds) in streams {
                let body = ByteBuffer(bytes: try Data(contentsOf: folder.appendingPathComponent(file)))
                for (uri, type) in [("/v1/labels", "application/octet-stream"), ("/v1/faces", "image/jpeg")] {
                    let response = try await client.execute(uri: uri, method: .post, headers: [.contentType: type], body: body)
                    #expect(response.status == .unsupportedMediaType, "\(file) to \(uri)")
                    let error = try #require(try Samples.json(response)["error"] as? [String: Any], "\(file)")
                    #expect(error["code"] as? String == "not_an_image")
                    let message = error["message"] as? String ?? ""
                    #expect(message.contains("holds sound only") == !kinds.contains("video"), "\(file): \(message)")
                }
            }
        }
    }
}
