import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SwiftVision
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionServer

/// Every task endpoint of `GET /v1/tasks` over the bad inputs of the command line's sweep (issue 17): each
/// answered with a JSON error body and the status the README's Service section documents, never a 5xx;
/// extreme but valid images and a missing content type answered with results; and after the sweep the
/// service still answers good photos correctly.
@Suite(.serialized) struct ServiceBadInputSweepTests {
    /// A body, its content type, and the status and error code it must get (nil: 200 with results).
    struct Case {
        var name: String
        var contentType: String?
        var body: Data
        var status: HTTPResponse.Status
        var code: String?
    }

    /// The bad bodies of `BadInputs` and the extreme images, with what each must get.
    static func cases() throws -> [Case] {
        let jpeg = try Samples.data("bus.jpg"), png = try Samples.data("astronaut.png")
        let webp = try VisionImage(data: png).resized(width: 64, height: 64).encoded(fileExtension: ".webp", quality: 101)
        let expected: [String: (HTTPResponse.Status, String)] = [
            "empty.jpg": (.unsupportedMediaType, "not_an_image"), "cut.jpg": (.unprocessableContent, "undecodable_image"),
            "cut.png": (.unprocessableContent, "undecodable_image"), "cut.webp": (.unprocessableContent, "undecodable_image"),
            "text.png": (.unsupportedMediaType, "not_an_image"), "random.mp4": (.unsupportedMediaType, "not_an_image"),
            "bomb.png": (.contentTooLarge, "image_too_large"),
        ]
        var cases = try BadInputs.corruptFiles(jpeg: jpeg, png: png, webp: webp, seed: 17).map { name, data in
            let (status, code) = try #require(expected[name], "no expectation for \(name)")
            let type = name.hasSuffix(".mp4") ? "application/octet-stream" : "image/" + (name.split(separator: ".").last ?? "")
            return Case(name: name, contentType: type.replacingOccurrences(of: "jpg", with: "jpeg"), body: data, status: status, code: code)
        }
        cases.append(Case(name: "damaged.png", contentType: "image/png", body: BadInputs.damagedInTheMiddle(png), status: .unprocessableContent, code: "undecodable_image"))
        cases.append(Case(name: "photo as text/plain", contentType: "text/plain", body: jpeg, status: .unsupportedMediaType, code: "not_an_image"))
        cases.append(Case(name: "photo as image/gif", contentType: "image/gif", body: jpeg, status: .ok, code: nil))
        cases.append(Case(name: "photo without a content type", contentType: nil, body: jpeg, status: .ok, code: nil))
        for (name, data) in try BadInputs.extremeImages(seed: 17) {
            cases.append(Case(name: name, contentType: "image/png", body: data, status: .ok, code: nil))
        }
        return cases
    }

    /// The tasks the service lists, each with the query that makes its request valid (track needs a box).
    static func tasks(_ client: some TestClientProtocol) async throws -> [(name: String, options: [String: Any])] {
        let listing = try await client.execute(uri: "/v1/tasks", method: .get)
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(buffer: listing.body)) as? [[String: Any]])
        return tasks.compactMap { task in (task["name"] as? String).map { ($0, task["options"] as? [String: Any] ?? [:]) } }
    }

    static func uri(_ task: String, _ query: String = "") -> String {
        let base = task == "track" ? "box=2,2,8,8" : ""
        let joined = [base, query].filter { !$0.isEmpty }.joined(separator: "&")
        return "/v1/\(task)" + (joined.isEmpty ? "" : "?" + joined)
    }

    /// Checks that `response` is a JSON error with `status` and `code`, or a 200 with results.
    static func check(_ response: TestResponse, status: HTTPResponse.Status, code: String?, _ what: String) throws {
        let text = String(buffer: response.body)
        #expect(response.status == status, "\(what): \(text.prefix(300))")
        #expect(response.status.code < 500, "\(what): \(text.prefix(300))")
        #expect(response.headers[.contentType] == "application/json", "\(what)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], "\(what): \(text.prefix(300))")
        if let code {
            let error = try #require(object["error"] as? [String: Any], "\(what): \(text.prefix(300))")
            #expect(error["code"] as? String == code && (error["message"] as? String)?.isEmpty == false, "\(what): \(error)")
            #expect(error.count == 2, "\(what): only code and message: \(error)")
        } else {
            #expect(object["error"] == nil && !object.isEmpty, "\(what): \(text.prefix(300))")
        }
    }

    @Test func everyEndpointAnswersEachBadBodyWithItsDocumentedError() async throws {
        let cases = try Self.cases()
        try await EndpointTests.app().test(.router) { client in
            let tasks = try await Self.tasks(client)
            try #require(tasks.count >= 10, "\(tasks.map(\.name))")
            for task in tasks {
                for item in cases {
                    var headers: HTTPFields = [:]
                    if let type = item.contentType { headers[.contentType] = type }
                    let response = try await client.execute(
                        uri: Self.uri(task.name), method: .post, headers: headers, body: ByteBuffer(bytes: item.body))
                    try Self.check(response, status: item.status, code: item.code, "\(task.name) \(item.name)")
                }
            }
            try await Self.goodPhotosStillAnswer(client, tasks: tasks.map(\.name))
        }
    }

    /// A newcomer's first try, `curl http://127.0.0.1:8080/v1/faces` (a GET), reaches an endpoint that exists
    /// but takes POST. Truth: HTTP's semantics (RFC 9110, 15.5.6): 405 with an `Allow` header naming POST,
    /// for every task and the similarity endpoint; a path that is no endpoint stays a 404.
    @Test func aGetToATaskSaysToPost() async throws {
        try await EndpointTests.app().test(.router) { client in
            let tasks = try await Self.tasks(client).map(\.name)
            for name in tasks + ["similarity"] {
                let response = try await client.execute(uri: "/v1/\(name)", method: .get)
                try Self.check(response, status: .methodNotAllowed, code: "method_not_allowed", "GET /v1/\(name)")
                #expect(response.headers[.allow] == "POST", "GET /v1/\(name)")
                #expect(String(buffer: response.body).contains("POST"), "GET /v1/\(name)")
            }
            let nothing = try await client.execute(uri: "/v1/nothing", method: .get)
            try Self.check(nothing, status: .notFound, code: "not_found", "GET /v1/nothing")
            let listing = try await client.execute(uri: "/v1/tasks", method: .get)
            #expect(listing.status == .ok)
        }
    }

    @Test func outOfRangeOptionsAreBadOptions() async throws {
        let photo = try Samples.data("bus.jpg")
        try await EndpointTests.app().test(.router) { client in
            let tasks = try await Self.tasks(client)
            var checked = 0
            for task in tasks {
                let bounded = task.options.filter { key, value in
                    value is NSNumber && ["threshold", "confidence"].contains { key.lowercased().contains($0) }
                }
                for key in bounded.keys.sorted() {
                    for value in ["5", "-1", "nan", "inf", "x"] {
                        let response = try await client.execute(
                            uri: Self.uri(task.name, "\(key)=\(value)"), method: .post, headers: Samples.jpeg, body: ByteBuffer(bytes: photo))
                        try Self.check(response, status: .badRequest, code: "bad_option", "\(task.name) \(key)=\(value)")
                        checked += 1
                    }
                }
            }
            #expect(checked >= 25, "at least five tasks have a bounded option: \(checked) requests")
            for box in ["nan,0,10,10", "0,0,inf,10", "10,10,0,5", "1,2,3", "a,b,c,d"] {
                let response = try await client.execute(
                    uri: "/v1/track?box=\(box)", method: .post, headers: Samples.jpeg, body: ByteBuffer(bytes: photo))
                try Self.check(response, status: .badRequest, code: "bad_option", "track box=\(box)")
            }
            let labelCases = ["allow=cat&deny=dog", "allow=no%20such%20class", "max=0", "threshold=2"]
            for query in labelCases {
                let response = try await client.execute(
                    uri: "/v1/labels?\(query)", method: .post, headers: Samples.jpeg, body: ByteBuffer(bytes: photo))
                try Self.check(response, status: .badRequest, code: "bad_option", "labels \(query)")
            }
            try await Self.goodPhotosStillAnswer(client, tasks: tasks.map(\.name))
        }
    }

    /// Every task answers bus.jpg with results, and faces finds zidane.jpg's two faces.
    static func goodPhotosStillAnswer(_ client: some TestClientProtocol, tasks: [String]) async throws {
        for task in tasks {
            let response = try await client.execute(uri: uri(task), method: .post, headers: Samples.jpeg, body: try Samples.body("bus.jpg"))
            try check(response, status: .ok, code: nil, "\(task) on bus.jpg after the sweep")
        }
        let faces = try await client.execute(uri: "/v1/faces", method: .post, headers: Samples.jpeg, body: try Samples.body("zidane.jpg"))
        #expect((try Samples.json(faces)["faces"] as? [[String: Any]])?.count == 2, "zidane.jpg shows two faces")
    }

    /// The labeler's errors split by `ClassificationError.isInvalidOption`: the caller's options are 400
    /// `bad_option`; the general labels missing or unreadable are the installation's fault, 503 `not_installed`.
    @Test(arguments: [
        ClassificationError.invalidConfidenceThreshold(5), .invalidMaxResultCount(0), .conflictingCategoryLists,
        .categoryListsNeedLabels, .unknownCategory("x"), .generalLabelsNeedBaseModel,
        .generalLabelsNotInstalled(path: "/nowhere/general_labels.json"), .generalLabelsUnreadable(path: "/x.json", reason: "garbled"),
    ])
    func labelerErrorsAreClassifiedOnce(error: ClassificationError) throws {
        let answer = APIError.from(error)
        switch error {
        case .generalLabelsNotInstalled, .generalLabelsUnreadable:
            #expect(answer.status == .serviceUnavailable && answer.code == "not_installed")
        default:
            #expect(answer.status == .badRequest && answer.code == "bad_option")
        }
        #expect(answer.message == error.description)
    }

    /// Tesseract's library missing (it is loaded when text is first read) is the installation's fault too.
    @Test func missingTesseractIsNotInstalled() {
        let error = VisionTaskError.tesseractNotInstalled(library: "libtesseract.so.5", reason: "cannot open shared object file")
        let answer = APIError.from(error)
        #expect(answer.status == .serviceUnavailable && answer.code == "not_installed")
        #expect(answer.message == error.description)
    }
}
