import ArgumentParser
import Foundation
import Logging
import SwiftVisionServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve every task over HTTP, live streams over WebSocket, and a web page that runs them on the webcam.",
        discussion: """
            POST /v1/{task} with an image body (options as query parameters, with the commands' names); \
            GET /v1/stream/{task} upgrades to a live-stream WebSocket; GET /v1/tasks lists tasks and options; \
            GET / is the web page; GET /healthz and GET /metrics (Prometheus) are for operations. \
            SIGTERM or Ctrl-C stops it gracefully.
            """)

    @Option(help: "The address to listen on; loopback unless you say otherwise.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port.")
    var port = 8080

    @Option(help: "Require this token: Authorization: Bearer TOKEN (or ?token=TOKEN).")
    var token: String?

    @Option(help: "Inferences run at once (default: the number of cores); more requests wait.")
    var maxConcurrent: Int?

    @Option(help: "Threads for each inference (default: each task's).")
    var threads: Int?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must lie in 0…65535") }
        if let maxConcurrent, maxConcurrent < 1 { throw ValidationError("--max-concurrent must be at least 1") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.token = token
        configuration.threads = threads
        if let maxConcurrent { configuration.maxConcurrent = maxConcurrent }
        var logger = Logger(label: "swiftvision.server")
        logger.logLevel = logging.verbose ? .debug : .info
        if !configuration.isLoopback && token == nil {
            logger.warning("listening on \(host) without --token: anyone who can reach this address can use the service")
        }
        try await VisionService.makeApplication(configuration: configuration, logger: logger).runService()
    }
}
