import BothamNetworking
import Foundation

/// A JSONPlaceholder-shaped todo.
struct Todo: Codable, Sendable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool
}

/// A todo before the server gives it an id.
struct NewTodo: Codable, Sendable, Equatable {
    var userId: Int
    var title: String
    var completed: Bool
}

/// The todos service declared as endpoints (the README example).
enum TodosAPI {
    static func list(userId: Int? = nil) -> Endpoint<[Todo]> {
        Endpoint(.get, "/todos", parameters: userId.map { ["userId": .int($0)] })
    }

    static func get(id: Int) -> Endpoint<Todo> {
        Endpoint(.get, "/todos/\(id)")
    }

    static func create(_ todo: NewTodo) -> Endpoint<Todo> {
        Endpoint(.post, "/todos", body: .json(todo))
    }

    static func update(_ todo: Todo) -> Endpoint<Todo> {
        Endpoint(.put, "/todos/\(todo.id)", body: .json(todo))
    }

    static func complete(id: Int) -> Endpoint<Todo> {
        Endpoint(.patch, "/todos/\(id)", body: .json(["completed": true]))
    }

    static func delete(id: Int) -> Endpoint<Empty> {
        Endpoint(.delete, "/todos/\(id)")
    }
}

/// An enum router whose cases share one response type.
enum TodoQuery: EndpointConvertible {
    case all
    case byUser(Int)
    case done

    var endpoint: Endpoint<[Todo]> {
        switch self {
        case .all: return Endpoint(.get, "/todos")
        case .byUser(let userId): return Endpoint(.get, "/todos", parameters: ["userId": .int(userId)])
        case .done:
            return Endpoint(.get, "/todos", parameters: ["completed": true], encoding: .init(boolEncoding: .literal))
        }
    }
}
