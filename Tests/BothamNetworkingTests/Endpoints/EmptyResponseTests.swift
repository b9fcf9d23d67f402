import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Empty bodies decode to Empty or nil where they are expected", .timeLimit(.minutes(1)))
struct EmptyResponseTests {
    struct Todo: Codable, Sendable, Equatable {
        var id: Int
    }

    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub) }

    @Test("a 204 decodes to Empty and to nil")
    func noContent() async throws {
        stub.stub(with: .response(statusCode: 204))
        #expect(try await apiClient.value(for: Endpoint<Empty>(.delete, "/todos/1")) == Empty())
        #expect(try await apiClient.value(for: Endpoint<Todo?>(.delete, "/todos/1")) == nil)
        #expect(try await apiClient.DELETE("/todos/1").decoded(as: Empty.self).get() == .value)
    }

    @Test("a 205 decodes to Empty")
    func resetContent() async throws {
        stub.stub(with: .response(statusCode: 205))
        #expect(try await apiClient.value(for: Endpoint<Empty>(.post, "/reset")) == Empty())
    }

    @Test("a HEAD response decodes to Empty even with status 200")
    func head() async throws {
        stub.stub(with: .json(["id": 1]))
        #expect(try await apiClient.value(for: Endpoint<Empty>(.head, "/todos/1")) == Empty())
    }

    @Test("an empty 200 is still a parsing error for Empty unless the policy allows every empty body")
    func emptyOK() async throws {
        stub.stub(with: .response(statusCode: 200))
        let strict = await apiClient.send(Endpoint<Empty>(.get, "/x"))
        guard case .failure(.parsingError(let body, _)) = strict else {
            Issue.record("expected a parsing error, got \(strict)")
            return
        }
        #expect(body.isEmpty)
        let lenient = Endpoint<Empty>(.get, "/x", emptyResponses: .anyEmptyBody)
        #expect(try await apiClient.value(for: lenient) == Empty())
    }

    @Test("a 204 for a type without an empty value is a parsing error")
    func nonEmptyType() async {
        stub.stub(with: .response(statusCode: 204))
        let result = await apiClient.send(Endpoint<Todo>(.get, "/todos/1"))
        guard case .failure(.parsingError) = result else {
            Issue.record("expected a parsing error, got \(result)")
            return
        }
    }

    @Test("a non-empty body decodes as usual even with a 204 policy")
    func nonEmptyBody() async throws {
        stub.stub(with: .json(["id": 7], statusCode: 200))
        #expect(try await apiClient.value(for: Endpoint<Todo?>(.get, "/todos/7")) == Todo(id: 7))
    }
}
