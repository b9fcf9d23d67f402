import BothamNetworking

extension NativeHTTPClient: TransportHeaderDefaults {
    /// The one field this client would add of its own, made explicit so that interceptors see it:
    /// `Accept-Encoding: gzip, deflate` when ``Configuration/decompression`` is on and the body is not going to a
    /// file or a folder (a body written to its file as it arrives cannot be decoded). Only `Host`, `Content-Length` and
    /// `Transfer-Encoding` are added while sending.
    package func defaultHeaders(for request: HTTPRequest) -> HTTPHeaders {
        guard configuration.decompression else { return [:] }
        switch request.responseDestination {
        case .memory, .stream: return Self.decodedCodings
        case .file, .directory: return [:]
        }
    }

    /// The one field native adds when it decodes bodies, built once.
    private static let decodedCodings: HTTPHeaders = [.acceptEncoding: ContentDecoder.acceptEncoding]
}
