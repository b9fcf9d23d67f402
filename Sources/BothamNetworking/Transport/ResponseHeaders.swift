import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads the header fields of a Foundation response.
enum ResponseHeaders {
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let fields = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }
        for (name, value) in fields.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
            headers.add(HTTPFieldName(name), value)
        }
        return headers
    }
}
