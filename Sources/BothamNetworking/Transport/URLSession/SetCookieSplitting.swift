/// Recovers the separate `Set-Cookie` fields that `HTTPURLResponse.allHeaderFields` joined with ", " (RFC 9110 §5.3
/// and RFC 6265 §3 forbid merging them, because a cookie's `Expires` date holds a comma).
///
/// A comma starts a new cookie when what follows it (spaces skipped) is a cookie name (an RFC 9110 token) and `=`;
/// every other comma (`Expires=Wed, 21 Oct 2026 07:28:00 GMT`) belongs to the cookie before it. The one case that
/// cannot be recovered: a cookie whose value itself holds an unquoted comma followed by `name=` text, which RFC 6265
/// does not allow in a cookie value anyway.
enum SetCookieSplitting {
    static func split(_ joined: String) -> [String] {
        var cookies: [String] = []
        var current = ""
        for piece in joined.split(separator: ",", omittingEmptySubsequences: false) {
            if !cookies.isEmpty || !current.isEmpty, startsCookie(piece) {
                cookies.append(current)
                current = String(piece)  // its leading spaces go with the trimming below
            } else if current.isEmpty && cookies.isEmpty {
                current = String(piece)
            } else {
                current += "," + piece
            }
        }
        cookies.append(current)
        return cookies.map { String(HTTPFieldList.trimmingWhitespace($0[...])) }.filter { !$0.isEmpty }
    }

    /// Whether `piece` (after a comma) begins `name=`.
    private static func startsCookie(_ piece: Substring) -> Bool {
        let trimmed = HTTPFieldList.trimmingWhitespace(piece)
        guard let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex else { return false }
        return trimmed[..<equals].utf8.allSatisfy(HTTPToken.isTokenCharacter)
    }
}
