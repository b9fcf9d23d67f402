import FuzzSupport

/// Fuzzes the HTTP/2 frame decoder; see ``HTTP2FrameDecoderCheck``.
@main
enum FuzzHTTP2FrameDecoder {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                HTTP2FrameDecoderCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: HTTP2FrameDecoderCheck.run
        )
    }
}
