import FuzzSupport

/// Fuzzes MockWebServer's HTTP/1.1 request parser; see ``RequestParserCheck``.
@main
enum FuzzRequestParser {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                RequestParserCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: RequestParserCheck.run
        )
    }
}
