import Foundation

extension TLSConfiguration {
    /// The contents of the file at `path` (trust roots or a client identity), or a ``TLSError/Code/configuration``
    /// error naming it as `what` (e.g. "the trust roots file"): both transports' loaders read files through this.
    package static func contents(ofFile path: String, _ what: String) throws(TLSError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TLSError(code: .configuration, reason: "cannot read \(what) \(path)")
        }
        return data
    }
}
