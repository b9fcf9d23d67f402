/// Content types guessed from file extensions, for multipart file parts.
extension MediaType {
    private static let byPathExtension: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "csv": "text/csv", "html": "text/html", "htm": "text/html",
        "css": "text/css", "js": "text/javascript", "json": "application/json", "xml": "application/xml",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "plist": "application/x-plist", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml", "heic": "image/heic", "ico": "image/x-icon",
        "mp3": "audio/mpeg", "wav": "audio/wav", "m4a": "audio/mp4", "mp4": "video/mp4", "mov": "video/quicktime",
        "webm": "video/webm",
    ]

    /// The type for a path extension (ignoring case), or `application/octet-stream`.
    static func forPathExtension(_ pathExtension: String) -> String {
        byPathExtension[pathExtension.lowercased()] ?? octetStream
    }
}
