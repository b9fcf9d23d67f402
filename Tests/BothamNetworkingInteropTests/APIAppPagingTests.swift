import BothamNetworking
import Foundation
import Testing

extension APIAppInteropTests {
    @Suite("API app: Link and cursor paging", .timeLimit(.minutes(1)))
    struct APIAppPagingTests {
        let apiClient = APIApp.client()

        /// `/items` for `id`: `total` integers, `perPage` a page, links of the `links` form (see scripts/api_app.py).
        func items(id: String, perPage: Int = 3, total: Int = 10, links: String = "absolute") -> Endpoint<[Int]> {
            Endpoint(
                .get, "/items",
                parameters: [
                    "id": .string(id), "per_page": .int(perPage), "total": .int(total), "links": .string(links),
                ])
        }

        /// The `page` of every request the app received for `id`, in order.
        func pagesRequested(_ id: String) async throws -> [String] {
            try await APIApp.requests(for: id).map { received in
                URLComponents(string: "?" + received.query)?.queryItems?.first { $0.name == "page" }?.value ?? "-"
            }
        }

        @Test(
            "pages follow rel=next to the last page, whether the links are absolute URLs, paths or relative",
            arguments: ["absolute", "path", "relative"])
        func followsNextLinks(links: String) async throws {
            let id = APIApp.newID()
            var pages: [[Int]] = []
            for try await page in apiClient.pages(of: items(id: id, links: links)) { pages.append(page) }
            #expect(pages == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]])
            #expect(try await pagesRequested(id) == ["-", "2", "3", "4"])
        }

        @Test(
            "links reads GitHub's prev, next, last and first, resolved against the request's URL",
            arguments: ["absolute", "path", "relative"])
        func linkRelations(links: String) async throws {
            let id = APIApp.newID()
            let response = try await apiClient.GET("/items?id=\(id)&per_page=3&total=10&links=\(links)&page=2").get()
            #expect(response.links.map(\.relations) == [["prev"], ["next"], ["last"], ["first"]])
            let base = try #require(APIApp.url.flatMap { URL(string: $0) })
            for (relation, page) in [("prev", "1"), ("next", "3"), ("last", "4"), ("first", "1")] {
                let url = try #require(response.link(rel: relation)?.url)
                let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
                #expect(url.scheme == base.scheme && url.host == base.host && url.port == base.port)
                #expect(url.path == "/items")
                #expect(components?.queryItems?.first { $0.name == "page" }?.value == page)
                #expect(components?.queryItems?.first { $0.name == "id" }?.value == id)
            }
        }

        @Test("maxPages stops after that many pages and the app never sees a request for the next")
        func maxPages() async throws {
            let id = APIApp.newID()
            var pages: [[Int]] = []
            for try await page in apiClient.pages(of: items(id: id), maxPages: 2) { pages.append(page) }
            #expect(pages == [[1, 2, 3], [4, 5, 6]])
            #expect(try await pagesRequested(id) == ["-", "2"])
        }

        @Test("items flattens every page's elements in order")
        func itemsAcrossPages() async throws {
            let id = APIApp.newID()
            var values: [Int] = []
            for try await value in apiClient.pages(of: items(id: id, perPage: 4, total: 11)).items {
                values.append(value)
            }
            #expect(values == Array(1...11))
            #expect(try await pagesRequested(id) == ["-", "2", "3"])
        }

        @Test("a next link to another origin ends reading after its page, unless followingLinksToOtherOrigins")
        func otherOrigin() async throws {
            let id = APIApp.newID()
            var pages: [[Int]] = []
            do {
                for try await page in apiClient.pages(of: items(id: id, links: "other-origin")) { pages.append(page) }
                Issue.record("expected invalidRequest after the first page")
            } catch {
                guard case .invalidRequest = error else {
                    Issue.record("expected invalidRequest, got \(error)")
                    return
                }
            }
            #expect(pages == [[1, 2, 3]])
            #expect(try await pagesRequested(id) == ["-"])

            let followed = APIApp.newID()
            var values: [Int] = []
            for try await value
                in apiClient.pages(of: items(id: followed, links: "other-origin"), followingLinksToOtherOrigins: true)
                .items
            {
                values.append(value)
            }
            #expect(values == Array(1...10))
        }

        /// A page of `/cursor`.
        struct CursorPage: Decodable, Sendable {
            let items: [Int]
            let nextCursor: String?

            enum CodingKeys: String, CodingKey {
                case items
                case nextCursor = "next_cursor"
            }
        }

        /// `/cursor` for `id` from `cursor` (the first page when `nil`).
        static func cursorPage(id: String, cursor: String?) -> Endpoint<CursorPage> {
            var parameters: [(key: String, value: JSONValue)] = [("id", .string(id)), ("total", .int(10))]
            if let cursor { parameters.append(("cursor", .string(cursor))) }
            return Endpoint(.get, "/cursor", parameters: .object(parameters))
        }

        @Test("cursor pages request the next page with the body's next_cursor until it is null")
        func cursorPaging() async throws {
            let id = APIApp.newID()
            let pages = apiClient.pages(of: Self.cursorPage(id: id, cursor: nil)) { page, _ in
                page.nextCursor.map { Self.cursorPage(id: id, cursor: $0) }
            }
            var values: [Int] = []
            for try await page in pages { values += page.items }
            #expect(values == Array(1...10))
            let cursors = try await APIApp.requests(for: id).map { received in
                URLComponents(string: "?" + received.query)?.queryItems?.first { $0.name == "cursor" }?.value
            }
            #expect(cursors.count == 4)
            #expect(cursors.first == .some(nil))
            #expect(Set(cursors.dropFirst().compactMap { $0 }).count == 3)
        }

        @Test("cursor pages stop at maxPages")
        func cursorMaxPages() async throws {
            let id = APIApp.newID()
            let pages = apiClient.pages(of: Self.cursorPage(id: id, cursor: nil), maxPages: 2) { page, _ in
                page.nextCursor.map { Self.cursorPage(id: id, cursor: $0) }
            }
            var values: [Int] = []
            for try await page in pages { values += page.items }
            #expect(values == Array(1...6))
            #expect(try await APIApp.requests(for: id).count == 2)
        }
    }
}
