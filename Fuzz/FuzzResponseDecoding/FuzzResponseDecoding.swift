import FuzzSupport

/// Fuzzes the response-decoding helpers; see ``ResponseDecodingCheck``.
@main
enum FuzzResponseDecoding {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                ResponseDecodingCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: ResponseDecodingCheck.run
        )
    }
}
