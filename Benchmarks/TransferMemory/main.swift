// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    // Downloads a URL to a file, uploads a file, or streams a response body (`apiClient.stream`, read chunk by chunk),
    // through BothamAPIClient and the default URLSessionHTTPClient (or NativeHTTPClient with
    // TRANSFER_MEMORY_TRANSPORT=native), and prints the peak resident set size. Used by scripts/transfer-memory.sh to
    // show that a 1 GiB transfer stays within a bounded amount of memory.
    //
    //     cd Benchmarks
    //     swift run -c release TransferMemory download http://127.0.0.1:8080/big.bin /tmp/big.copy
    //     swift run -c release TransferMemory upload http://127.0.0.1:8081/upload /tmp/big.bin
    //     swift run -c release TransferMemory stream http://127.0.0.1:8080/big.bin - | sha256sum
    //
    // `stream` counts the chunks and bytes (and fails unless every byte of the Content-Length arrived); with `-` it also
    // writes each chunk to standard output as it comes (so that a pipe can hash it), and then reports on standard
    // error.
    import BenchmarkSupport
    import BothamNetworking
    import BothamNetworkingNative
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    // `@unchecked Sendable`: `count` and `last` are read and written only while `lock` is held. (The library's own
    // lock is `package` API, which a program outside its package cannot use.)
    /// Counts progress reports and keeps the last one.
    final class ProgressSummary: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var last: TransferProgress?

        func record(_ progress: TransferProgress) {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            last = progress
        }

        var description: String {
            lock.lock()
            defer { lock.unlock() }
            return "\(count) reports, last \(last.map(String.init(describing:)) ?? "none")"
        }
    }

    /// Writes all of `chunk` to standard output; false when it cannot (the reader of the pipe is gone).
    func writeToStandardOutput(_ chunk: Data) -> Bool {
        chunk.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let written = write(1, base + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// What one streamed body delivered.
    struct StreamSummary {
        var status = 0
        var contentLength: Int?
        var bytes = 0
        var chunks = 0
        var largestChunk = 0
        var error: String?
    }

    /// `apiClient.stream(.get, …)` read to its end, one chunk at a time, each chunk dropped once counted (and written).
    func streamBody(_ apiClient: BothamAPIClient, copyToStandardOutput: Bool) async -> StreamSummary {
        var summary = StreamSummary()
        do {
            // The timeout bounds the wait for the head and each wait for the next chunk, not the whole body.
            let response = try await apiClient.stream(apiClient.request(.get, "").withTimeout(.seconds(60)))
            summary.status = response.head.statusCode
            summary.contentLength = response.head.headers[.contentLength].flatMap { Int($0) }
            for try await chunk in response.body {
                summary.bytes += chunk.count
                summary.chunks += 1
                summary.largestChunk = max(summary.largestChunk, chunk.count)
                if copyToStandardOutput && !writeToStandardOutput(chunk) {
                    summary.error = "cannot write to standard output (errno \(errno))"
                    response.body.cancel()
                    break
                }
            }
        } catch {
            summary.error = "\(error)"
        }
        return summary
    }

    let arguments = CommandLine.arguments
    let modeIsValid =
        (arguments.count == 4 && ["download", "upload", "stream"].contains(arguments[1]))
        || (arguments.count == 3 && arguments[1] == "stream")
    guard modeIsValid, let url = URL(string: arguments[2]) else {
        print("usage: TransferMemory download URL DESTINATION | upload URL FILE | stream URL [-]")
        exit(2)
    }
    let transport: any HTTPClient =
        ProcessInfo.processInfo.environment["TRANSFER_MEMORY_TRANSPORT"] == "native"
        ? NativeHTTPClient() : URLSessionHTTPClient()
    let apiClient = BothamAPIClient(baseEndpoint: url.absoluteString, httpClient: transport)
    if arguments[1] == "stream" {
        let copy = arguments.count == 4
        guard !copy || arguments[3] == "-" else {
            print("stream: the only output is - (standard output)")
            exit(2)
        }
        let stopwatch = Stopwatch()
        let summary = await streamBody(apiClient, copyToStandardOutput: copy)
        let seconds = stopwatch.seconds
        let complete =
            summary.error == nil && summary.status == 200 && summary.contentLength.map { $0 == summary.bytes } ?? true
        let lines = [
            "status \(summary.status); Content-Length \(summary.contentLength.map(String.init) ?? "none"); "
                + "received \(summary.bytes) bytes in \(summary.chunks) chunks (largest \(summary.largestChunk))"
                + (summary.error.map { "; failed: \($0)" } ?? ""),
            "elapsed: \(elapsed) (\(String(format: "%.0f", Double(summary.bytes) / 1_048_576 / seconds)) MiB/s)",
            "peak RSS: \(ResourceUsage.now().maxRSSKiB) KiB",
        ]
        // Standard output carries the body when it is copied.
        let text = lines.joined(separator: "\n") + "\n"
        if copy { FileHandle.standardError.write(Data(text.utf8)) } else { print(text, terminator: "") }
        exit(complete ? 0 : 1)
    }
    let summary = ProgressSummary()
    // TRANSFER_MEMORY_PROGRESS=off measures the transfer without a progress handler.
    let progress: (@Sendable (TransferProgress) -> Void)? =
        ProcessInfo.processInfo.environment["TRANSFER_MEMORY_PROGRESS"] == "off" ? nil : summary.record
    let file = URL(fileURLWithPath: arguments[3])
    let start = ContinuousClock.now
    let result: Result<HTTPResponse, APIClientError>
    if arguments[1] == "download" {
        let request = apiClient.request(.get, "").withTimeout(.seconds(600))
        result = await apiClient.download(request, to: .file(file, options: [.replaceExistingFile]), progress: progress)
    } else {
        let request = apiClient.request(.post, "", body: .file(file, contentType: "application/octet-stream"))
            .withTimeout(.seconds(600))
        if let progress {
            result = await apiClient.send(request, progress: progress)
        } else {
            result = await apiClient.send(request)
        }
    }
    let elapsed = ContinuousClock.now - start
    switch result {
    case .success(let response):
        let body = response.bodyFileURL?.path ?? (String(data: response.body, encoding: .utf8) ?? "")
        print("status \(response.statusCode); body: \(body)")
    case .failure(let error):
        print("failed: \(error)")
    }
    print("progress: \(summary.description)")
    print("elapsed: \(elapsed)")
    print("peak RSS: \(ResourceUsage.now().maxRSSKiB) KiB")
    exit(result.isSuccess ? 0 : 1)

    extension Result {
        var isSuccess: Bool {
            if case .success = self { return true }
            return false
        }
    }

#else
    print("TransferMemory runs on Linux only")
#endif
