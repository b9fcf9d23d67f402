import FuzzSupport

/// Fuzzes the WebSocket session's frame parser and the UTF-8 validator; see ``WebSocketFramesCheck``.
@main
enum FuzzWebSocketFrames {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                WebSocketFramesCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: WebSocketFramesCheck.run
        )
    }
}
