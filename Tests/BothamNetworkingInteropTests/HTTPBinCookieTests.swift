import BothamNetworking
import BothamNetworkingNative
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPBinInteropTests {
    @Suite("httpbin: cookies through a CookieJar interceptor, the same on both transports", .timeLimit(.minutes(1)))
    struct HTTPBinCookieTests {
        let jar = CookieJar()

        /// A client with `jar` whose transport follows no redirect (so the jar sees each 302's `Set-Cookie`); the
        /// default URLSession configuration keeps no cookie storage of its own.
        private var apiClient: BothamAPIClient {
            let transport: any HTTPClient
            if HTTPBin.runsOnNative {
                var configuration = NativeHTTPClient.Configuration()
                configuration.redirectPolicy = .doNotFollow
                transport = NativeHTTPClient(configuration: configuration)
            } else {
                transport = URLSessionHTTPClient(configuration: .init(redirectPolicy: .doNotFollow))
            }
            let apiClient = BothamAPIClient(
                baseEndpoint: HTTPBin.url ?? "http://127.0.0.1:9", httpClient: transport,
                configuration: .init(validation: .acceptAll))
            apiClient.interceptors.append(jar)
            return apiClient
        }

        @Test("/cookies/set's cookie is stored from its 302 and sent back to /cookies")
        func setAndEcho() async throws {
            let apiClient = apiClient
            let set = try await apiClient.GET("/cookies/set", parameters: ["flavour": "oat"]).get()
            #expect(set.statusCode == 302)
            #expect(jar.allCookies.map(\.name) == ["flavour"])

            let echo = try await apiClient.GET("/cookies").get()
            #expect(try echo.json()["cookies"]?["flavour"] == "oat", "\(String(decoding: echo.body, as: UTF8.self))")
        }

        @Test("/cookies/set followed inside the transport: its 302's cookie is stored and sent on the hop to /cookies")
        func setFollowedInsideTheTransport() async throws {
            let transport: any HTTPClient = HTTPBin.runsOnNative ? NativeHTTPClient() : URLSessionHTTPClient()
            let apiClient = BothamAPIClient(
                baseEndpoint: HTTPBin.url ?? "http://127.0.0.1:9", httpClient: transport,
                configuration: .init(validation: .acceptAll))
            apiClient.interceptors.append(jar)

            let echo = try await apiClient.GET("/cookies/set", parameters: ["flavour": "oat"]).get()

            #expect(echo.url?.path == "/cookies")
            #expect(jar.allCookies.map(\.name) == ["flavour"])
            #expect(try echo.json()["cookies"]?["flavour"] == "oat", "\(String(decoding: echo.body, as: UTF8.self))")
        }

        @Test("/cookies/delete's expired cookie removes it from the jar")
        func delete() async throws {
            let apiClient = apiClient
            _ = try await apiClient.GET("/cookies/set", parameters: ["flavour": "oat"]).get()
            _ = try await apiClient.GET("/cookies/delete", parameters: ["flavour": ""]).get()
            #expect(jar.allCookies.isEmpty)
            let echo = try await apiClient.GET("/cookies").get()
            #expect(try echo.json()["cookies"] == [:])
        }

        @Test("two Set-Cookie fields of one response are both stored and both sent back")
        func twoFields() async throws {
            let apiClient = apiClient
            let twoCookies = HTTPParameters([
                .init(name: "Set-Cookie", value: "a=1; Path=/"), .init(name: "Set-Cookie", value: "b=2; Path=/"),
            ])
            let response = try await apiClient.GET("/response-headers", parameters: twoCookies).get()
            #expect(response.headers.values(for: .setCookie).count == 2)
            #expect(Set(jar.allCookies.map(\.name)) == ["a", "b"])

            let echo = try await apiClient.GET("/cookies").get()
            let cookies = try echo.json()["cookies"]
            #expect(cookies?["a"] == "1" && cookies?["b"] == "2")
        }
    }
}
