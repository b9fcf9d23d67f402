import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads the header fields of a Foundation response.
enum ResponseHeaders {
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let fields = response.allHeaderFields.compactMap { key, value -> (HTTPFieldName, String)? in
            guard let name = key as? String else { return nil }
            return (HTTPFieldName(name), "\(value)")
        }
        // Sorted by the lower-cased name computed once per field, not twice per comparison.
        for (name, value) in fields.sorted(by: { $0.0.canonicalName < $1.0.canonicalName }) {
            headers.add(name, value)
        }
        return headers
    }
}
