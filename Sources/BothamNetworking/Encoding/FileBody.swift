import Foundation

/// Reading and measuring files used as request bodies, with typed errors. Package-wide so that every transport
/// measures and reports a body file the same way.
package enum FileBody {
    /// The size of the regular file at `url`.
    package static func size(of url: URL) throws(APIClientError) -> Int {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw .invalidRequest(reason: "the body file \(DebugText.quoted(url.path)) cannot be read: \(error)")
        }
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            throw .invalidRequest(reason: "the body file \(DebugText.quoted(url.path)) is not a regular file")
        }
        guard let size = (attributes[.size] as? NSNumber)?.intValue else {
            throw .invalidRequest(reason: "the size of the body file \(DebugText.quoted(url.path)) is unknown")
        }
        return size
    }

    /// The whole file, when it is at most `limit` bytes long.
    static func contents(of url: URL, limit: Int) throws(APIClientError) -> Data {
        let size = try size(of: url)
        guard size <= limit else {
            throw .invalidRequest(
                reason: "the body file \(DebugText.quoted(url.path)) (\(size) bytes) is larger than \(limit) bytes; "
                    + "send it with a transport that uploads from HTTPBody.fileURL"
            )
        }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .invalidRequest(reason: "the body file \(DebugText.quoted(url.path)) cannot be read: \(error)")
        }
    }
}
