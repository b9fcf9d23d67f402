import FuzzSupport

/// Fuzzes the Server-Sent Events parser; see ``ServerSentEventsCheck``.
@main
enum FuzzServerSentEvents {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                ServerSentEventsCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: ServerSentEventsCheck.run
        )
    }
}
