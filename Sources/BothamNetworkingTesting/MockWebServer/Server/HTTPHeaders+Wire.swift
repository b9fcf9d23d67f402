import BothamNetworking

extension HTTPHeaders {
    /// The comma-separated tokens of every field called `name`, trimmed and lowercased (for `Connection`,
    /// `Transfer-Encoding`, `Expect`): `HTTPFieldList.elements(of:)` of each value, as the transports read them.
    func tokens(for name: HTTPFieldName) -> [String] {
        values(for: name).flatMap(HTTPFieldList.elements(of:))
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (`HTTPFieldList.trimmingWhitespace(_:)`).
    func trimmingHTTPWhitespace() -> String {
        String(HTTPFieldList.trimmingWhitespace(Substring(self)))
    }
}
