import BothamNetworking
import Foundation

/// Which parts of a request must equal a recorded one for ``RecordingHTTPClient`` to answer with it.
///
/// By default the method and the URL: scheme, host, port and path exactly, and the query items as a multiset (their
/// order does not count). Add header names to compare, compare bodies, or ignore volatile query items (a
/// timestamp, a nonce, a cache buster):
///
/// ```swift
/// var matching = ReplayMatching.methodAndURL
/// matching.ignoredQueryItems = ["_", "timestamp"]
/// matching.headers = ["Accept"]
/// matching.body = true
/// ```
///
/// Requests are compared as they are recorded: redacted with the same `RecordingOptions(redactor:)`, so a token
/// that differs between the recording and the replay does not prevent a match (both are `REDACTED`).
public struct ReplayMatching: Sendable, Hashable {
    /// Header fields whose values must be equal (all values of the name, in order). Default none.
    public var headers: [HTTPFieldName]
    /// Whether the bodies must be equal (byte for byte after redaction; JSON bodies as JSON values, so member order
    /// and formatting do not count). Default `false`. A streamed request body is read (up to
    /// `RecordingOptions(maximumBodySize:)`) to be compared only when this is on.
    public var body: Bool
    /// Query items left out of the comparison, by exact name. Default none.
    public var ignoredQueryItems: Set<String>

    /// Compares what is given.
    public init(headers: [HTTPFieldName] = [], body: Bool = false, ignoredQueryItems: Set<String> = []) {
        self.headers = headers
        self.body = body
        self.ignoredQueryItems = ignoredQueryItems
    }

    /// The method and the URL (the default).
    public static let methodAndURL = ReplayMatching()

    /// The parts of `recorded` that differ from `sent`, as diff lines (`- recorded`, `+ sent`); empty when they
    /// match.
    func differences(recorded: HTTPArchive.Request, sent: HTTPArchive.Request) -> [String] {
        var lines: [String] = []
        func differ(_ label: String, _ old: String, _ new: String) {
            guard old != new else { return }
            lines += ["- \(label) \(old)", "+ \(label) \(new)"]
        }
        differ("method", recorded.method, sent.method)
        let old = URLComponents(string: recorded.url)
        let new = URLComponents(string: sent.url)
        differ("origin", Self.origin(of: old), Self.origin(of: new))
        differ("path", old?.percentEncodedPath ?? recorded.url, new?.percentEncodedPath ?? sent.url)
        let oldItems = queryItems(recorded.queryString)
        let newItems = queryItems(sent.queryString)
        if oldItems.sorted() != newItems.sorted() {
            let removed = oldItems.filter { !newItems.contains($0) }
            let added = newItems.filter { !oldItems.contains($0) }
            lines += removed.map { "- query \($0)" } + added.map { "+ query \($0)" }
            if removed.isEmpty && added.isEmpty {
                lines += ["- query \(oldItems.joined(separator: "&"))", "+ query \(newItems.joined(separator: "&"))"]
            }
        }
        for name in headers {
            differ(
                "header \(name.rawName):", Self.values(of: name, in: recorded.headers),
                Self.values(of: name, in: sent.headers))
        }
        if body, !Self.bodiesMatch(recorded.postData, sent.postData) {
            lines += ["- body \(Self.summary(of: recorded.postData))", "+ body \(Self.summary(of: sent.postData))"]
        }
        return lines
    }

    private func queryItems(_ items: [HTTPArchive.NameValue]) -> [String] {
        items.filter { !ignoredQueryItems.contains($0.name) }.map { "\($0.name)=\($0.value)" }
    }

    private static func origin(of components: URLComponents?) -> String {
        guard let components else { return "" }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(components.scheme ?? "")://\(components.host ?? "")\(port)"
    }

    private static func values(of name: HTTPFieldName, in headers: [HTTPArchive.NameValue]) -> String {
        let values = headers.filter { HTTPFieldName($0.name) == name }.map(\.value)
        return values.isEmpty ? "(absent)" : values.joined(separator: ", ")
    }

    private static func bodiesMatch(_ lhs: HTTPArchive.PostData?, _ rhs: HTTPArchive.PostData?) -> Bool {
        let left = lhs?.text ?? ""
        let right = rhs?.text ?? ""
        if left == right && lhs?.encoding == rhs?.encoding { return true }
        guard lhs?.encoding == nil, rhs?.encoding == nil, let leftJSON = normalizedJSON(left),
            let rightJSON = normalizedJSON(right)
        else { return false }
        return leftJSON == rightJSON
    }

    /// `text` as JSON with its object members sorted, or `nil` when it is not JSON.
    private static func normalizedJSON(_ text: String) -> Data? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        else { return nil }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    private static func summary(of body: HTTPArchive.PostData?) -> String {
        guard let body else { return "(none)" }
        guard let text = body.text else { return "(not recorded)" }
        let shown = body.encoding == nil ? text : "base64 \(text)"
        return shown.count > 200 ? String(shown.prefix(200)) + "… (\(shown.count) characters)" : shown
    }
}
