import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stops the process when a property does not hold, so libFuzzer records the input as a crash.
///
/// A fuzz harness exists to turn a broken promise into a crash with the input kept; `abort()` is its way to
/// report one (the library itself never traps on outside data).
public func fuzzExpect(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("fuzz property failed at \(file):\(line): \(message())\n".utf8))
    abort()
}
