import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@Suite("Redactor and cURL description", .timeLimit(.minutes(1)))
struct RedactorAndCURLTests {
    let secretRequest = HTTPRequest(
        method: .post,
        baseEndpoint: "https://jane:SECRET-PASSWORD@api.example.com",
        path: "/login?Access_Token=SECRET-QUERY",
        parameters: ["page": "2"],
        headers: [.authorization: "Bearer SECRET-AUTH", .cookie: "SECRET-COOKIE", "X-Api-Key": "SECRET-KEY"],
        body: .text("hello")
    )
    let redactor = Redactor(headerNames: ["x-api-key"], queryParameterNames: ["access_token"])

    /// Runs `command` in `sh` with `curl` replaced by a function printing each argument as `<arg>`, and stdin.
    func runWithFakeCurl(_ command: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "curl() { for a in \"$@\"; do printf '<%s>\\n' \"$a\"; done; }\n" + command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return data
    }

    @Test("The default redactor hides credentials headers, named headers, named query values and URL passwords")
    func redaction() throws {
        let headers = redactor.redact(secretRequest.headers)
        #expect(headers[.authorization] == "REDACTED")
        #expect(headers[.cookie] == "REDACTED")
        #expect(headers["X-API-KEY"] == "REDACTED")
        let url = redactor.redactedURL(of: secretRequest)
        #expect(url == "https://jane:REDACTED@api.example.com/login?Access_Token=REDACTED&page=2")
        #expect(Redactor.none.redact(secretRequest.headers) == secretRequest.headers)
    }

    @Test("The cURL command is redacted by default and shows everything with the explicit opt-out")
    func curlRedaction() {
        let command = secretRequest.cURLDescription(redactor: redactor)
        for secret in ["SECRET-PASSWORD", "SECRET-QUERY", "SECRET-AUTH", "SECRET-COOKIE", "SECRET-KEY"] {
            #expect(!command.contains(secret))
        }
        #expect(!secretRequest.cURLDescription().contains("SECRET-AUTH"))
        #expect(secretRequest.cURLDescription(redactor: .none).contains("Bearer SECRET-AUTH"))
    }

    @Test("The shell sees exactly the method, URL, headers and body, whatever quotes and metacharacters they hold")
    func curlQuotingRoundTrips() throws {
        let body = "it's a \"test\"\n$HOME `id` $(id) \\ ' '' \u{e9}"
        let request = HTTPRequest(
            method: .put,
            baseEndpoint: "https://api.example.com",
            path: "/it's",
            headers: ["X-Quote": "a'b\"c $PATH", .contentType: "text/plain"],
            body: .text(body)
        )
        let output = try runWithFakeCurl(request.cURLDescription(redactor: .none))
        let expected = [
            "-X", "PUT", "https://api.example.com/it's", "-H", "X-Quote: a'b\"c $PATH", "-H",
            "Content-Type: text/plain",
            "--data-binary", body,
        ].map { "<\($0)>\n" }.joined()
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test("Dictionary bodies are encoded and their Content-Type shown; GET and HEAD use curl's own flags")
    func curlPreparedBody() throws {
        let post = HTTPRequest(method: .post, baseEndpoint: "https://api.example.com", body: ["a": 1])
        let output = String(decoding: try runWithFakeCurl(post.cURLDescription()), as: UTF8.self)
        #expect(output.contains("<Content-Type: application/json>\n<--data-binary>\n<{\"a\":1}>\n"))
        let get = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com")
        #expect(get.cURLDescription() == "curl 'https://api.example.com'")
        let head = HTTPRequest(method: .head, baseEndpoint: "https://api.example.com")
        #expect(head.cURLDescription() == "curl --head 'https://api.example.com'")
    }

    @Test("File bodies are referenced, never read, by cURL and logging")
    func fileBodies() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("botham-curl-\(UUID().uuidString)")
        try Data([0xFF, 0x00, 0x41]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let request = HTTPRequest(method: .put, baseEndpoint: "https://api.example.com", body: .file(url))
        #expect(request.cURLDescription().hasSuffix("--data-binary '@\(url.path)'"))

        let lines = Recorder<String>()
        let logging = LoggingInterceptor(detail: .body, sink: LoggingInterceptor.Sink { lines.append($1) })
        let next = HTTPInterceptorNext { HTTPResponse(statusCode: 204, request: $0) }
        _ = try await logging.intercept(
            request, context: HTTPCallContext(callID: 1, attempt: 1, maxAttempts: 1), next: next)
        #expect(lines.values.first?.hasSuffix("(3 bytes)") == true)
        #expect(lines.values.first?.contains(url.lastPathComponent) == true)
    }

    @Test("Binary bodies reach curl's stdin byte for byte")
    func curlBinaryBody() throws {
        let bytes = Data([0, 1, 0x27, 0x5C, 0x0A, 0x7F, 0x80, 0xFF, 0x25, 0x62])
        let request = HTTPRequest(method: .post, baseEndpoint: "https://api.example.com", body: .data(bytes))
        let command = request.cURLDescription()
        #expect(command.hasPrefix("printf '%b' '"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "curl() { cat; }\n" + command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(data == bytes)
    }
}
