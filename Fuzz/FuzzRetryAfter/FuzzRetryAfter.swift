import FuzzSupport

/// Fuzzes the `Retry-After` parser; see ``RetryAfterCheck``.
@main
enum FuzzRetryAfter {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                RetryAfterCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: RetryAfterCheck.run
        )
    }
}
