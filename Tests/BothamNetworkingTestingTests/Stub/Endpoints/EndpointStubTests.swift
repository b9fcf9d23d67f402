import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Typed endpoint stubs encode with the endpoint's own coding strategy", .timeLimit(.minutes(1)))
struct EndpointStubTests {
    typealias Fixtures = EndpointStubFixtures
    typealias Event = Fixtures.Event

    let stubClient = StubHTTPClient()
    var apiClient: BothamAPIClient { Fixtures.client(stubClient) }

    static let dateStrategies: [(JSONDecoder.DateDecodingStrategy, String)] = [
        (.iso8601, #""startsAt":"2023-11-14T22:13:20Z""#),
        (.secondsSince1970, #""startsAt":1700000000"#),
        (.millisecondsSince1970, #""startsAt":1700000000000"#),
    ]

    @Test("a date strategy round-trips, and the body is written in it", arguments: 0..<3)
    func dates(index: Int) async throws {
        let (strategy, expectedField) = Self.dateStrategies[index]
        let endpoint = Endpoint<Event>(.get, "/events/1", decoder: Fixtures.decoder(dates: strategy))
        let event = Event(id: 1, startsAt: Fixtures.date)

        try stubClient.stub(endpoint, with: event)

        #expect(try await apiClient.value(for: endpoint) == event)
        let body = try await Fixtures.servedBody(endpoint, stubClient)
        #expect(body.contains(expectedField), "\(body)")
    }

    @Test("snake_case keys and base64 data round-trip, written as snake_case and base64")
    func snakeCaseAndBase64() async throws {
        let decoder = Fixtures.decoder(keys: .convertFromSnakeCase, data: .base64)
        let endpoint = Endpoint<Fixtures.Profile>(.get, "/me", decoder: decoder)
        let profile = Fixtures.Profile(userName: "ada", avatarBytes: Data([0xDE, 0xAD, 0xBE, 0xEF]))

        try stubClient.stub(endpoint, with: profile)

        #expect(try await apiClient.value(for: endpoint) == profile)
        let body = try await Fixtures.servedBody(endpoint, stubClient)
        #expect(body == #"{"avatar_bytes":"3q2+7w==","user_name":"ada"}"#)
    }

    @Test("deferredToData is mirrored too: the bytes are written as an array of numbers")
    func deferredData() async throws {
        let endpoint = Endpoint<Fixtures.Profile>(.get, "/me", decoder: Fixtures.decoder(data: .deferredToData))
        let profile = Fixtures.Profile(userName: "ada", avatarBytes: Data([1, 2]))

        try stubClient.stub(endpoint, with: profile)

        #expect(try await apiClient.value(for: endpoint) == profile)
        #expect(try await Fixtures.servedBody(endpoint, stubClient) == #"{"avatarBytes":[1,2],"userName":"ada"}"#)
    }

    @Test("a key the snake_case conversion does not give back is refused when the stub is added")
    func uninvertibleKey() {
        let endpoint = Endpoint<Fixtures.Account>(
            .get, "/account", decoder: Fixtures.decoder(keys: .convertFromSnakeCase))
        #expect {
            try stubClient.stub(endpoint, with: Fixtures.Account(userID: 7))
        } throws: { error in
            guard case .doesNotDecode(let name, _) = error as? EndpointStubError else { return false }
            return name == "GET /account"
        }
        #expect(stubClient.receivedRequests.isEmpty)
    }

    @Test("a value the strategy cannot carry exactly is refused: ISO 8601 drops fractional seconds")
    func lossyStrategy() {
        let endpoint = Endpoint<Event>(.get, "/events/1", decoder: Fixtures.decoder(dates: .iso8601))
        let event = Event(id: 1, startsAt: Fixtures.date.addingTimeInterval(0.25))
        #expect {
            try stubClient.stub(endpoint, with: event)
        } throws: { error in
            guard case .decodesDifferently = error as? EndpointStubError else { return false }
            return true
        }
    }

    @Test("Empty is answered 204 with no body, and decodes")
    func empty() async throws {
        let endpoint = Endpoint<Empty>(.delete, "/events/1")

        try stubClient.stub(endpoint, with: Empty())

        #expect(try await apiClient.value(for: endpoint) == Empty())
        let response = try await apiClient.response(for: try endpoint.request(for: apiClient))
        #expect(response.statusCode == 204)
        #expect(response.body.isEmpty)
        #expect(response.headers[.contentType] == nil)
    }

    @Test("nil under a 304-only policy is answered 304 with no body; the endpoint accepts it and decodes nil")
    func notModified() async throws {
        let endpoint = Endpoint<Fixtures.Manifest?>(
            .get, "/manifest", headers: ["If-None-Match": #""v1""#],
            emptyResponses: EmptyResponsePolicy(statusCodes: [304])
        ).accepting(.successfulStatusCodes.adding(304))

        try stubClient.stub(endpoint, with: nil)

        #expect(try await apiClient.value(for: endpoint) == nil)
        let response = try await apiClient.response(for: try endpoint.request(for: apiClient))
        #expect(response.statusCode == 304)
        #expect(response.body.isEmpty)
    }

    @Test("a present optional is answered 200 with its JSON")
    func presentOptional() async throws {
        let endpoint = Endpoint<Fixtures.Manifest?>(.get, "/manifest")

        try stubClient.stub(endpoint, with: Fixtures.Manifest(version: 3))

        #expect(try await apiClient.value(for: endpoint) == Fixtures.Manifest(version: 3))
        #expect(try await Fixtures.servedBody(endpoint, stubClient) == #"{"version":3}"#)
    }

    @Test("nil: 204 by default, 200 with every empty body allowed and 204 not listed, null when no empty body is")
    func emptyPolicies() async throws {
        let cases: [(EmptyResponsePolicy, Int, String)] = [
            (.default, 204, ""),
            (EmptyResponsePolicy(statusCodes: [], allowsEveryEmptyBody: true), 200, ""),
            (.never, 200, "null"),
        ]
        for (policy, status, body) in cases {
            let stubClient = StubHTTPClient()
            let apiClient = Fixtures.client(stubClient)
            let endpoint = Endpoint<Fixtures.Manifest?>(.get, "/manifest", emptyResponses: policy)

            try stubClient.stub(endpoint, with: nil)

            #expect(try await apiClient.value(for: endpoint) == nil)
            let response = try await apiClient.response(for: try endpoint.request(for: apiClient))
            #expect(response.statusCode == status, "\(policy)")
            #expect(String(decoding: response.body, as: UTF8.self) == body, "\(policy)")
        }
    }

    @Test("Empty under the never policy is answered with {}")
    func emptyNever() async throws {
        let endpoint = Endpoint<Empty>(.delete, "/events/1", emptyResponses: .never)
        try stubClient.stub(endpoint, with: Empty())
        #expect(try await apiClient.value(for: endpoint) == Empty())
        #expect(try await Fixtures.servedBody(endpoint, stubClient) == "{}")
    }

    @Test("a custom decoding closure needs an explicit encoder, and uses the one it is given")
    func customDecoding() async throws {
        let decoding = ResponseDecoding<Event> { response throws(APIClientError) in
            let decoder = Fixtures.decoder(dates: .secondsSince1970)
            do { return try decoder.decode(Event.self, from: response.body) } catch {
                throw .parsingError(body: response.body, underlying: error)
            }
        }
        let endpoint = Endpoint<Event>(.get, "/events/1", decoding: decoding)
        let event = Event(id: 1, startsAt: Fixtures.date)

        #expect {
            try stubClient.stub(endpoint, with: event)
        } throws: { error in
            guard case .noEncoder(let name) = error as? EndpointStubError else { return false }
            return name == "GET /events/1"
        }

        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        try stubClient.stub(endpoint, with: event, encoder: .json(encoder))
        #expect(try await apiClient.value(for: endpoint) == event)
        #expect(try await Fixtures.servedBody(endpoint, stubClient).contains(#""startsAt":1700000000"#))
    }

    @Test("a custom decoding given its encoder needs no argument")
    func customDecodingWithItsEncoder() async throws {
        let decoding = ResponseDecoding<[String]>(
            { response throws(APIClientError) in
                try response.string().split(separator: ",").map(String.init)
            },
            encoder: ResponseEncoding { values, _ in
                EncodedResponse(headers: ["Content-Type": "text/csv"], body: Data(values.joined(separator: ",").utf8))
            })
        let endpoint = Endpoint<[String]>(.get, "/tags", decoding: decoding)

        try stubClient.stub(endpoint, with: ["a", "b"])

        #expect(try await apiClient.value(for: endpoint) == ["a", "b"])
        #expect(try await Fixtures.servedBody(endpoint, stubClient) == "a,b")
    }

    @Test("a .custom date strategy has no inverse: the stub is refused with ResponseEncodingError")
    func customStrategy() {
        let decoder = Fixtures.decoder(dates: .custom { _ in Fixtures.date })
        let endpoint = Endpoint<Event>(.get, "/events/1", decoder: decoder)
        #expect {
            try stubClient.stub(endpoint, with: Event(id: 1, startsAt: Fixtures.date))
        } throws: { error in
            (error as? ResponseEncodingError)?.reason.contains("dateDecodingStrategy is .custom") == true
        }
    }

    @Test("a type that is only Decodable cannot be encoded: ResponseEncodingError says so")
    func decodableOnly() {
        let endpoint = Endpoint<Fixtures.Receipt>(.get, "/receipt")
        #expect {
            try stubClient.stub(endpoint, with: Fixtures.Receipt(total: 3))
        } throws: { error in
            (error as? ResponseEncodingError)?.reason.contains("not Encodable") == true
        }
    }

    @Test("text, data and property-list endpoints use their decodings' encoders")
    func otherDecodings() async throws {
        let text = Endpoint<String>(.get, "/motd", decoding: .string())
        let bytes = Endpoint<Data>(.get, "/blob", decoding: .data)
        let plist = Endpoint<Fixtures.Manifest>(.get, "/manifest.plist", decoding: .propertyList())

        try stubClient.stub(text, with: "héllo")
        try stubClient.stub(bytes, with: Data([0, 255]))
        try stubClient.stub(plist, with: Fixtures.Manifest(version: 2))

        #expect(try await apiClient.value(for: text) == "héllo")
        #expect(try await apiClient.value(for: bytes) == Data([0, 255]))
        #expect(try await apiClient.value(for: plist) == Fixtures.Manifest(version: 2))
    }

    @Test("the stub answers the endpoint's method and path only")
    func methodAndPath() async throws {
        let endpoint = Endpoint<Event>(.get, "/events/1")
        try stubClient.stub(endpoint, with: Event(id: 1, startsAt: Fixtures.date))

        #expect(try await apiClient.value(for: endpoint).id == 1)
        #expect(await apiClient.POST("/events/1").failureIsUnmatched)
        #expect(await apiClient.GET("/events/2").failureIsUnmatched)
        #expect(await apiClient.GET("/events/1/").failureIsUnmatched)
    }

    @Test("an endpoint that fixes a query is answered only with that query; other query items do not matter")
    func query() async throws {
        func list(userId: Int) -> Endpoint<[Event]> {
            Endpoint(.get, "/events?sort=date", parameters: ["userId": .int(userId)])
        }
        try stubClient.stub(list(userId: 1), with: [Event(id: 1, startsAt: Fixtures.date)])

        #expect(try await apiClient.value(for: list(userId: 1)).map(\.id) == [1])
        #expect(await apiClient.send(list(userId: 2)).failureIsUnmatched)
        #expect(await apiClient.GET("/events", parameters: ["userId": "1"]).failureIsUnmatched)  // no sort=date
        let withKey = try list(userId: 1).request(for: apiClient).appendingParameters(["api_key": "k"])
        #expect(try await apiClient.response(for: withKey).statusCode == 200)
        #expect(RequestMatcher.endpoint(list(userId: 1)).description == "endpoint GET /events?sort=date&userId=1")
    }

    @Test("a typed answer joins a sequence: 503 first, then the value on the retry")
    func sequence() async throws {
        let endpoint = Endpoint<Event>(.get, "/events/1")
        let event = Event(id: 1, startsAt: Fixtures.date)
        stubClient.stub(.endpoint(endpoint), with: .response(statusCode: 503), try .value(event, for: endpoint))
        let apiClient = BothamAPIClient(
            baseEndpoint: Fixtures.baseEndpoint, httpClient: stubClient,
            configuration: .init(
                maxRetries: 1, retrier: RetryPolicy(backoff: RetryPolicy.Backoff(baseDelay: .zero, maxDelay: .zero))))

        #expect(try await apiClient.value(for: endpoint) == event)
        #expect(stubClient.receivedRequests.count == 2)
    }

    @Test("statusCode and headers override the encoder's")
    func statusAndHeaders() async throws {
        let endpoint = Endpoint<Event>(.post, "/events")
        try stubClient.stub(
            endpoint, with: Event(id: 9, startsAt: Fixtures.date), statusCode: 201, headers: ["Location": "/events/9"])

        let response = try await apiClient.response(for: try endpoint.request(for: apiClient))
        #expect(response.statusCode == 201)
        #expect(response.headers["Location"] == "/events/9")
        #expect(response.headers[.contentType] == "application/json")
        #expect(try await apiClient.value(for: endpoint).id == 9)
    }
}

extension Result where Failure == APIClientError {
    /// Whether the call failed because no stub matched its request.
    var failureIsUnmatched: Bool {
        guard case .failure(.httpClientError(let underlying)) = self else { return false }
        return underlying is StubHTTPClient.UnmatchedRequest
    }
}
