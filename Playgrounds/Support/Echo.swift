import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// An httpbin-compatible echo: `args`, `headers`, `url`, `method`, and for bodies `data`, `json`, `form`.
enum Echo {
    static func echo(_ request: RecordedRequest) -> MockResponse {
        var members: [(key: String, value: JSONValue)] = [
            (key: "args", value: grouped(request.queryItems.map { ($0.name, $0.value ?? "") })),
            (key: "headers", value: headers(request)),
            (key: "method", value: .string(request.method.rawValue)),
            (key: "url", value: .string("http://\(request.header("Host") ?? "localhost")\(request.target)")),
        ]
        if !["GET", "HEAD"].contains(request.method) {
            let text = String(decoding: request.body, as: UTF8.self)
            let contentType = request.header("Content-Type")?.lowercased() ?? ""
            members.append((key: "data", value: .string(contentType.contains("form") ? "" : text)))
            members.append((key: "json", value: JSONValue(jsonData: request.body) ?? .null))
            members.append((key: "form", value: contentType.contains("x-www-form-urlencoded") ? form(text) : [:]))
        }
        return Routes.json(.object(members))
    }

    static func headers(_ request: RecordedRequest) -> JSONValue {
        .object(request.headers.map { (key: $0.name.rawName, value: .string($0.value)) })
    }

    private static func form(_ text: String) -> JSONValue {
        let pairs = text.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
        return grouped(pairs)
    }

    /// httpbin's shape: a name seen once maps to a string, a repeated name to an array.
    private static func grouped(_ pairs: [(String, String)]) -> JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in pairs {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        return .object(
            order.map { name in
                let all = values[name] ?? []
                return (key: name, value: all.count == 1 ? .string(all[0]) : .array(all.map(JSONValue.string)))
            }
        )
    }
}
