import Foundation

/// A minimal structural check of HAR 1.2 (the required members of `log`, `entries`, `request`, `response`,
/// `content` and `timings`, with their JSON types), written here so no schema library is needed. It returns what is
/// wrong, one line per problem; empty means the document has HAR 1.2's shape. Shared by the recorder's own tests
/// and the httpbin interop tests, which run it on a real recording; not part of any product.
public enum HARSchema {
    /// The problems of `data` as a HAR 1.2 document.
    public static func problems(_ data: Data) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return ["the document is not a JSON object"]
        }
        var problems: [String] = []
        guard let log = object(root, "log", at: "", &problems) else { return problems }
        string(log, "version", at: "log", &problems)
        if (log["version"] as? String) != "1.2" { problems.append("log.version is not 1.2") }
        if let creator = object(log, "creator", at: "log", &problems) {
            string(creator, "name", at: "log.creator", &problems)
            string(creator, "version", at: "log.creator", &problems)
        }
        guard let entries = log["entries"] as? [Any] else { return problems + ["log.entries is not an array"] }
        for (index, value) in entries.enumerated() {
            let path = "log.entries[\(index)]"
            guard let entry = value as? [String: Any] else {
                problems.append("\(path) is not an object")
                continue
            }
            string(entry, "startedDateTime", at: path, &problems)
            number(entry, "time", at: path, &problems)
            _ = object(entry, "cache", at: path, &problems)
            if let timings = object(entry, "timings", at: path, &problems) {
                for key in ["send", "wait", "receive"] { number(timings, key, at: "\(path).timings", &problems) }
            }
            if let request = object(entry, "request", at: path, &problems) {
                let at = "\(path).request"
                for key in ["method", "url", "httpVersion"] { string(request, key, at: at, &problems) }
                for key in ["cookies", "headers", "queryString"] { pairs(request, key, at: at, &problems) }
                for key in ["headersSize", "bodySize"] { number(request, key, at: at, &problems) }
                if request["postData"] != nil, let postData = object(request, "postData", at: at, &problems) {
                    string(postData, "mimeType", at: "\(at).postData", &problems)
                    // HAR 1.2: "text [string]" or "params [array]", one of them required.
                    if !(postData["text"] is String) && !(postData["params"] is [Any]) {
                        problems.append("\(at).postData: neither text nor params")
                    }
                }
            }
            if let response = object(entry, "response", at: path, &problems) {
                let at = "\(path).response"
                number(response, "status", at: at, &problems)
                for key in ["statusText", "httpVersion", "redirectURL"] { string(response, key, at: at, &problems) }
                for key in ["cookies", "headers"] { pairs(response, key, at: at, &problems) }
                for key in ["headersSize", "bodySize"] { number(response, key, at: at, &problems) }
                if let content = object(response, "content", at: at, &problems) {
                    number(content, "size", at: "\(at).content", &problems)
                    string(content, "mimeType", at: "\(at).content", &problems)
                    if let encoding = content["encoding"], (encoding as? String) != "base64" {
                        problems.append("\(at).content.encoding is not base64")
                    }
                }
            }
        }
        return problems
    }

    private static func object(
        _ parent: [String: Any], _ key: String, at path: String, _ problems: inout [String]
    ) -> [String: Any]? {
        guard let value = parent[key] as? [String: Any] else {
            problems.append("\(path).\(key) is not an object")
            return nil
        }
        return value
    }

    private static func string(_ parent: [String: Any], _ key: String, at path: String, _ problems: inout [String]) {
        if !(parent[key] is String) { problems.append("\(path).\(key) is not a string") }
    }

    private static func number(_ parent: [String: Any], _ key: String, at path: String, _ problems: inout [String]) {
        let value = parent[key]
        guard value is Double || value is Int || value is NSNumber, !(value is String) else {
            return problems.append("\(path).\(key) is not a number")
        }
    }

    private static func pairs(_ parent: [String: Any], _ key: String, at path: String, _ problems: inout [String]) {
        guard let list = parent[key] as? [Any] else { return problems.append("\(path).\(key) is not an array") }
        for (index, value) in list.enumerated() {
            guard let pair = value as? [String: Any], pair["name"] is String, pair["value"] is String else {
                problems.append("\(path).\(key)[\(index)] is not a name and value pair")
                continue
            }
        }
    }
}
