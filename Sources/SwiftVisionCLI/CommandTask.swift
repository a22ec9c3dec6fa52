import ArgumentParser
import Foundation
import SwiftVision
import SwiftVisionServer

/// How the commands load their task.
enum CommandTask {
    /// Loads `Task` with `options`. An option out of range is a usage error (exit status 64), as a
    /// malformed one is. With `model` set (a custom model, or "base model"), any other failure is reported
    /// for it as an input's failure is (an `{"error","file"}` line) and the command exits with status 1.
    static func load<Task: VisionTask>(_ options: Task.Options, model: String? = nil, json: Bool) throws -> Task {
        do {
            return try Task(options: options)
        } catch let error as VisionTaskError where error.isInvalidOption {
            throw ValidationError(flagSpelling(of: error.description, options: options))
        } catch let error as ClassificationError where error.isInvalidOption {
            throw ValidationError(error.description)
        } catch {
            guard let model else { throw error }
            try MediaFiles.reportFailure(of: model, error: error, json: json)
            throw ExitCode(1)
        }
    }

    /// `message` with each option key of `options` that names a flag in camel case (`modelComplexity`)
    /// written as the user typed the flag (`--model-complexity`): the tasks' range checks name their keys.
    static func flagSpelling<Options: Encodable>(of message: String, options: Options) -> String {
        guard let encoded = try? JSONEncoder().encode(options),
            let keys = (try? JSONSerialization.jsonObject(with: encoded)) as? [String: Any]
        else { return message }
        var words = message.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for (index, word) in words.enumerated() where word.contains(where: \.isUppercase) {
            let key = word.hasSuffix(":") || word.hasSuffix(",") ? String(word.dropLast()) : word
            guard keys[key] != nil else { continue }
            words[index] = "--" + OptionDecoding.kebabCase(key) + word.dropFirst(key.count)
        }
        return words.joined(separator: " ")
    }
}
