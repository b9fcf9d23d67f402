import BothamNetworking

extension HTTPHeaders {
    /// The comma-separated tokens of every field called `name`, trimmed and lowercased (for `Connection`,
    /// `Transfer-Encoding`, `Expect`).
    func tokens(for name: HTTPFieldName) -> [String] {
        values(for: name)
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingHTTPWhitespace().lowercased() }
            .filter { !$0.isEmpty }
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    func trimmingHTTPWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
