import BothamNetworking
import Foundation
import Testing

extension HTTPBinInteropTests {
    @Suite("httpbin: redirects", .timeLimit(.minutes(1)))
    struct HTTPBinRedirectTests {
        let apiClient = HTTPBin.client()
        let credentials: HTTPHeaders = [
            "Authorization": "Bearer secret",
            "Proxy-Authorization": "Basic cHJveHk6cHc=",
            "Cookie": "session=abc",
            "X-Custom": "kept",
        ]

        private func redirect(to url: String, status: Int? = nil) -> String {
            var path = "/redirect-to?url=\(HTTPBin.queryValue(url))"
            if let status { path += "&status_code=\(status)" }
            return path
        }

        @Test("a same-origin redirect keeps Authorization")
        func sameOriginKeepsCredentials() async throws {
            let response = try await apiClient.GET(redirect(to: (HTTPBin.url ?? "") + "/headers"), headers: credentials)
                .get()
            let headers = try response.json()["headers"]
            #expect(headers?["Authorization"] == "Bearer secret")
            #expect(headers?["X-Custom"] == "kept")
        }

        @Test("a redirect to another origin strips Authorization, Proxy-Authorization and Cookie")
        func crossOriginStripsCredentials() async throws {
            let response = try await apiClient.GET(redirect(to: HTTPBin.otherOrigin + "/headers"), headers: credentials)
                .get()
            #expect(response.url?.absoluteString.hasPrefix(HTTPBin.otherOrigin) == true)
            let headers = try response.json()["headers"]
            #expect(headers?["Authorization"] == nil)
            #expect(headers?["Proxy-Authorization"] == nil)
            #expect(headers?["Cookie"] == nil)
            #expect(headers?["X-Custom"] == "kept")
        }

        @Test("/absolute-redirect/{n} is followed to the end")
        func absoluteRedirects() async throws {
            let response = try await apiClient.GET("/absolute-redirect/3").get()
            #expect(response.statusCode == 200)
            #expect(response.url?.path == "/get")
        }

        @Test("/redirect/{n} beyond followAtMost ends with tooManyRedirects")
        func beyondLimit() async throws {
            let limited = HTTPBin.client(.init(redirectPolicy: .followAtMost(3)))
            #expect(try await limited.GET("/redirect/3").get().statusCode == 200)
            let result = await limited.GET("/redirect/4")
            guard case .failure(.networkError(let failure)) = result else {
                Issue.record("expected tooManyRedirects, got \(result)")
                return
            }
            #expect(failure.kind == .tooManyRedirects)
        }

        @Test("an endless chain ends with tooManyRedirects under the default policy")
        func defaultPolicyCap() async throws {
            let result = await apiClient.GET("/redirect/25")
            guard case .failure(.networkError(let failure)) = result else {
                Issue.record("expected tooManyRedirects, got \(result)")
                return
            }
            #expect(failure.kind == .tooManyRedirects)
        }

        @Test("doNotFollow returns the 3xx itself")
        func doNotFollow() async throws {
            let raw = HTTPBin.client(.init(redirectPolicy: .doNotFollow))
            let response = try await raw.GET("/redirect/2").get()
            #expect(response.statusCode == 302)
            #expect(response.headers[.location] != nil)
        }

        @Test("a 307/308 keeps the method and the body", arguments: [307, 308])
        func keepsMethodAndBody(status: Int) async throws {
            let target = (HTTPBin.url ?? "") + "/anything/target"
            let response = try await apiClient.POST(
                redirect(to: target, status: status),
                headers: ["Authorization": "Bearer secret"],
                body: .text("the body")
            ).get()
            let json = try response.json()
            #expect(json["method"] == "POST")
            #expect(json["data"] == "the body")
            #expect(json["headers"]?["Authorization"] == "Bearer secret")
            #expect(response.url?.path == "/anything/target")
        }

        @Test("a cross-origin 307 keeps the body and strips Authorization")
        func crossOrigin307() async throws {
            let response = try await apiClient.PUT(
                redirect(to: HTTPBin.otherOrigin + "/anything", status: 307),
                headers: ["Authorization": "Bearer secret"],
                body: ["k": "v"]
            ).get()
            let json = try response.json()
            #expect(json["method"] == "PUT")
            #expect(json["json"] == ["k": "v"])
            #expect(json["headers"]?["Authorization"] == nil)
        }

        @Test("a 302 after POST becomes a GET without the body")
        func postFoundBecomesGet() async throws {
            let target = (HTTPBin.url ?? "") + "/anything"
            let response = try await apiClient.POST(redirect(to: target, status: 302), body: .text("dropped")).get()
            let json = try response.json()
            #expect(json["method"] == "GET")
            #expect(json["data"] == "")
        }
    }
}
