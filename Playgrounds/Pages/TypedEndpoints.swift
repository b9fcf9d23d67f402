import BothamNetworking
import PlaygroundSupport

/// A todo of the JSONPlaceholder-like service.
struct Todo: Codable, Sendable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool
}

/// The todos service as typed endpoints.
enum TodosAPI {
    struct NewTodo: Codable, Sendable {
        var userId: Int
        var title: String
        var completed: Bool
    }

    static func list() -> Endpoint<[Todo]> { Endpoint(.get, "/todos") }
    static func get(id: Int) -> Endpoint<Todo> { Endpoint(.get, "/todos/\(id)") }
    static func create(_ todo: NewTodo) -> Endpoint<Todo> { Endpoint(.post, "/todos", body: .json(todo)) }
    static func update(_ todo: Todo) -> Endpoint<Todo> { Endpoint(.put, "/todos/\(todo.id)", body: .json(todo)) }
    static func delete(id: Int) -> Endpoint<Empty> { Endpoint(.delete, "/todos/\(id)") }
}

/// Typed endpoints: the Router pattern, decoded results, every interceptor still applies.
public enum TypedEndpoints: PlaygroundPage {
    /// The page's name.
    public static let name = "TypedEndpoints"
    /// What the page shows.
    public static let summary = "Endpoint<Response>: list, get, create, update and delete todos, decoded"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.servicesURL)

        let todos = try await apiClient.value(for: TodosAPI.list())
        try context.check(todos.count == 2, "listed \(todos.count) todos")

        let created = try await apiClient.value(
            for: TodosAPI.create(.init(userId: 1, title: "Ship it", completed: false)))
        try context.check(created.id == 3 && created.title == "Ship it", "created todo #\(created.id)")

        var done = created
        done.completed = true
        let updated = try await apiClient.value(for: TodosAPI.update(done))
        try context.check(updated.completed, "updated it to completed")

        _ = try await apiClient.value(for: TodosAPI.delete(id: created.id))
        let gone = await apiClient.send(TodosAPI.get(id: created.id))
        guard case .failure(.httpResponseError(let response)) = gone else {
            throw PlaygroundFailure("a deleted todo must be a 404")
        }
        try context.check(response.statusCode == 404, "deleted it: fetching it again is a 404")
    }
}
