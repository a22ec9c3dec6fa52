import ArgumentParser
import Foundation
import SwiftVision
import SwiftVisionServer

/// How the commands load their task.
enum CommandTask {
    /// Loads `Task` with `options`. An option out of range is a usage error (exit status 64), as a
    /// malformed one is, naming the option by its flag (`--max-faces`). With `model` set (a custom model,
    /// or "base model"), any other failure is reported for it as an input's failure is (an
    /// `{"error","file"}` line) and the command exits with status 1.
    static func load<Task: VisionTask>(_ options: Task.Options, model: String? = nil, json: Bool) throws -> Task {
        do {
            return try Task(options: options)
        } catch let error as VisionTaskError where error.isInvalidOption {
            throw ValidationError(error.description(namingOption: { "--" + OptionDecoding.kebabCase($0) }))
        } catch let error as ClassificationError where error.isInvalidOption {
            throw ValidationError(error.description)
        } catch {
            guard let model else { throw error }
            try MediaFiles.reportFailure(of: model, error: error, json: json)
            throw ExitCode(1)
        }
    }
}
