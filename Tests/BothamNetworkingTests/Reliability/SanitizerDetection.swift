#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether this test process runs under ThreadSanitizer (`swift test --sanitize=thread`), found by looking up the
/// TSan runtime's entry point, so heavy tests can scale down the work that TSan slows by an order of magnitude.
let isRunningUnderThreadSanitizer: Bool = {
    guard let process = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(process) }
    return dlsym(process, "__tsan_init") != nil
}()
