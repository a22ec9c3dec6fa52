import Foundation
import SwiftVision

/// How the `index` commands print their reports.
enum AnalysisOutput {
    /// Prints `report` as a JSON line, or as the text lines `describe` makes of it.
    static func print<Report: Encodable>(_ report: Report, json: Bool, describe: (Report) -> [String]) throws {
        if json {
            try JSONLines.print(report)
        } else {
            describe(report).forEach { Swift.print($0) }
        }
    }
}
