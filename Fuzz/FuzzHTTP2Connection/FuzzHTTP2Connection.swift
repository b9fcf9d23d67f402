import FuzzSupport

/// Fuzzes the HTTP/2 client connection; see ``HTTP2ConnectionCheck``.
@main
enum FuzzHTTP2Connection {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                HTTP2ConnectionCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: HTTP2ConnectionCheck.run
        )
    }
}
