/// The status and headers of an HTTP response.
struct HTTPResponse {
    /// The status code.
    let status: Int
    /// The headers by lowercased name; a header sent more than once keeps its last value.
    let headers: [String: String]

    /// The value of the header `name`, whatever its case.
    func value(forHTTPHeaderField name: String) -> String? { headers[name.lowercased()] }

    /// The body's size that `Content-Length` announces; nil when there is none.
    var expectedContentLength: Int64? { value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) } }
}
