import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@Suite("CookieJar as an interceptor", .timeLimit(.minutes(1)))
struct CookieInterceptorTests {
    let context = HTTPCallContext(callID: 1, attempt: 1, maxAttempts: 1)

    @Test("it stores each Set-Cookie of a response and sends them back after the request's own Cookie")
    func storesAndSends() async throws {
        let jar = CookieTest.jar()
        let interceptor = jar
        let sent = Recorder<HTTPRequest>()
        let next = HTTPInterceptorNext { request in
            sent.append(request)
            var headers = HTTPHeaders()
            headers.add(.setCookie, "a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT")
            headers.add(.setCookie, "b=2")
            return HTTPResponse(statusCode: 200, headers: headers, request: request)
        }
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com/v1/")
        _ = try await interceptor.intercept(request, context: context, next: next)
        _ = try await interceptor.intercept(request.withHeader(.cookie, "mine=0"), context: context, next: next)
        _ = try await interceptor.intercept(request, context: context, next: next)

        let cookies = sent.values.map { $0.headers.values(for: .cookie) }
        #expect(cookies == [[], ["mine=0; a=1; b=2"], ["a=1; b=2"]])
    }
}
