// The previous release named a part of a streamed MockWebServer body `MockResponse.BodyPart`; it is now the one
// `StubChunk` both test transports stream (#34: every rename keeps a deprecated shim for at least one minor version).
import Foundation

extension MockResponse {
    /// One part of a streamed body: bytes written after a delay.
    @available(*, deprecated, renamed: "StubChunk")
    public typealias BodyPart = StubChunk
}
