import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Why: FoundationNetworking keeps a few hundred bytes of bookkeeping per received chunk (a dispatch timer source
// re-created for every chunk) until the task's work item on its queue ends, which on a fast connection is the end
// of the task — about 30 MiB per GiB — so one task for a 1 GiB body cannot stay within a small memory budget, and a
// task cannot be stopped promptly mid-body either. Tasks that each end by themselves bound it
// (scripts/transfer-memory.sh measures it).
/// A large response body going to a file, fetched by ``URLSessionHTTPClient`` in byte ranges of at most
/// ``segmentBytes``, one URLSession task each.
///
/// Only for a request nobody may have signed (``segmentBytes(for:configured:)``): a signature over the request's
/// fields would not cover the `Range` a segment adds, so a request with `Authorization` or `Proxy-Authorization`, or
/// one an `HTTPInterceptor` changed after preparation (`HTTPRequest.changedAfterPreparation`), comes in one task.
///
/// How, for a `GET` without a `Range` of the caller's own:
/// 1. The first request asks for `Range: bytes=0-(segmentBytes - 1)`.
/// 2. A `200` means the server does not serve ranges: it is the response, in one task. A `206` whose
///    `Content-Range` covers the whole body is the whole body. A `206` for part of the body, with a strong validator
///    (an `ETag` that is not weak, or else `Last-Modified`), starts the segments; without one, or on a `416`, the
///    request is sent again without the `Range`. Any other status is the response.
/// 3. Each next segment asks for the next range with `If-Range`, and must be a `206` for exactly that range of the
///    same total, or the call ends with a `connectionLost` failure (the resource changed; a retry starts over).
/// 4. The caller sees the response the server would have sent without the `Range`: status 200, the first `206`'s
///    headers without `Content-Range`, and `Content-Length` set to the whole body.
struct URLSessionDownloadSegments: Sendable {
    /// Why a segment could not continue the body.
    struct Mismatch: Error, CustomStringConvertible {
        /// The status of the segment's response.
        let statusCode: Int
        /// Its `Content-Range`, if any.
        let contentRange: String?

        var description: String {
            "a ranged request for the rest of the body was answered \(statusCode) "
                + "(Content-Range: \(contentRange ?? "none")): the resource changed or the server stopped serving ranges"
        }
    }

    /// What the first response means.
    enum FirstAnswer {
        /// Take it as it is.
        case whole
        /// The whole body, presented as the `200` it stands for.
        case complete(presented: HTTPURLResponse)
        /// The first segment of the body; the caller sees `presented`.
        case segmented(URLSessionDownloadSegments, presented: HTTPURLResponse)
        /// Send the request again without the `Range`.
        case retryWithoutRange
    }

    /// The size of the whole body.
    let totalBytes: Int64
    /// The most bytes one task fetches.
    let segmentBytes: Int64
    /// The `If-Range` value.
    let validator: String
    /// Where the current task's bytes end (exclusive).
    private(set) var end: Int64

    /// The segment size for `request`: `configured`, or `nil` (one task) when the request carries `Authorization` or
    /// `Proxy-Authorization` or an `HTTPInterceptor` changed it after preparation, since a signature over its fields
    /// would not cover a segment's `Range`.
    static func segmentBytes(for request: HTTPRequest, configured: Int64?) -> Int64? {
        guard let configured else { return nil }
        let signed =
            request.changedAfterPreparation || request.headers.contains(.authorization)
            || request.headers.contains(.proxyAuthorization)
        return signed ? nil : configured
    }

    /// `request` asking for its first segment, or `nil` when its body should come in one task.
    static func firstRequest(for request: URLRequest, segmentBytes: Int64) -> URLRequest? {
        guard segmentBytes > 0, request.httpMethod ?? "GET" == "GET",
            request.value(forHTTPHeaderField: "Range") == nil
        else { return nil }
        var ranged = request
        ranged.setValue("bytes=0-\(segmentBytes - 1)", forHTTPHeaderField: "Range")
        return ranged
    }

    /// What `response`, to a request made by ``firstRequest(for:segmentBytes:)``, means.
    static func answer(to response: HTTPURLResponse, segmentBytes: Int64) -> FirstAnswer {
        switch response.statusCode {
        case 206:
            guard let contentRange = response.value(forHTTPHeaderField: "Content-Range"),
                let range = ContentRange(contentRange), range.first == 0, range.last < range.total,
                let presented = presentation(of: response, totalBytes: range.total)
            else { return .retryWithoutRange }
            if range.last + 1 == range.total { return .complete(presented: presented) }
            let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
            guard let validator = etag ?? response.value(forHTTPHeaderField: "Last-Modified") else {
                return .retryWithoutRange
            }
            let segments = URLSessionDownloadSegments(
                totalBytes: range.total,
                segmentBytes: segmentBytes,
                validator: validator,
                end: range.last + 1
            )
            return .segmented(segments, presented: presented)
        case 416:
            return .retryWithoutRange
        default:
            return .whole
        }
    }

    /// `request` without the headers ``firstRequest(for:segmentBytes:)`` added.
    static func withoutRange(_ request: URLRequest) -> URLRequest {
        var plain = request
        plain.setValue(nil, forHTTPHeaderField: "Range")
        plain.setValue(nil, forHTTPHeaderField: "If-Range")
        return plain
    }

    /// The `200` a `206` for part of a `totalBytes`-byte body stands for.
    private static func presentation(of response: HTTPURLResponse, totalBytes: Int64) -> HTTPURLResponse? {
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields {
            switch name.lowercased() {
            case "content-range": continue
            case "content-length": fields[name] = String(totalBytes)
            default: fields[name] = value
            }
        }
        guard let url = response.url else { return nil }
        return HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)
    }

    /// Whether the current task's bytes are all in, with more of the body left to fetch.
    func needsNextSegment(at offset: Int64) -> Bool {
        offset == end && offset < totalBytes
    }

    /// The request for the segment that starts at `offset`: `hop` (the request the first response answered) with
    /// `Range` and `If-Range`. It moves ``end`` to that segment's end.
    mutating func request(after hop: URLRequest, from offset: Int64) -> URLRequest {
        end = min(offset + segmentBytes, totalBytes)
        var next = hop
        next.setValue("bytes=\(offset)-\(end - 1)", forHTTPHeaderField: "Range")
        next.setValue(validator, forHTTPHeaderField: "If-Range")
        return next
    }

    /// Checks that `response` serves the segment starting at `offset` of the same body — a `206` whose
    /// `Content-Range` starts there and names the same total — and takes its end (a server may send less than was
    /// asked).
    mutating func accept(_ response: HTTPURLResponse, at offset: Int64) -> Mismatch? {
        let contentRange = response.value(forHTTPHeaderField: "Content-Range")
        guard response.statusCode == 206, let contentRange, let range = ContentRange(contentRange),
            range.first == offset, range.last >= offset, range.last < end, range.total == totalBytes
        else { return Mismatch(statusCode: response.statusCode, contentRange: contentRange) }
        end = range.last + 1
        return nil
    }
}

/// A `Content-Range` field of a `206`: `bytes first-last/total`. Package-wide for `Fuzz/FuzzContentRange`.
package struct ContentRange: Equatable, Sendable {
    /// The first byte's offset.
    package let first: Int64
    /// The last byte's offset (inclusive).
    package let last: Int64
    /// The size of the whole body.
    package let total: Int64

    /// Parses `field`; `nil` when it is not a satisfied range of a known total.
    package init?(_ field: String) {
        let value = field.drop(while: { $0 == " " })
        guard value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst("bytes ".count)
            .split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let total = Int64(parts[1].filter { $0 != " " }) else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first >= 0,
            first <= last, total > 0
        else { return nil }
        self.first = first
        self.last = last
        self.total = total
    }
}
