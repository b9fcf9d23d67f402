import Foundation

extension TLSConfiguration {
    /// A file a TLS configuration names, as errors about it call it.
    package enum File: String, Sendable {
        case trustRoots = "the trust roots file"
        case certificateChain = "the client certificate chain file"
        case privateKey = "the client private key file"
        case pkcs12 = "the client PKCS#12 archive file"
    }

    /// The contents of the file at `path`, or a ``TLSError/Code/configuration`` error naming it as `file`: both
    /// transports' loaders read files through this.
    package static func contents(ofFile path: String, _ file: File) throws(TLSError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TLSError(code: .configuration, reason: "cannot read \(file.rawValue) \(path)")
        }
        return data
    }
}
