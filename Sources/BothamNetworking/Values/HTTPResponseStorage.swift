import Foundation

/// The fields of an ``HTTPResponse``, in one immutable box that every copy of the response shares.
///
/// A response is copied many times on its way out of a call (into results, through response interceptors, the
/// retry budget and validation); with its eight fields inline each copy retained and released every one of them.
/// One box makes a copy one retain. Nothing writes a storage after it is created (every field is a `let`), so it is
/// `Sendable` as its fields are.
final class HTTPResponseStorage: Sendable {
    /// Every field of a response. Its synthesized equality and hashing are the response's (the timings slot
    /// compares equal whatever it holds).
    struct Fields: Sendable, Hashable {
        let statusCode: Int
        let headers: HTTPHeaders
        let body: Data
        let bodyFileURL: URL?
        let request: HTTPRequest
        let url: URL?
        let bodyStream: HTTPBodyStream?
        let timingsSlot: ResponseTimingsSlot
        let upgradeSlot: UpgradeSlot
    }

    let fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }
}
