/// Why a `ResponseEncoding` cannot make a response from a value: its decoder uses a strategy that has no
/// encoding counterpart to mirror, such as a `.custom` date, data or key strategy (and, on Linux, a `.formatted`
/// date strategy, which Foundation there turns into a `.custom` one). Pass an encoding of your own instead.
package struct ResponseEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What cannot be mirrored, for example `the decoder's dateDecodingStrategy is .custom`.
    package let reason: String

    /// Creates the error.
    package init(reason: String) {
        self.reason = reason
    }

    /// The reason, and what to do about it.
    package var description: String {
        "cannot encode a response the way it is decoded: \(reason); pass an explicit encoding (ResponseEncoding)"
    }
}
