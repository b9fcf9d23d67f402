/// A protocol violation found in the frames a peer sent, classified as RFC 9113 §5.4 says: a connection error
/// ends the whole connection (GOAWAY with the code, §5.4.1), a stream error only its stream (RST_STREAM with the
/// code, §5.4.2).
///
/// After a connection error the ``HTTP2FrameDecoder`` throws the same error for every later call; after a
/// stream error it has skipped the offending frame and reads on.
package enum HTTP2FrameError: Error, Hashable, Sendable {
    /// The connection must end with GOAWAY carrying the code.
    case connection(HTTP2ErrorCode, HTTP2FrameViolation)
    /// The stream must end with RST_STREAM carrying the code; the connection goes on.
    case stream(HTTP2StreamID, HTTP2ErrorCode, HTTP2FrameViolation)

    /// The code to send in GOAWAY or RST_STREAM.
    package var code: HTTP2ErrorCode {
        switch self {
        case .connection(let code, _), .stream(_, let code, _): code
        }
    }

    /// What the peer did wrong.
    package var violation: HTTP2FrameViolation {
        switch self {
        case .connection(_, let violation), .stream(_, _, let violation): violation
        }
    }

    /// Whether the whole connection must end.
    package var isConnectionError: Bool {
        if case .connection = self { return true }
        return false
    }
}

extension HTTP2FrameError: CustomStringConvertible {
    /// `connection error PROTOCOL_ERROR: …` or `stream 3 error FRAME_SIZE_ERROR: …`.
    package var description: String {
        switch self {
        case .connection(let code, let violation): "connection error \(code): \(violation)"
        case .stream(let stream, let code, let violation): "\(stream) error \(code): \(violation)"
        }
    }
}
