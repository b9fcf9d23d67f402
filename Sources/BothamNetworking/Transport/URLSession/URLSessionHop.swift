import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request of a ``URLSessionHTTPClient`` call as URLSession sends it: the `URLRequest`, and the file its body
/// is uploaded from (`nil`: the body, if any, is the request's `httpBody`).
struct URLSessionHop: Sendable {
    /// The request.
    let request: URLRequest
    /// The file the body is streamed from.
    let bodyFile: URL?
}
