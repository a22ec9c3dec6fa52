import Foundation
import Hummingbird
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A bare Hummingbird 2 server in the bench's process, `POST /echo`: collects the request's body (within
/// the service's body limit) and answers a fixed JSON body, with no middleware, no admission and no
/// work. Its latency on the same body and answer bytes is the floor under the service's own HTTP work:
/// loopback, Hummingbird's and SwiftNIO's parsing and writing, and the bench's client.
final class HummingbirdEcho: Sendable {
    let port: Int
    private let serving: Task<Void, any Error>

    /// Listens on 127.0.0.1:`port`, answering `answer` to every POST /echo.
    init(port: Int, answer: Data) throws {
        self.port = port
        let router = Router()
        router.post("echo") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 25 * 1024 * 1024)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
        }
        var logger = Logger(label: "bench.echo")
        logger.logLevel = .critical
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)), logger: logger)
        serving = Task.detached { try await application.runService(gracefulShutdownSignals: []) }
        for _ in 0..<100 {
            let probe = HTTPLoad.connect(port: port)
            if probe >= 0 {
                close(probe)
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        serving.cancel()
        throw ServerNotStarted(port: port)
    }

    /// Stops listening.
    func stop() {
        serving.cancel()
    }
}
