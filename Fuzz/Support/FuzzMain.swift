import Foundation

#if BOTHAM_LIBFUZZER
    import CLibFuzzer
#endif

/// Runs a fuzz target: under libFuzzer (a build with `-sanitize=fuzzer -DBOTHAM_LIBFUZZER`) it hands the command
/// line to libFuzzer's driver; in a plain build it replays the files and folders named on the command line.
public enum FuzzMain {
    /// A libFuzzer callback: a C function that checks one input.
    public typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs `callback` the libFuzzer way, or `check` over the named inputs, and never returns.
    public static func run(callback: Callback, check: ([UInt8]) -> Void) -> Never {
        #if BOTHAM_LIBFUZZER
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
            FuzzReplay.run(arguments: Array(CommandLine.arguments.dropFirst()), check: check)
            exit(0)
        #endif
    }

    /// The bytes libFuzzer passes to a callback, as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}
