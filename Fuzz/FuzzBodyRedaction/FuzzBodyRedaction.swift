import FuzzSupport

/// Fuzzes the redaction of JSON and form body fields in logs and cURL; see ``BodyRedactionCheck``.
@main
enum FuzzBodyRedaction {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                BodyRedactionCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: BodyRedactionCheck.run
        )
    }
}
