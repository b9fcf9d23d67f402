import FuzzSupport

/// Fuzzes the `WWW-Authenticate` challenge parser; see ``WWWAuthenticateCheck``.
@main
enum FuzzWWWAuthenticate {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                WWWAuthenticateCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: WWWAuthenticateCheck.run
        )
    }
}
