import Foundation
import HTTPTypes
import Hummingbird
import SwiftVision

/// The images of a request: the body itself (`image/jpeg`, `image/png`, `image/webp`, …) or the
/// file parts of a `multipart/form-data` body. Admission is checked from the bytes alone — the count of
/// parts and images, and each image's size from its header — before any pixel is decoded.
enum ImageUpload {
    /// What a request may hold.
    struct Limits: Sendable {
        /// The images the endpoint takes.
        var images: Int
        /// The largest image, in pixels.
        var maxPixels: Int
        /// The pixels of all the images together.
        var maxRequestPixels: Int
        /// The most parts of a form.
        var maxParts: Int
    }

    /// One image of a request, checked from its header and not yet decoded.
    struct File: Sendable {
        var name: String
        var data: Data
        var maxPixels: Int
        /// Its pixels, as its header gives its size.
        var pixelCount: Int

        /// The image in `data`, refused when its header is not an image's or gives more than `maxPixels` pixels.
        init(name: String, data: Data, maxPixels: Int) throws {
            let header: ImageHeader
            do {
                header = try ImageHeader(data: data)
            } catch ImageError.unknownFormat where VideoContainer(header: data.prefix(512)) != nil {
                throw APIError.videoUpload
            }
            try ImageLimits(maximumPixelCount: maxPixels).check(width: header.width, height: header.height)
            self.name = name
            self.data = data
            self.maxPixels = maxPixels
            pixelCount = header.width * header.height
        }

        /// The decoded image.
        func decode() throws -> VisionImage {
            try VisionImage(data: data, options: ImageDecodingOptions(limits: ImageLimits(maximumPixelCount: maxPixels)))
        }
    }

    /// The image files in `body`, exactly `limits.images` of them, each within the pixel limits; nothing is decoded.
    static func files(in body: ByteBuffer, contentType: String?, limits: Limits) throws -> [File] {
        var files: [(name: String, data: Data)]
        if let parts = try formParts(of: body, contentType: contentType, maxParts: limits.maxParts) {
            files = parts.filter { !$0.data.isEmpty && ($0.fileName != nil || $0.contentType?.hasPrefix("image/") == true) }
                .map { ($0.name, $0.data) }
            guard !files.isEmpty else { throw APIError(.unsupportedMediaType, "not_an_image", "the form has no image file") }
        } else {
            let type = mediaType(contentType)
            if type.hasPrefix("video/") { throw APIError.videoUpload }
            guard type.hasPrefix("image/") || type == "application/octet-stream" || type.isEmpty else {
                throw APIError(
                    .unsupportedMediaType, "not_an_image",
                    "send the image bytes as image/jpeg, image/png or image/webp, or a multipart/form-data form, not \(type)")
            }
            guard body.readableBytes > 0 else { throw APIError(.unsupportedMediaType, "not_an_image", "the request has no body") }
            files = [("image", Data(buffer: body))]
        }
        guard files.count == limits.images else {
            let wanted = limits.images == 1 ? "one image" : "\(limits.images) images"
            throw APIError(
                .badRequest, limits.images == 1 ? "one_image_needed" : "two_images_needed",
                "send \(wanted) (as multipart/form-data files), not \(files.count)")
        }
        let checked = try files.map { try File(name: $0.name, data: $0.data, maxPixels: limits.maxPixels) }
        let total = checked.reduce(0) { $0 + $1.pixelCount }
        guard total <= limits.maxRequestPixels else {
            throw APIError(
                .contentTooLarge, "image_too_large",
                "the images hold \(total) pixels together; the service takes at most \(limits.maxRequestPixels) per request")
        }
        return checked
    }

    /// The parts of a `multipart/form-data` body, or nil when `contentType` names another type.
    static func formParts(of body: ByteBuffer, contentType: String?, maxParts: Int) throws -> [MultipartForm.Part]? {
        guard mediaType(contentType) == "multipart/form-data" else { return nil }
        guard let boundary = parameter("boundary", in: contentType ?? ""), !boundary.isEmpty, boundary.count <= 200 else {
            throw APIError(.badRequest, "bad_multipart", "multipart/form-data needs a boundary of 1 to 200 characters")
        }
        return try MultipartForm.parts(of: Data(buffer: body), boundary: boundary, maxParts: maxParts)
    }

    /// The media type of a `Content-Type` header, lowercased and without its parameters.
    static func mediaType(_ contentType: String?) -> String {
        // Spaces and tabs trimmed by hand: Foundation's trimming cost more than the rest of the request's parsing.
        guard let type = contentType?.split(separator: ";").first else { return "" }
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = type.firstIndex(where: { !isBlank($0) }), let end = type.lastIndex(where: { !isBlank($0) }) else { return "" }
        return type[start...end].lowercased()
    }

    /// The value of `name=value` in a header such as `multipart/form-data; boundary=…`.
    static func parameter(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == name {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}

/// A `multipart/form-data` body (RFC 7578) cut into its parts.
enum MultipartForm {
    struct Part {
        var name: String
        var fileName: String?
        var contentType: String?
        var data: Data
    }

    static func parts(of body: Data, boundary: String, maxParts: Int) throws -> [Part] {
        let delimiter = Data("--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var parts: [Part] = []
        var searchStart = body.startIndex
        guard var start = body.range(of: delimiter, in: searchStart..<body.endIndex)?.upperBound else {
            throw APIError(.badRequest, "bad_multipart", "the form's boundary does not occur in the body")
        }
        while true {
            // After a delimiter: "--" ends the form, CRLF starts a part.
            if body[start...].starts(with: Data("--".utf8)) { break }
            guard body[start...].starts(with: Data("\r\n".utf8)) else {
                throw APIError(.badRequest, "bad_multipart", "a form part is not followed by CRLF")
            }
            start += 2
            guard let headersEnd = body.range(of: headerEnd, in: start..<body.endIndex) else {
                throw APIError(.badRequest, "bad_multipart", "a form part has no end of headers")
            }
            searchStart = headersEnd.upperBound
            guard let next = body.range(of: Data("\r\n".utf8) + delimiter, in: searchStart..<body.endIndex) else {
                throw APIError(.badRequest, "bad_multipart", "the form does not end with its boundary")
            }
            let headers = String(decoding: body[start..<headersEnd.lowerBound], as: UTF8.self)
            var part = Part(name: "", data: Data(body[headersEnd.upperBound..<next.lowerBound]))
            for line in headers.components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "content-disposition":
                    part.name = ImageUpload.parameter("name", in: pair[1]) ?? ""
                    part.fileName = ImageUpload.parameter("filename", in: pair[1])
                case "content-type":
                    part.contentType = pair[1].lowercased()
                default: break
                }
            }
            parts.append(part)
            guard parts.count <= maxParts else {
                throw APIError(.badRequest, "too_many_parts", "the form has more than \(maxParts) parts")
            }
            start = next.upperBound
        }
        return parts
    }
}
