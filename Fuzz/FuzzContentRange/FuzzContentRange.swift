import FuzzSupport

/// Fuzzes the `Content-Range` parser of segmented downloads; see ``ContentRangeCheck``.
@main
enum FuzzContentRange {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                ContentRangeCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: ContentRangeCheck.run
        )
    }
}
