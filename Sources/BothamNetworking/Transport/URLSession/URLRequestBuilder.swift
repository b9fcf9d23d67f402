import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds a Foundation `URLRequest` from a prepared ``HTTPRequest`` (`HTTPRequest.prepared()`: already checked, its
/// URL resolved and its body encoded, so nothing is checked or encoded here).
enum URLRequestBuilder {
    /// The first hop and the size of its body. `timeLimit` is enforced by the transport itself; URLSession's own
    /// (idle, whole-second) timeout is set one second past it so that it never fires first.
    ///
    /// A file body (``HTTPBody/fileURL``) is not read: the hop uploads it from the file, with its size as
    /// `Content-Length`.
    static func firstHop(for request: HTTPRequest, timeLimit: Duration?) throws(APIClientError) -> (
        hop: URLSessionHop, bodySize: Int64?
    ) {
        let url = try request.resolvedURL()
        if let scheme = url.scheme?.lowercased(), Origin.unixSocketSchemes.contains(scheme) {
            // URLSession has no way to connect to a socket file: say which transport can, before anything is sent.
            throw .invalidRequest(
                reason: "URLSessionHTTPClient cannot reach a Unix domain socket (\(scheme)://): use NativeHTTPClient")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        addHeaderFields(request.headers, to: &urlRequest)
        let bodyFile = request.body?.fileURL
        let bodySize: Int64?
        if let bodyFile {
            let size = try FileBody.size(of: bodyFile)
            urlRequest.setValue(String(size), forHTTPHeaderField: "Content-Length")
            bodySize = Int64(size)
        } else {
            urlRequest.httpBody = try request.bodyData()
            bodySize = urlRequest.httpBody.map { Int64($0.count) }
        }
        if let timeLimit {
            urlRequest.timeoutInterval = timeLimit.seconds.rounded(.up) + 1
        }
        return (URLSessionHop(request: urlRequest, bodyFile: bodyFile), bodySize)
    }
}

#if canImport(FoundationNetworking)
    extension URLRequestBuilder {
        // Why one pass: called per field, `addValue` copies the whole dictionary and lowercases every name already
        // in it (about 45,000 instructions for the five fields the transport adds to a request; BENCHMARKS.md,
        // 2026-12-01). Its value check drops nothing here: the request is prepared, so no value holds the NUL, CR or
        // LF it refuses.
        /// The header dictionary swift-corelibs-foundation builds when `addValue(_:forHTTPHeaderField:)` is called
        /// once per field, built in one pass: each name capitalized as it stores it (`accept-encoding` becomes
        /// `Accept-Encoding`), the values of one name joined with `,` in order. `nil` for no fields, as `addValue`
        /// never called leaves the request's fields.
        static func headerFields(of headers: HTTPHeaders) -> [String: String]? {
            guard !headers.isEmpty else { return nil }
            var fields = [String: String](minimumCapacity: headers.fields.count)
            for (name, value) in headers {
                let key = name.rawName.capitalized
                if let earlier = fields[key] {
                    fields[key] = earlier + "," + value
                } else {
                    fields[key] = value
                }
            }
            return fields
        }
    }
#endif

extension URLRequestBuilder {
    /// The header fields of `request`, one per name as URLSession keeps them.
    static func headers(of request: URLRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.add(HTTPFieldName(name), value)
        }
        return headers
    }

    /// Replaces every header field of `request` with `headers`, added as a first hop's are.
    static func replaceHeaderFields(of request: inout URLRequest, with headers: HTTPHeaders) {
        for name in (request.allHTTPHeaderFields ?? [:]).keys {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        addHeaderFields(headers, to: &request)
    }

    /// Adds `headers` to `request`, the values of one name joined with `,` as URLSession keeps them.
    static func addHeaderFields(_ headers: HTTPHeaders, to request: inout URLRequest) {
        #if canImport(FoundationNetworking)
            if let fields = headerFields(of: headers) { request.allHTTPHeaderFields = fields }
        #else
            for field in headers {
                request.addValue(field.value, forHTTPHeaderField: field.name.rawName)
            }
        #endif
    }
}
