import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where one ``URLSessionTransfer``'s body going to a file stands with byte ranges: whether the first hop asked for
/// a range, and, once the server offered them, the ``URLSessionDownloadSegments`` still to fetch.
struct URLSessionSegmentedBody {
    /// What a response head means for the body.
    enum Head {
        /// The head of a new response (`presented`: what the caller sees, a `206` shown as the `200` it stands for).
        case response(presented: HTTPURLResponse)
        /// The next segment of the body already under way: its bytes continue it.
        case continuation
        /// The next segment is not the same representation: the call ends.
        case mismatch(URLSessionDownloadSegments.Mismatch)
        /// The server wants the whole body: its body is ignored, and the request goes again without `Range`.
        case retryWithoutRange
    }

    /// The segment size the first hop asked for, until its response head arrives.
    private var firstSegmentBytes: Int64?
    /// The segments, once the first response started them.
    private var segments: URLSessionDownloadSegments?
    /// A later segment's request is out: its head continues the body instead of starting a new one.
    private var awaitingSegmentHead = false

    /// `firstRequest` in segments of `segmentBytes` when the body goes to a file, the request has no body file and
    /// may be ranged (a `GET` without a `Range` of its own); otherwise unchanged, in one task.
    init(firstRequest: inout URLRequest, goesToFile: Bool, hasBodyFile: Bool, segmentBytes: Int64?) {
        guard goesToFile, !hasBodyFile, let segmentBytes,
            let ranged = URLSessionDownloadSegments.firstRequest(for: firstRequest, segmentBytes: segmentBytes)
        else { return }
        firstRequest = ranged
        firstSegmentBytes = segmentBytes
    }

    /// A head arrived, with `received` body bytes in so far.
    mutating func head(_ response: HTTPURLResponse, received: Int64) -> Head {
        if let segmentBytes = firstSegmentBytes {
            firstSegmentBytes = nil
            switch URLSessionDownloadSegments.answer(to: response, segmentBytes: segmentBytes) {
            case .whole:
                return .response(presented: response)
            case .complete(let presented):
                return .response(presented: presented)
            case .segmented(let segments, let presented):
                self.segments = segments
                return .response(presented: presented)
            case .retryWithoutRange:
                return .retryWithoutRange
            }
        }
        guard awaitingSegmentHead else { return .response(presented: response) }
        // The next segment of the body already under way: it must be the same representation.
        awaitingSegmentHead = false
        if let mismatch = segments?.accept(response, at: received) { return .mismatch(mismatch) }
        return .continuation
    }

    /// Whether `count` more bytes after `received` run past the current segment's own `Content-Range`.
    func overrunsSegment(received: Int64, adding count: Int) -> Bool {
        guard let segments else { return false }
        return received + Int64(count) > segments.end
    }

    /// The request for the next segment after `hop` when the current task's segment is all in (`received` bytes)
    /// and more of the body is left; `nil` otherwise.
    mutating func nextSegmentRequest(after hop: URLRequest, received: Int64) -> URLRequest? {
        guard var segments, segments.needsNextSegment(at: received) else { return nil }
        let next = segments.request(after: hop, from: received)
        self.segments = segments
        awaitingSegmentHead = true
        return next
    }

    /// Whether the body ended at `received` bytes, short of the whole body the segments announced.
    func endsShort(at received: Int64) -> Bool {
        guard let segments else { return false }
        return received != segments.totalBytes
    }
}
