import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports: pages follow a GitHub-style Link header", .timeLimit(.minutes(1)))
    struct TransportPaginationTests {
        struct Issue: Decodable, Sendable, Equatable {
            let number: Int
        }

        /// Serves `/repos/o/r/issues?per_page=2&page=N` for three pages of two issues, linking each page to the next,
        /// the first and the last as GitHub does (relative links on the second page).
        static func serve(_ server: MockWebServer) {
            let base = server.url("/repos/o/r/issues").absoluteString
            server.setDispatcher { request in
                let page = request.queryItems.first { $0.name == "page" }.flatMap { $0.value.flatMap(Int.init) } ?? 1
                let numbers = [2 * page - 1, 2 * page]
                var links: [String] = []
                if page < 3 {
                    let next = page == 2 ? "/repos/o/r/issues?per_page=2&page=3" : "\(base)?per_page=2&page=\(page + 1)"
                    links.append(#"<\#(next)>; rel="next""#)
                }
                links.append(#"<\#(base)?per_page=2&page=3>; rel="last""#)
                return MockResponse().withHeader("Link", links.joined(separator: ", "))
                    .withJSONBody("[" + numbers.map { #"{"number":\#($0)}"# }.joined(separator: ",") + "]")
            }
        }

        @Test(
            "pages and items read every page through the Link header's next links",
            arguments: TransportUnderTest.allCases)
        func pagesFollowLinks(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            Self.serve(server)
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: transport.make(),
                configuration: .init(maxRetries: 0))
            let issues = Endpoint<[Issue]>(.get, "/repos/o/r/issues", parameters: ["per_page": .int(2)])

            var numbers: [Int] = []
            for try await issue in apiClient.pages(of: issues).items { numbers.append(issue.number) }
            #expect(numbers == [1, 2, 3, 4, 5, 6])
            var targets: [String] = []
            for _ in 0..<3 { targets.append(try await server.takeRequest().target) }
            #expect(
                targets == [
                    "/repos/o/r/issues?per_page=2", "/repos/o/r/issues?per_page=2&page=2",
                    "/repos/o/r/issues?per_page=2&page=3",
                ])

            var pageCount = 0
            for try await _ in apiClient.pages(of: issues, maxPages: 2) { pageCount += 1 }
            #expect(pageCount == 2)
            #expect(server.requestCount == 5)
        }
    }
}
