import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("A todos service declared as endpoints works end to end", .timeLimit(.minutes(1)))
struct TodosEndpointTests {
    let stub = StubHTTPClient()
    let apiClient: BothamAPIClient

    init() {
        apiClient = BothamAPIClient(baseEndpoint: "https://jsonplaceholder.typicode.com", httpClient: stub)
    }

    let first: JSONValue = ["userId": 1, "id": 1, "title": "delectus aut autem", "completed": false]

    @Test("list sends GET /todos with the userId filter and decodes the array")
    func list() async throws {
        stub.stub(.method(.get) && .path("/todos"), with: .json([first]))
        let todos = try await apiClient.value(for: TodosAPI.list(userId: 1))
        #expect(todos == [Todo(userId: 1, id: 1, title: "delectus aut autem", completed: false)])
        #expect(
            stub.receivedRequests.first?.url?.absoluteString == "https://jsonplaceholder.typicode.com/todos?userId=1")
        _ = try await apiClient.value(for: TodosAPI.list())
        #expect(stub.receivedRequests.last?.url?.absoluteString == "https://jsonplaceholder.typicode.com/todos")
    }

    @Test("get decodes one todo and reports a 404 as an HTTP error with the response")
    func get() async throws {
        stub.stub(.path("/todos/1"), with: .json(first))
        stub.stub(.path("/todos/999"), with: .json([:], statusCode: 404))
        #expect(try await apiClient.value(for: TodosAPI.get(id: 1)).title == "delectus aut autem")
        let missing = await apiClient.send(TodosAPI.get(id: 999))
        guard case .failure(.httpResponseError(let response)) = missing else {
            Issue.record("expected an HTTP error, got \(missing)")
            return
        }
        #expect(response.statusCode == 404)
    }

    @Test("create POSTs the JSON body and decodes the created todo")
    func create() async throws {
        let created: JSONValue = ["userId": 1, "id": 201, "title": "Ship it", "completed": false]
        stub.stub(.method(.post) && .path("/todos"), with: .json(created, statusCode: 201))
        let todo = try await apiClient.value(
            for: TodosAPI.create(NewTodo(userId: 1, title: "Ship it", completed: false)))
        #expect(todo.id == 201)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers[.contentType] == "application/json")
        let body = try #require(try sent.bodyData())
        #expect(
            try JSONDecoder().decode(NewTodo.self, from: body) == NewTodo(userId: 1, title: "Ship it", completed: false)
        )
    }

    @Test("update PUTs the whole todo and complete PATCHes one field")
    func update() async throws {
        let done = Todo(userId: 1, id: 1, title: "delectus aut autem", completed: true)
        stub.stub(
            .path("/todos/1"), with: .json(["userId": 1, "id": 1, "title": "delectus aut autem", "completed": true]))
        #expect(try await apiClient.value(for: TodosAPI.update(done)) == done)
        #expect(try await apiClient.value(for: TodosAPI.complete(id: 1)).completed)
        let methods = stub.receivedRequests.map(\.method)
        #expect(methods == [.put, .patch])
        #expect(try stub.receivedRequests.last?.bodyData() == Data(#"{"completed":true}"#.utf8))
    }

    @Test("delete accepts JSONPlaceholder's 200 {} and a 204 alike")
    func delete() async throws {
        stub.stub(.method(.delete), with: .json([:]), .response(statusCode: 204))
        #expect(try await apiClient.value(for: TodosAPI.delete(id: 1)) == Empty())
        #expect(try await apiClient.value(for: TodosAPI.delete(id: 1)) == Empty())
    }

    @Test("an enum router sends each case's request")
    func enumRouter() async throws {
        stub.stub(with: .json([first]))
        _ = try await apiClient.value(for: TodoQuery.all)
        _ = try await apiClient.value(for: TodoQuery.byUser(3))
        _ = try await apiClient.value(for: TodoQuery.done)
        #expect(stub.receivedRequests.map { $0.url?.query } == [nil, "userId=3", "completed=true"])
    }

    @Test("endpoint requests go through the request interceptors")
    func interceptors() async throws {
        struct Auth: BothamRequestInterceptor {
            func intercept(request: HTTPRequest) async throws -> HTTPRequest {
                request.withHeader(.authorization, "Bearer t0k3n")
            }
        }
        apiClient.requestInterceptors.append(Auth())
        stub.stub(with: .json(first))
        _ = try await apiClient.value(for: TodosAPI.get(id: 1))
        #expect(stub.receivedRequests.first?.headers[.authorization] == "Bearer t0k3n")
    }

    @Test("a body that does not decode is a parsing error keeping the body")
    func parsingError() async {
        stub.stub(with: .json(["unexpected": true]))
        let result = await apiClient.send(TodosAPI.get(id: 1))
        guard case .failure(.parsingError(let body, _)) = result else {
            Issue.record("expected a parsing error, got \(result)")
            return
        }
        #expect(body == Data(#"{"unexpected":true}"#.utf8))
    }

    @Test("the completion form delivers the decoded value once")
    func completion() async throws {
        stub.stub(with: .json(first))
        let received = Recorder<Result<Todo, APIClientError>>()
        let call = apiClient.send(TodosAPI.get(id: 1)) { result in received.append(result) }
        await call.wait()
        let results = received.values
        #expect(results.count == 1)
        #expect(try results.first?.get().id == 1)
    }

    @Test("a String endpoint reads text in its charset")
    func stringEndpoint() async throws {
        stub.stub(
            with: .response(headers: [.contentType: "text/plain; charset=iso-8859-1"], body: Data([0x6F, 0x6C, 0xE9])))
        #expect(try await apiClient.value(for: Endpoint<String>(.get, "/motd", decoding: .string())) == "olé")
    }
}
