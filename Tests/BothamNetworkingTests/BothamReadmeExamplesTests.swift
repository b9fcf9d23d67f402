import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

// The original BothamNetworking README's examples, written as close to the original as Swift 6 allows, run against
// StubHTTPClient and asserting what each example promises.

/// From the README: "You can add interceptors to modify your requests and responses."
final class JSONHeadersRequestInterceptor: BothamRequestInterceptor {
    func intercept(request: HTTPRequest) -> HTTPRequest {
        request.appendingHeaders(["Content-Type": "application/json", "Accept": "application/json"])
    }
}

/// From the README: a response interceptor that asks for the request to be sent again.
final class RetryInterceptor: BothamResponseInterceptor {
    func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult {
        if response.statusCode == 401 {
            return .retry
        } else {
            return .proceed(response)
        }
    }
}

@Suite("The original README's examples", .timeLimit(.minutes(1)))
struct BothamReadmeExamplesTests {
    let stubClient = StubHTTPClient()
    let apiClient: BothamAPIClient

    init() {
        stubClient.stub(with: .json(["results": [["id": "1", "name": "BothamNetworking"]]]))
        apiClient = BothamAPIClient(
            baseEndpoint: "https://api.github.com/repos/Karumi/BothamNetworking",
            httpClient: stubClient
        )
    }

    @Test("Sending a request with each verb")
    func sendWithEachVerb() async {
        _ = await apiClient.GET("/issues")
        _ = await apiClient.POST("/issues")
        _ = await apiClient.PUT("/issues")
        _ = await apiClient.DELETE("/issues")
        _ = await apiClient.PATCH("/issues")
        let sent = stubClient.receivedRequests
        #expect(sent.map(\.method) == [.get, .post, .put, .delete, .patch])
        #expect(
            sent.allSatisfy {
                $0.url?.absoluteString == "https://api.github.com/repos/Karumi/BothamNetworking/issues"
            }
        )
    }

    @Test("Completion with result")
    func completionWithResult() async {
        let statusCode: Int? = await withCheckedContinuation { continuation in
            apiClient.GET("/issues") { result in
                switch result {
                case .success(let response):
                    continuation.resume(returning: response.statusCode)
                case .failure:
                    continuation.resume(returning: nil)
                }
            }
        }
        #expect(statusCode == 200)
    }

    @Test("Mapping the response body as JSON")
    func mapJSON() async throws {
        let names = try await apiClient.GET("/repos").mapJSON { json -> [String] in
            guard case .array(let results)? = json["results"] else { return [] }
            return results.compactMap { result in
                guard case .string(let name)? = result["name"] else { return nil }
                return name
            }
        }.get()
        #expect(names == ["BothamNetworking"])
    }

    @Test("Decoding the response body")
    func decoding() async throws {
        struct Results: Decodable {
            struct Repo: Decodable { let id: String }
            let results: [Repo]
        }
        let results = try await apiClient.GET("/repos").decoded(as: Results.self).get()
        #expect(results.results.map(\.id) == ["1"])
    }

    @Test("Headers")
    func headers() async throws {
        _ = await apiClient.GET("/repos", headers: ["User-Token": "AAAA"])
        #expect(stubClient.receivedRequests.first?.headers["User-Token"] == "AAAA")
    }

    @Test("Parameters")
    func parameters() async throws {
        _ = await apiClient.GET("/repos", parameters: ["Page": "1", "PerPage": "20"])
        #expect(stubClient.receivedRequests.first?.url?.query == "Page=1&PerPage=20")
    }

    @Test("Body")
    func body() async throws {
        _ = await apiClient.POST("/authorizations", body: ["scopes": ["repo_status", "user:email"]])
        let sent = try #require(stubClient.receivedRequests.first)
        #expect(sent.bodyText == #"{"scopes":["repo_status","user:email"]}"#)
        #expect(sent.headers[.contentType] == "application/json")
    }

    @Test("Local request interceptors")
    func localRequestInterceptors() async throws {
        apiClient.requestInterceptors.append(JSONHeadersRequestInterceptor())
        _ = await apiClient.GET("/issues")
        let sent = try #require(stubClient.receivedRequests.first)
        #expect(sent.headers["Content-Type"] == "application/json")
        #expect(sent.headers["Accept"] == "application/json")
    }

    @Test("Global request interceptors")
    func globalRequestInterceptors() async throws {
        let log = Recorder<String>()
        let endpoint = uniqueEndpoint()
        let registration = BothamAPIClient.globalRequestInterceptors.append(
            RecordingRequestInterceptor(name: "global", log: log, host: URL(string: endpoint)?.host)
        )
        defer { BothamAPIClient.globalRequestInterceptors.remove(registration) }
        let apiClient = BothamAPIClient(baseEndpoint: endpoint, httpClient: stubClient)
        _ = await apiClient.GET("/issues")
        #expect(log.values == ["request:global"])
    }

    @Test("A retry response interceptor")
    func retryInterceptor() async throws {
        stubClient.stub(with: .response(statusCode: 401), .response(statusCode: 200))
        apiClient.responseInterceptors.append(RetryInterceptor())
        let response = try await apiClient.GET("/issues").get()
        #expect(response.statusCode == 200)
        #expect(stubClient.receivedRequests.count == 2)
    }
}
