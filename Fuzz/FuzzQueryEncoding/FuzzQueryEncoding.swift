import FuzzSupport

/// Fuzzes the query and form encoders; see ``QueryEncodingCheck``.
@main
enum FuzzQueryEncoding {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                QueryEncodingCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: QueryEncodingCheck.run
        )
    }
}
