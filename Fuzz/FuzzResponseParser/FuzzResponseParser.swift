import FuzzSupport

/// Fuzzes NativeHTTPClient's HTTP/1.1 response parser; see ``ResponseParserCheck``.
@main
enum FuzzResponseParser {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                ResponseParserCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: ResponseParserCheck.run
        )
    }
}
