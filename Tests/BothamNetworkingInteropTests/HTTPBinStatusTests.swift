import BothamNetworking
import Foundation
import Testing

extension HTTPBinInteropTests {
    @Suite("httpbin: status codes and authentication", .timeLimit(.minutes(1)))
    struct HTTPBinStatusTests {
        let apiClient = HTTPBin.client()

        @Test("/status/{code} comes back as a response", arguments: [200, 201, 204, 400, 404, 418, 500, 503])
        func statusCodes(code: Int) async throws {
            let response = try await apiClient.GET("/status/\(code)").get()
            #expect(response.statusCode == code)
        }

        @Test("a non-2xx status is an httpResponseError with the default validation")
        func defaultValidation() async throws {
            let strict = BothamAPIClient(baseEndpoint: HTTPBin.url ?? "", httpClient: HTTPBin.transport())
            let result = await strict.GET("/status/404")
            #expect(result.failureStatusCode == 404)
        }

        @Test("/basic-auth with the right credentials is 200")
        func basicAuthRight() async throws {
            let credentials = Data("user:passwd".utf8).base64EncodedString()
            let response = try await apiClient.GET(
                "/basic-auth/user/passwd", headers: ["Authorization": "Basic \(credentials)"]
            )
            .get()
            #expect(response.statusCode == 200)
            #expect(try response.json()["authenticated"] == true)
        }

        @Test("/basic-auth with wrong credentials comes back promptly as 401", arguments: [true, false])
        func basicAuthWrong(sendsCredentials: Bool) async throws {
            let wrong = Data("user:wrong".utf8).base64EncodedString()
            let headers: HTTPHeaders = sendsCredentials ? ["Authorization": "Basic \(wrong)"] : [:]
            let (result, duration) = await elapsed { await apiClient.GET("/basic-auth/user/passwd", headers: headers) }
            let response = try result.get()
            #expect(response.statusCode == 401)
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            #expect(duration < .seconds(2))
        }

        @Test("/bearer accepts a token and answers 401 promptly without one")
        func bearer() async throws {
            let ok = try await apiClient.GET("/bearer", headers: ["Authorization": "Bearer t0k3n"]).get()
            #expect(ok.statusCode == 200)
            #expect(try ok.json()["token"] == "t0k3n")
            let (result, duration) = await elapsed { await apiClient.GET("/bearer") }
            #expect(try result.get().statusCode == 401)
            #expect(duration < .seconds(2))
        }
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    /// The status code of an `httpResponseError`, or `nil`.
    var failureStatusCode: Int? {
        guard case .failure(let error) = self else { return nil }
        return error.statusCode
    }
}
