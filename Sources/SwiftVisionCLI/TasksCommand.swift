import ArgumentParser
import Foundation
import SwiftVision

struct TasksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks", abstract: "List the tasks with their options, defaults and models.")

    @Flag(help: "Print the listing as one JSON array.")
    var json = false

    func run() throws {
        let registry = TaskRegistry.standard
        if json {
            StandardStream.output.write(try registry.listing() + Data("\n".utf8))
            return
        }
        for entry in registry.entries {
            let options = String(decoding: entry.defaultOptions, as: UTF8.self)
            print("\(entry.descriptor.name): \(entry.descriptor.summary)")
            print("  options \(options)")
            if !entry.descriptor.models.isEmpty { print("  models  \(entry.descriptor.models.joined(separator: ", "))") }
        }
    }
}
