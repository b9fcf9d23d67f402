import FuzzSupport

/// Fuzzes header name and value validation; see ``HeaderValidationCheck``.
@main
enum FuzzHeaderValidation {
    static func main() {
        FuzzMain.run(
            callback: { data, size in
                HeaderValidationCheck.run(FuzzMain.bytes(data, size))
                return 0
            },
            check: HeaderValidationCheck.run
        )
    }
}
