import FuzzSupport

/// Fuzzes the `Content-Disposition` reader behind `SuggestedFilename`; see ``ContentDispositionCheck``.
@main
enum FuzzContentDisposition {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                ContentDispositionCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: ContentDispositionCheck.run
        )
    }
}
