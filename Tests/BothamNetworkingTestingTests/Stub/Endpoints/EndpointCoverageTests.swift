import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("EndpointCoverage reports the declared endpoints no test hit", .timeLimit(.minutes(1)))
struct EndpointCoverageTests {
    typealias Event = EndpointStubFixtures.Event

    enum EventsAPI {
        static func list(page: Int) -> Endpoint<[Event]> { Endpoint(.get, "/events", parameters: ["page": .int(page)]) }
        static func get(id: Int) -> Endpoint<Event> { Endpoint(.get, "/events/\(id)") }
        static func delete(id: Int) -> Endpoint<Empty> { Endpoint(.delete, "/events/\(id)") }
    }

    @Test("an endpoint no request hit is listed; hit ones are not, and counted")
    func unhit() async throws {
        let coverage = EndpointCoverage()
        coverage.register(EventsAPI.list(page: 1))
        coverage.register(EventsAPI.get(id: 1))
        coverage.register(EventsAPI.delete(id: 1), as: "delete an event")
        let stubClient = StubHTTPClient()
        stubClient.trackCoverage(in: coverage)
        stubClient.stub(with: .json([]))
        let apiClient = EndpointStubFixtures.client(stubClient)

        #expect(coverage.unhitEndpoints == ["GET /events?page=1", "GET /events/1", "delete an event"])
        _ = await apiClient.send(EventsAPI.list(page: 1))
        _ = await apiClient.send(EventsAPI.list(page: 1))
        _ = await apiClient.send(EventsAPI.list(page: 2))  // another query: not the declared endpoint
        _ = await apiClient.GET("/events/1")

        #expect(coverage.unhitEndpoints == ["delete an event"])
        #expect(coverage.hits(of: "GET /events?page=1") == 2)
        #expect(coverage.hits(of: "GET /events/1") == 1)
        #expect(coverage.description == "2 of 3 declared endpoints hit; never hit:\n  - delete an event")
    }

    @Test("a pattern declaration counts every request it matches, and coverage is shared by several stub clients")
    func patternsAndSharing() async throws {
        let coverage = EndpointCoverage()
        coverage.register(
            "GET /events/{id}",
            matching: .method(.get) && RequestMatcher("event path") { $0.path.hasPrefix("/events/") })
        coverage.register(EventsAPI.delete(id: 1))
        let first = StubHTTPClient()
        let second = StubHTTPClient()
        for stubClient in [first, second] {
            stubClient.trackCoverage(in: coverage)
            stubClient.stub(with: .response(statusCode: 204))
        }

        _ = await EndpointStubFixtures.client(first).GET("/events/1")
        #expect(coverage.unhitEndpoints == ["DELETE /events/1"])
        _ = await EndpointStubFixtures.client(second).GET("/events/2")
        _ = await EndpointStubFixtures.client(second).send(EventsAPI.delete(id: 1))

        #expect(coverage.unhitEndpoints.isEmpty)
        #expect(coverage.hits(of: "GET /events/{id}") == 2)
        #expect(coverage.declaredEndpoints == ["GET /events/{id}", "DELETE /events/1"])
        #expect(coverage.description == "2 of 2 declared endpoints hit")
    }

    @Test("a client that does not track coverage counts nothing")
    func optIn() async {
        let coverage = EndpointCoverage()
        coverage.register(EventsAPI.get(id: 1))
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .json([:]))

        _ = await EndpointStubFixtures.client(stubClient).GET("/events/1")

        #expect(coverage.unhitEndpoints == ["GET /events/1"])
        #expect(stubClient.receivedRequests.count == 1)
    }
}
