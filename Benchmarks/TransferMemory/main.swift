// Downloads a URL to a file, or uploads a file, through BothamAPIClient and the default URLSessionHTTPClient (or
// NativeHTTPClient with TRANSFER_MEMORY_TRANSPORT=native), and prints the peak resident set size. Used by scripts/transfer-memory.sh to show that a 1 GiB transfer stays within
// a bounded amount of memory.
//
//     swift run -c release TransferMemory download http://127.0.0.1:8080/big.bin /tmp/big.copy
//     swift run -c release TransferMemory upload http://127.0.0.1:8081/upload /tmp/big.bin
import BothamNetworking
import BothamNetworkingNative
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts progress reports and keeps the last one.
final class ProgressSummary: Sendable {
    private let state = Lock<(count: Int, last: TransferProgress?)>((0, nil))

    func record(_ progress: TransferProgress) {
        state.withLock { state in
            state.count += 1
            state.last = progress
        }
    }

    var description: String {
        state.withLock { "\($0.count) reports, last \($0.last.map(String.init(describing:)) ?? "none")" }
    }
}

/// The peak resident set size of this process, in KiB.
func peakResidentKiB() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Int(usage.ru_maxrss)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let url = URL(string: arguments[2]), ["download", "upload"].contains(arguments[1]) else {
    print("usage: TransferMemory download URL DESTINATION | upload URL FILE")
    exit(2)
}
let transport: any HTTPClient =
    ProcessInfo.processInfo.environment["TRANSFER_MEMORY_TRANSPORT"] == "native"
    ? NativeHTTPClient() : URLSessionHTTPClient()
let apiClient = BothamAPIClient(baseEndpoint: url.absoluteString, httpClient: transport)
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
print("peak RSS: \(peakResidentKiB()) KiB")
exit(result.isSuccess ? 0 : 1)

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
