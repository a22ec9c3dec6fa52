import Foundation
import SwiftVision

/// Turns request options — query parameters with the command line's names (`min-aspect` or
/// `minAspect`), or a JSON object from a stream's text message — into a task's Codable options.
package enum OptionDecoding {
    /// Options no client may set: the service loads only the models it was installed with, and its
    /// threads are the server's to choose (`--threads`).
    static let refused: Set<String> = ["model", "detector", "threads"]

    /// The largest timestamp a stream message may carry, in milliseconds: 2⁵³, the largest integer a JSON
    /// number holds exactly (some 285,000 years).
    static let largestTimestamp = 9_007_199_254_740_992.0

    /// A stream message's `timestampMs`: a whole number of milliseconds in 0…2⁵³.
    static func timestamp(_ value: JSONValue) throws -> Int {
        guard case .number(let number) = value, number.isFinite, number == number.rounded(), (0...largestTimestamp).contains(number)
        else {
            throw APIError.badOption("timestampMs must be a whole number of milliseconds in 0…\(Int(largestTimestamp))")
        }
        return Int(number)
    }

    /// `type`'s options: its `defaults` (the registry's JSON of them; encoded here when nil) overlaid
    /// with `query` and then `overrides`.
    static func options<Job: VisionTask>(
        for type: Job.Type, defaults: Data? = nil, query: [(String, String)], overrides: [String: JSONValue] = [:],
        threads: Int?
    ) throws -> Job.Options {
        let defaults = try defaults ?? JSONEncoder().encode(Job.defaultOptions)
        let defaultObject = try JSONDecoder().decode([String: JSONValue].self, from: defaults)
        var object = defaultObject
        var given: Set<String> = []
        for (name, text) in query where name != "token" {
            let key = camelCase(name)
            if key == "box" {
                object["boxes"] = .array((object["boxes"]?.arrayValue ?? []) + [try box(text)])
                given.insert("boxes")
                continue
            }
            object[key] = try value(text, like: object[key], option: name)
            given.insert(key)
        }
        for (key, value) in overrides {
            object[key] = value
            given.insert(key)
        }
        let spelling = { (key: String) in name(of: key, query: query, overrides: overrides) }
        if let refusedKey = given.sorted().first(where: refused.contains) {
            let reason = refusedKey == "threads" ? "the server sets its threads (--threads)" : "the service runs its installed models"
            throw APIError.badOption("the option \(spelling(refusedKey)) is not accepted over HTTP: \(reason)")
        }
        // Tasks without a `threads` option ignore the key when decoding.
        if let threads, !given.contains("threads") { object["threads"] = .number(Double(threads)) }
        let decoded: Job.Options
        do {
            decoded = try JSONDecoder().decode(Job.Options.self, from: JSONEncoder().encode(object))
        } catch let error as DecodingError {
            let culprit = given.sorted().first { key in
                var alone = defaultObject
                alone[key] = object[key]
                return (try? JSONDecoder().decode(Job.Options.self, from: JSONEncoder().encode(alone))) == nil
            }
            throw APIError.badOption(
                culprit.flatMap { key in object[key].map { refusal(of: $0, for: spelling(key), default: defaultObject[key]) } }
                    ?? describe(error))
        }
        let known = Set(try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(decoded)).keys)
        if let unknown = given.subtracting(known).sorted().first {
            let names = known.sorted().joined(separator: ", ")
            throw APIError.badOption("\(Job.descriptor.name) has no option \(spelling(unknown)); its options: \(names)")
        }
        return decoded
    }

    /// How the client named option `key` (for messages): as written in `query` (`max-faces` or `maxFaces`),
    /// or the key itself where `overrides` (a stream's options message) set it or nothing names it.
    static func name(of key: String, query: [(String, String)], overrides: [String: JSONValue]) -> String {
        guard overrides[key] == nil else { return key }
        return query.last { camelCase($0.0) == key }?.0 ?? key
    }

    /// `minAspect` → `min-aspect`, the command line's name.
    package static func kebabCase(_ key: String) -> String {
        key.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
    }

    /// `min-aspect` → `minAspect`.
    static func camelCase(_ name: String) -> String {
        let parts = name.split(separator: "-")
        guard let first = parts.first else { return name }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `x,y,width,height` as a box: exactly four finite numbers, positive width and height.
    static func box(_ text: String) throws -> JSONValue {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        let largest = TrackTask.Options.largestCoordinate
        guard parts.count == 4, let values = parts as? [Double], values.allSatisfy({ $0.isFinite && abs($0) <= largest }),
            values[2] > 0, values[3] > 0
        else {
            throw APIError.badOption(
                "box \(text.prefix(100)) is not x,y,width,height: four numbers within ±\(Int(largest)) with a positive width and height")
        }
        return .object(["x": .number(values[0]), "y": .number(values[1]), "width": .number(values[2]), "height": .number(values[3])])
    }

    /// The query text `text` as a JSON value of the kind of `existing` (the default), or guessed.
    static func value(_ text: String, like existing: JSONValue?, option: String) throws -> JSONValue {
        switch existing {
        case .bool:
            switch text.lowercased() {
            case "", "1", "true", "yes", "on": return .bool(true)
            case "0", "false", "no", "off": return .bool(false)
            default: throw APIError.badOption("\(option) takes true or false, not \(text)")
            }
        case .number:
            guard text.utf8.count <= 32, let number = Double(text), number.isFinite else {
                throw APIError.badOption("\(option) takes a number, not \(text.prefix(32))")
            }
            return .number(number)
        case .string:
            return .string(text)
        case .array:
            if text.hasPrefix("["), let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) { return parsed }
            return .array(text.split(separator: ",").map { .string(String($0)) })
        case .object, .null, nil:
            if let number = Double(text), number.isFinite { return .number(number) }
            if ["true", "false"].contains(text.lowercased()) { return .bool(text.lowercased() == "true") }
            if text.hasPrefix("[") || text.hasPrefix("{"), let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) {
                return parsed
            }
            return .string(text)
        }
    }

    /// Why option `key` (named as the client wrote it), whose default is `defaultValue`, cannot take `value`: for a numeric option, a
    /// fraction or a number beyond 2⁶³ where it takes whole numbers (`maxFaces=2.5`); otherwise a value that
    /// is not one of its choices (`level=bogus`). The decoder's own messages name neither the option (for
    /// numbers) nor anything but Swift's type names.
    static func refusal(of value: JSONValue, for key: String, default defaultValue: JSONValue?) -> String {
        switch value {
        case .number(let number) where defaultValue.map({ if case .number = $0 { true } else { false } }) == true:
            let text = number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            return "\(key) takes a whole number" + (abs(number) < 0x1p63 ? "" : " below 2⁶³") + ", not \(text)"
        case .string(let text):
            return "\(key) cannot take \(text.prefix(100))"
        case .number, .bool, .array, .object, .null:
            let text = (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "this value"
            return "\(key) cannot take \(text.prefix(100))"
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "option \(path): \(context.debugDescription)"
        case .keyNotFound(let key, _):
            return "option \(key.stringValue) is missing"
        @unknown default:
            return "the options are not valid"
        }
    }
}

/// Any JSON value, for merging options.
enum JSONValue: Codable, Sendable, Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { try container.encode(Int(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    var arrayValue: [JSONValue]? {
        if case .array(let values) = self { values } else { nil }
    }
}
