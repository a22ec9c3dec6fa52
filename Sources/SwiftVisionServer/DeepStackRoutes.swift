import Foundation
import Hummingbird
import NIOCore
import SwiftVision

/// DeepStack's HTTP API, so that the tools that already speak it (Home Assistant's integrations, Blue
/// Iris, Agent DVR, Double Take) work with SwiftVision as they are: `POST /v1/vision/detection`,
/// `/v1/vision/face` and `/v1/vision/scene` take a `multipart/form-data` form with the image in the
/// field `image`, optional `min_confidence` (0…1, default 0.4 as DeepStack's) and `api_key` (the
/// service's token, for clients that cannot send a header), and answer DeepStack's shapes:
/// `{"success": true, "predictions": [{"label", "confidence", "x_min", "y_min", "x_max", "y_max"}]}`
/// (faces without `label`), or `{"success": true, "label", "confidence"}` for a scene. Errors keep the
/// service's status codes with `{"success": false, "error": MESSAGE, "code": CODE}`.
///
/// The answers come from the service's own tasks: detection is `objects` (several objects, COCO
/// labels), faces are `faces`, and the scene is `labels`' most confident ImageNet class (DeepStack
/// named Places365 scenes).
enum DeepStackRoutes {
    /// DeepStack's default `min_confidence`.
    static let defaultMinimumConfidence = 0.4

    /// The three endpoints, guarded by `token` when the service has one (as a bearer token or the form's `api_key`).
    static func add(
        to router: Router<ServiceRequestContext>, catalog: TaskCatalog, limiter: RequestLimiter, configuration: ServerConfiguration
    ) {
        let endpoints: [(path: String, task: String, query: [(String, String)])] = [
            ("detection", "objects", [("multiple", "true"), ("classify", "true"), ("max-objects", "100")]),
            ("face", "faces", [("max-faces", "100")]),
            ("scene", "labels", [("max", "1"), ("threshold", "0")]),
        ]
        for endpoint in endpoints {
            router.post("v1/vision/\(endpoint.path)") { request, context in
                await VisionService.instrumented(task: endpoint.task) {
                    do {
                        let admission = try limiter.admit(within: configuration.requestTimeout, client: context.client)
                        let form = try await Form(request, configuration: configuration, on: context.channel)
                        try form.authorize(request, token: configuration.token)
                        let task = try await catalog.task(named: endpoint.task, query: endpoint.query)
                        let (output, timings) = try await admission.answer(task, for: form.image, closing: context.channel)
                        ServerMetrics.record(task: task.name, stages: timings)
                        return VisionService.json(try answer(endpoint.path, output: output, minimumConfidence: form.minimumConfidence))
                    } catch {
                        return failure(APIError.from(error))
                    }
                }
            }
        }
    }

    /// A DeepStack request's form: its image and fields.
    struct Form {
        var image: ImageUpload.File
        var minimumConfidence: Double
        var apiKey: String?

        init(_ request: Request, configuration: ServerConfiguration, on channel: any Channel) async throws {
            let body = try await VisionService.body(of: request, upTo: configuration.maxBodyBytes, on: channel)
            guard
                let parts = try ImageUpload.formParts(
                    of: body, contentType: request.headers[.contentType], maxParts: configuration.maxFormParts)
            else {
                throw APIError(.unsupportedMediaType, "not_a_form", "send a multipart/form-data form with the image in the field image")
            }
            guard let image = parts.first(where: { $0.name == "image" }), !image.data.isEmpty else {
                throw APIError(.badRequest, "image_needed", "the form has no field image")
            }
            self.image = try ImageUpload.File(
                name: "image", data: image.data, maxPixels: min(configuration.maxPixels, configuration.maxRequestPixels))
            let field = { (name: String) in
                parts.first { $0.name == name }.map { String(decoding: $0.data, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
            }
            if let text = field("min_confidence") {
                guard text.utf8.count <= 32, let value = Double(text), (0...1).contains(value) else {
                    throw APIError.badOption("min_confidence takes a number in 0…1, not \(text.prefix(32))")
                }
                minimumConfidence = value
            } else {
                minimumConfidence = DeepStackRoutes.defaultMinimumConfidence
            }
            apiKey = field("api_key")
        }

        /// Lets the request through when the service has no token, or it comes as a bearer token or as `api_key`.
        func authorize(_ request: Request, token: String?) throws {
            guard let token else { return }
            guard TokenMiddleware<ServiceRequestContext>.matches(request.headers[.authorization], "Bearer " + token)
                || TokenMiddleware<ServiceRequestContext>.matches(apiKey, token)
            else {
                var error = APIError(.unauthorized, "unauthorized", "this service needs its token: api_key or Authorization: Bearer TOKEN")
                error.headers[.wwwAuthenticate] = "Bearer realm=\"swiftvision\""
                throw error
            }
        }
    }

    /// DeepStack's answer for `endpoint` from the task's JSON `output`.
    static func answer(_ endpoint: String, output: Data, minimumConfidence: Double) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:]
        var answer: [String: Any] = ["success": true]
        switch endpoint {
        case "detection":
            let objects = object["objects"] as? [[String: Any]] ?? []
            answer["predictions"] = objects.compactMap { found -> [String: Any]? in
                guard let label = (found["labels"] as? [[String: Any]])?.first, let confidence = label["confidence"] as? Double,
                    confidence >= minimumConfidence, let frame = found["frame"] as? [String: Any]
                else { return nil }
                return corners(of: frame).merging(["label": label["text"] ?? "", "confidence": confidence]) { $1 }
            }
        case "face":
            let faces = object["faces"] as? [[String: Any]] ?? []
            answer["predictions"] = faces.compactMap { face -> [String: Any]? in
                guard let confidence = face["confidence"] as? Double, confidence >= minimumConfidence,
                    let box = face["boundingBox"] as? [String: Any]
                else { return nil }
                return corners(of: box).merging(["confidence": confidence]) { $1 }
            }
        default:
            let best = (object["labels"] as? [[String: Any]])?.first
            answer["label"] = best?["text"] ?? "unknown"
            answer["confidence"] = best?["confidence"] ?? 0
        }
        return try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])
    }

    /// DeepStack's whole-pixel corners of a `{"x","y","width","height"}` box.
    static func corners(of box: [String: Any]) -> [String: Any] {
        let value = { (key: String) in box[key] as? Double ?? 0 }
        return [
            "x_min": Int(value("x").rounded()), "y_min": Int(value("y").rounded()),
            "x_max": Int((value("x") + value("width")).rounded()), "y_max": Int((value("y") + value("height")).rounded()),
        ]
    }

    /// `{"success": false, "error", "code"}` with the error's status and headers.
    static func failure(_ error: APIError) -> Response {
        let body = (try? JSONSerialization.data(
            withJSONObject: ["success": false, "error": error.message, "code": error.code], options: [.sortedKeys])) ?? Data()
        var headers = error.headers
        headers[.contentType] = "application/json"
        return Response(status: error.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
