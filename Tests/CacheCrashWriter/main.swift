import BothamNetworking
import Foundation

// The writer of `DiskCacheCrashTests`: stores large entries in the disk store at the folder given as its argument,
// for ever, printing "stored N" after each one, until the test kills it (SIGKILL, usually in the middle of a write).
// Each body is one byte repeated (the entry's number), and its `X-Fill` / `X-Length` fields say which and how many,
// so a reader can tell a whole entry from a torn one.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: CacheCrashWriter FOLDER\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: CommandLine.arguments[1])
let cache = CacheInterceptor(storage: .disk(directory: folder, maxBytes: 64 << 20))
let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com", path: "/torn")
let context = HTTPCallContext(callID: 1, attempt: 1, maxAttempts: 1)
var number = 0
while true {
    number += 1
    let fill = UInt8(truncatingIfNeeded: number % 251)
    let length = (4 << 20) + number % 4096
    let next = HTTPInterceptorNext { request in
        HTTPResponse(
            statusCode: 200,
            headers: ["Cache-Control": "max-age=86400", "X-Fill": "\(fill)", "X-Length": "\(length)"],
            body: Data(repeating: fill, count: length), request: request)
    }
    _ = try? await cache.intercept(request, context: context, next: next)
    FileHandle.standardOutput.write(Data("stored \(number)\n".utf8))
}
