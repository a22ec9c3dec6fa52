import Foundation
import Testing

extension Fixtures {
    /// The standard output of the reference script `Tests/Python/Reference/<script>` run with the tools venv's
    /// Python (MediaPipe, ai-edge-litert, OpenCV); a failed requirement when it fails.
    public static func referenceOutput(_ script: String, _ arguments: [String]) throws -> Data {
        let python = cache.root.appendingPathComponent("tools-venv/bin/python")
        let path = packageRoot.appendingPathComponent("Tests/Python/Reference").appendingPathComponent(script)
        let run = try run(python, [path.path] + arguments)
        try #require(run.status == 0, "\(script) failed (run `make test` to set up \(python.path)): \(run.errors)")
        return Data(run.output.utf8)
    }
}
