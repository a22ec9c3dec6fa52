import Foundation
import SwiftVision

/// The service's OpenAPI 3.1 description, served at `GET /openapi.json`: every endpoint, each task's
/// options as query parameters (from the registry, with their defaults), the request bodies, and the
/// errors with their JSON shape. Made from the same registry the routes serve, so a task added there is
/// described here.
enum OpenAPIDocument {
    /// The statuses any request that runs work may get besides 200, with what they mean.
    static let workErrors: [(Int, String)] = [
        (400, "bad option, malformed request or form"), (401, "missing or wrong token"), (403, "another site's Origin"),
        (404, "unknown task"), (408, "headers or body too slow"), (413, "body or images too large"),
        (415, "not an image"), (421, "a Host the service does not answer to"), (422, "undecodable image"),
        (503, "busy, not installed, or too many connections or streams"), (504, "past the request's deadline"),
    ]

    /// The document as JSON.
    static func json(registry: TaskRegistry) throws -> Data {
        try JSONSerialization.data(withJSONObject: document(registry: registry), options: [.sortedKeys, .withoutEscapingSlashes])
    }

    static func document(registry: TaskRegistry) throws -> [String: Any] {
        var paths: [String: Any] = [:]
        for entry in registry.entries {
            let name = entry.descriptor.name
            let defaults = try JSONDecoder().decode([String: JSONValue].self, from: entry.defaultOptions)
            paths["/v1/\(name)"] = [
                "post": [
                    "operationId": "run_\(name)", "summary": entry.descriptor.summary,
                    "parameters": parameters(defaults: defaults, task: name), "requestBody": imageBody(files: 1),
                    "responses": stagedResponses(
                        responses(ok: "the task's JSON output, as `swiftvision` prints with --json", schema: ["type": "object"])),
                ]
            ]
        }
        paths["/v1/similarity"] = [
            "post": [
                "operationId": "similarity", "summary": "Cosine similarity and feature-print distance of two images",
                "requestBody": imageBody(files: 2),
                "responses": stagedResponses(responses(
                    ok: "the similarity",
                    schema: [
                        "type": "object", "required": ["cosineSimilarity", "featurePrintDistance"],
                        "properties": ["cosineSimilarity": ["type": "number"], "featurePrintDistance": ["type": "number"]],
                    ])),
            ]
        ]
        for (path, summary) in [
            ("detection", "DeepStack's object detection"), ("face", "DeepStack's face detection"), ("scene", "DeepStack's scene"),
        ] {
            paths["/v1/vision/\(path)"] = ["post": deepStack(path, summary: summary)]
        }
        let collection: [String: Any] = ["name": "collection", "in": "path", "required": true, "schema": ["type": "string"]]
        var made = responses(ok: "", schema: [:])
        made["200"] = nil
        made["201"] = jsonResponse("the new, empty collection", ["type": "object", "required": ["name", "items"]])
        made["409"] = errorResponse("a collection of that name exists")
        paths["/v1/collections"] = [
            "get": [
                "operationId": "collections", "summary": "The collections with their item and failure counts",
                "responses": responses(ok: "the collections", schema: ["type": "array", "items": ["type": "object"]]),
            ],
            "post": [
                "operationId": "make_collection", "summary": "Make an empty collection",
                "requestBody": [
                    "required": true,
                    "content": [
                        "application/json": [
                            "schema": [
                                "type": "object", "required": ["name"], "additionalProperties": false,
                                "properties": ["name": ["type": "string", "minLength": 1, "maxLength": 200]],
                            ]
                        ]
                    ],
                ],
                "responses": made,
            ],
        ]
        paths["/v1/collections/{collection}/items"] = [
            "post": [
                "operationId": "add_item", "summary": "Analyse one image and add it to the collection (made when new)",
                "parameters": [
                    collection,
                    [
                        "name": "tasks", "in": "query", "required": false,
                        "schema": ["type": "string", "default": "labels,objects,faces,embeddings"],
                    ],
                    [
                        "name": "source", "in": "query", "required": false,
                        "schema": ["type": "string", "minLength": 1, "maxLength": 500, "default": "upload"],
                    ],
                ],
                "requestBody": imageBody(files: 1),
                "responses": stagedResponses(responses(ok: "the item (201 when added)", schema: ["type": "object"])
                    .merging(["201": jsonResponse("the item, added", ["type": "object", "required": ["added", "item"]])]) { $1 }),
            ]
        ]
        let item: [String: Any] = ["name": "id", "in": "path", "required": true, "schema": ["type": "integer"]]
        var removed = responses(ok: "", schema: [:])
        removed["200"] = nil
        removed["204"] = ["description": "removed, with its analyses, embedding and thumbnail"]
        paths["/v1/collections/{collection}/items/{id}"] = [
            "get": [
                "operationId": "item", "summary": "One item of the collection",
                "parameters": [collection, item],
                "responses": responses(ok: "the item", schema: ["type": "object"]),
            ],
            "delete": [
                "operationId": "remove_item", "summary": "Remove an item from the collection",
                "parameters": [collection, item], "responses": removed,
            ],
        ]
        var thumbnail = responses(ok: "", schema: [:])
        thumbnail["200"] = [
            "description": "the upright picture, at most 256 pixels a side",
            "content": ["image/jpeg": ["schema": ["type": "string", "format": "binary"]]],
        ]
        paths["/v1/collections/{collection}/items/{id}/thumbnail"] = [
            "get": [
                "operationId": "thumbnail", "summary": "An item's thumbnail (JPEG)",
                "parameters": [collection, item], "responses": thumbnail,
            ]
        ]
        var searchBody = imageBody(files: 1)
        var searchContent = searchBody["content"] as? [String: Any] ?? [:]
        searchContent["application/json"] = [
            "schema": [
                "type": "object", "additionalProperties": false,
                "properties": [
                    "item": ["type": "integer"], "labels": ["type": "array", "items": ["type": "string"]],
                    "noLabels": ["type": "array", "items": ["type": "string"]], "text": ["type": "string"],
                    "faces": ["type": "string"], "barcode": ["type": "string"], "k": ["type": "integer", "minimum": 1, "maximum": 1000],
                    "approximate": ["type": "boolean"],
                ],
            ]
        ]
        searchBody["content"] = searchContent
        paths["/v1/collections/{collection}/search"] = [
            "post": [
                "operationId": "search", "summary": "Items like an image, or matching filters, best first",
                "parameters": [
                    collection, ["name": "k", "in": "query", "required": false, "schema": ["type": "integer"]],
                    ["name": "approximate", "in": "query", "required": false, "schema": ["type": "boolean"]],
                ],
                "requestBody": searchBody,
                "responses": stagedResponses(responses(ok: "the hits", schema: ["type": "object", "required": ["hits"]])),
            ]
        ]
        paths["/v1/collections/{collection}/duplicates"] = [
            "get": [
                "operationId": "duplicates", "summary": "Groups of near-duplicate items",
                "parameters": [collection, ["name": "threshold", "in": "query", "required": false, "schema": ["type": "number"]]],
                "responses": responses(ok: "the groups", schema: ["type": "array"]),
            ]
        ]
        paths["/v1/tasks"] = [
            "get": [
                "operationId": "tasks", "summary": "Every task with its options, defaults and models",
                "responses": responses(ok: "the tasks", schema: ["type": "array", "items": taskSchema], errors: [401]),
            ]
        ]
        paths["/healthz"] = [
            "get": [
                "operationId": "health", "summary": "Whether every task's models are installed", "security": [],
                "responses": [
                    "200": jsonResponse("installed", ["type": "object", "required": ["status"], "properties": ["status": ["const": "ok"]]]),
                    "503": jsonResponse("models missing", ["type": "object", "required": ["status", "missing"]]),
                ],
            ]
        ]
        paths["/metrics"] = [
            "get": [
                "operationId": "metrics", "summary": "Prometheus metrics",
                "responses": [
                    "200": ["description": "the text exposition", "content": ["text/plain": ["schema": ["type": "string"]]]],
                    "401": errorResponse("missing or wrong token"),
                ],
            ]
        ]
        paths["/v1/stream/{task}"] = [
            "get": [
                "operationId": "stream", "summary": "A live-stream WebSocket (Upgrade: websocket): JPEG frames in, results out",
                "parameters": [["name": "task", "in": "path", "required": true, "schema": ["type": "string"]]],
                "responses": [
                    "101": ["description": "switching to the WebSocket protocol"],
                    "400": errorResponse("bad option"), "401": errorResponse("missing or wrong token"),
                    "403": errorResponse("another site's Origin"), "404": errorResponse("unknown task"),
                    "426": errorResponse("not a WebSocket upgrade"), "503": errorResponse("too many streams"),
                ],
            ]
        ]
        paths.merge(sourcePaths()) { $1 }
        paths.merge(modelPaths()) { $1 }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "SwiftVision", "version": "1",
                "description": "On-device computer vision over HTTP. Limits and the threat model: docs/security.md.",
            ],
            "paths": paths,
            "components": [
                "schemas": [
                    "Source": source, "Event": event,
                    "Error": [
                        "type": "object", "required": ["error"],
                        "properties": [
                            "error": [
                                "type": "object", "required": ["code", "message"],
                                "properties": ["code": ["type": "string"], "message": ["type": "string"]],
                            ]
                        ],
                    ]
                ],
                "securitySchemes": ["token": ["type": "http", "scheme": "bearer"]],
            ],
            "security": [["token": [String]()], [String: Any]()],
        ]
    }

    /// A task as `GET /v1/tasks` lists it: its descriptor and its default options.
    static var taskSchema: [String: Any] {
        let strings: [String: Any] = ["type": "array", "items": ["type": "string"]]
        return [
            "type": "object",
            "required": ["name", "title", "summary", "tracksAcrossFrames", "models", "hiddenOptions", "bones", "options"],
            "properties": [
                "name": ["type": "string"], "title": ["type": "string", "description": "the task's name for people"],
                "summary": ["type": "string"], "tracksAcrossFrames": ["type": "boolean"], "models": strings,
                "hiddenOptions": strings.merging(["description": "options a form leaves at their defaults"]) { $1 },
                "bones": [
                    "type": "array", "description": "the skeleton: pairs of landmark indices (pose, hands)",
                    "items": ["type": "array", "items": ["type": "integer", "minimum": 0], "minItems": 2, "maxItems": 2],
                ],
                "options": ["type": "object", "description": "every option with a default, and that default"],
            ],
        ]
    }

    /// A source as `POST /v1/sources` takes it.
    static var sourceRequest: [String: Any] {
        [
            "type": "object", "required": ["url", "task"], "additionalProperties": false,
            "properties": [
                "url": [
                    "type": "string", "maxLength": 2048,
                    "description": "file:///… under --source-root, rtsp://… from a host --allow-camera-host names, or camera:N (0…63)",
                ],
                "task": ["type": "string"], "options": ["type": "object", "description": "the task's options, as in a stream's text message"],
                "fps": ["type": "number", "minimum": 0.1, "maximum": 60, "default": 5], "loop": ["type": "boolean", "default": false],
                "match": [
                    "type": "array", "minItems": 1, "maxItems": 16, "items": ["type": "string", "minLength": 1, "maxLength": 100],
                    "description": "a text source's phrases, each a text.matched event when it appears",
                ],
                "webhook": [
                    "type": "object", "required": ["url", "secret"], "additionalProperties": false,
                    "properties": [
                        "url": ["type": "string", "description": "http://, to a host the operator allows (--allow-webhook)"],
                        "secret": ["type": "string", "minLength": 16, "maxLength": 256],
                    ],
                ],
            ],
        ]
    }

    /// A source as the service shows it: what it is (without the webhook's secret) and its counters.
    static var source: [String: Any] {
        [
            "type": "object", "required": ["id", "url", "task", "options", "fps", "loop", "state", "framesIn", "framesOut", "framesDropped"],
            "properties": [
                "id": ["type": "string"], "url": ["type": "string"], "task": ["type": "string"], "options": ["type": "object"],
                "fps": ["type": "number"], "loop": ["type": "boolean"], "match": ["type": "array", "items": ["type": "string"]],
                "webhook": ["type": "object", "properties": ["url": ["type": "string"]]],
                "state": ["enum": ["starting", "running", "reconnecting", "ended", "failed", "stopped"]],
                "framesIn": ["type": "integer"], "framesOut": ["type": "integer"], "framesDropped": ["type": "integer"],
                "fpsIn": ["type": "number"], "fpsOut": ["type": "number"], "reconnects": ["type": "integer"],
                "events": ["type": "integer"], "lastError": ["type": "string"], "lastFrameMs": ["type": "integer"],
            ],
        ]
    }

    /// An event, as webhooks and the event stream carry it.
    static var event: [String: Any] {
        [
            "type": "object", "required": ["id", "type", "source", "timestampMs"],
            "properties": [
                "id": ["type": "string"], "type": ["enum": ["object.entered", "object.left", "face.appeared", "face.left", "barcode.read"]],
                "source": ["type": "string"], "timestampMs": ["type": "integer"], "trackingID": ["type": "integer"],
                "label": ["type": "string"], "value": ["type": "string"], "firstSeenMs": ["type": "integer"], "lastSeenMs": ["type": "integer"],
                "box": [
                    "type": "object",
                    "properties": ["x": ["type": "number"], "y": ["type": "number"], "width": ["type": "number"], "height": ["type": "number"]],
                ],
            ],
        ]
    }

    /// `/v1/sources`, `/v1/sources/{id}` and `/v1/sources/{id}/events`.
    static func sourcePaths() -> [String: Any] {
        let one: [String: Any] = ["$ref": "#/components/schemas/Source"]
        let id: [[String: Any]] = [["name": "id", "in": "path", "required": true, "schema": ["type": "string"]]]
        let common: [String: Any] = [
            "400": errorResponse("a path with control characters"), "401": errorResponse("missing or wrong token"),
            "403": errorResponse("sources not enabled (--sources), or another site's Origin"),
        ]
        let unknown = errorResponse("no such source")
        return [
            "/v1/sources": [
                "post": [
                    "operationId": "add_source", "summary": "Run a file, RTSP stream or camera through a task, with events and a webhook",
                    "requestBody": ["required": true, "content": ["application/json": ["schema": sourceRequest]]],
                    "responses": common.merging([
                        "201": jsonResponse("the source, started", one),
                        "400": errorResponse("bad field, URL, option or webhook"),
                        "404": errorResponse("unknown task"), "413": errorResponse("body over 64 kB"),
                        "503": errorResponse("too many sources (--max-sources)"),
                    ]) { $1 },
                ],
                "get": [
                    "operationId": "sources", "summary": "Every source with its state and counters",
                    "responses": common.merging(["200": jsonResponse("the sources", ["type": "array", "items": one])]) { $1 },
                ],
            ],
            "/v1/sources/{id}": [
                "get": [
                    "operationId": "source", "summary": "One source with its state and counters", "parameters": id,
                    "responses": common.merging(["200": jsonResponse("the source", one), "404": unknown]) { $1 },
                ],
                "delete": [
                    "operationId": "remove_source", "summary": "Stop a source and forget it", "parameters": id,
                    "responses": common.merging(["204": ["description": "stopped"], "404": unknown]) { $1 },
                ],
            ],
            "/v1/sources/{id}/events": [
                "get": [
                    "operationId": "source_events", "summary": "The source's events as server-sent events", "parameters": id,
                    "responses": common.merging([
                        "200": [
                            "description": "`event: TYPE`, `id: ID` and `data: EVENT` (an Event's JSON) for each event",
                            "content": ["text/event-stream": ["schema": ["type": "string"]]],
                        ],
                        "404": unknown, "503": errorResponse("too many listeners of this source"),
                    ]) { $1 },
                ]
            ],
        ]
    }

    /// The query parameters of a task: its options with their types and defaults. Options no client may
    /// set are left out; `track` takes seed boxes as repeated `box=x,y,width,height`.
    static func parameters(defaults: [String: JSONValue], task: String) -> [[String: Any]] {
        var parameters: [[String: Any]] = []
        for (key, value) in defaults.sorted(by: { $0.key < $1.key }) where !OptionDecoding.refused.contains(key) && key != "boxes" {
            let schema: [String: Any]
            switch value {
            case .bool(let flag): schema = ["type": "boolean", "default": flag]
            case .number(let number): schema = ["type": "number", "default": number]
            case .string(let text): schema = ["type": "string", "default": text]
            case .array: schema = ["type": "string", "description": "a comma-separated list, or a JSON array"]
            case .object, .null: schema = ["type": ["number", "string", "boolean"]]
            }
            parameters.append(["name": OptionDecoding.kebabCase(key), "in": "query", "required": false, "schema": schema])
        }
        if task == "track" {
            parameters.append([
                "name": "box", "in": "query", "required": false,
                "description": "a seed box x,y,width,height in pixels; repeat for several objects; POST needs one, a stream may get its seeds later",
                "schema": ["type": "string", "pattern": "^[^,]+,[^,]+,[^,]+,[^,]+$"],
            ])
        }
        return parameters
    }

    /// An image body: the bytes themselves, or `files` image fields of a form.
    static func imageBody(files: Int) -> [String: Any] {
        let binary: [String: Any] = ["type": "string", "contentMediaType": "application/octet-stream"]
        var content: [String: Any] = [
            "multipart/form-data": [
                "schema": [
                    "type": "object",
                    "properties": Dictionary(uniqueKeysWithValues: (1...files).map { ("image\($0 == 1 ? "" : String($0))", binary) }),
                ]
            ]
        ]
        if files == 1 {
            for type in ["image/jpeg", "image/png", "image/webp", "image/heic", "image/avif", "image/gif", "application/octet-stream"] { content[type] = ["schema": binary] }
        }
        return ["required": true, "content": content]
    }

    static func deepStack(_ path: String, summary: String) -> [String: Any] {
        let prediction: [String: Any] = [
            "type": "object",
            "properties": [
                "label": ["type": "string"], "confidence": ["type": "number"], "x_min": ["type": "integer"],
                "y_min": ["type": "integer"], "x_max": ["type": "integer"], "y_max": ["type": "integer"],
            ],
        ]
        let answer: [String: Any] =
            path == "scene"
            ? ["type": "object", "required": ["success"], "properties": ["success": ["type": "boolean"], "label": ["type": "string"], "confidence": ["type": "number"]]]
            : ["type": "object", "required": ["success"], "properties": ["success": ["type": "boolean"], "predictions": ["type": "array", "items": prediction]]]
        let failure: [String: Any] = [
            "type": "object", "required": ["success", "error", "code"],
            "properties": ["success": ["const": false], "error": ["type": "string"], "code": ["type": "string"]],
        ]
        var responses: [String: Any] = ["200": jsonResponse("DeepStack's answer", answer)]
        for (status, meaning) in workErrors where status != 404 { responses[String(status)] = jsonResponse(meaning, failure) }
        return [
            "operationId": "deepstack_\(path)", "summary": summary,
            "requestBody": [
                "required": true,
                "content": [
                    "multipart/form-data": [
                        "schema": [
                            "type": "object", "required": ["image"],
                            "properties": [
                                "image": ["type": "string", "contentMediaType": "application/octet-stream"],
                                "min_confidence": ["type": "string"], "api_key": ["type": "string"],
                            ],
                        ]
                    ]
                ],
            ],
            "responses": responses,
        ]
    }

    static func responses(ok: String, schema: [String: Any], errors: [Int]? = nil) -> [String: Any] {
        var responses: [String: Any] = ["200": jsonResponse(ok, schema)]
        for (status, meaning) in workErrors where errors?.contains(status) ?? true { responses[String(status)] = errorResponse(meaning) }
        return responses
    }

    /// `responses` with the headers an image route's answers carry: `Server-Timing` on 200 and 201 (where
    /// the request's time went: queue, decode, inference, encode, in milliseconds) and `Retry-After` on 503.
    static func stagedResponses(_ responses: [String: Any]) -> [String: Any] {
        var responses = responses
        let timing: [String: Any] = [
            "description": "queue, decode, inference and encode, in milliseconds: `queue;dur=0.1, decode;dur=1.9, …`",
            "schema": ["type": "string"],
        ]
        let retry: [String: Any] = ["description": "seconds to wait before trying again", "schema": ["type": "integer"]]
        for status in ["200", "201"] {
            guard var ok = responses[status] as? [String: Any] else { continue }
            ok["headers"] = ["Server-Timing": timing]
            responses[status] = ok
        }
        if var busy = responses["503"] as? [String: Any] {
            busy["headers"] = ["Retry-After": retry]
            responses["503"] = busy
        }
        return responses
    }

    static func jsonResponse(_ description: String, _ schema: [String: Any]) -> [String: Any] {
        ["description": description, "content": ["application/json": ["schema": schema]]]
    }

    static func errorResponse(_ description: String) -> [String: Any] {
        jsonResponse(description, ["$ref": "#/components/schemas/Error"])
    }
}
