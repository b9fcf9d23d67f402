import FuzzSupport

/// Fuzzes the HTTP/2 HPACK decoder; see ``HPACKDecoderCheck``.
@main
enum FuzzHPACKDecoder {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                HPACKDecoderCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: HPACKDecoderCheck.run
        )
    }
}
