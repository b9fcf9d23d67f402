import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// A JSONPlaceholder-like `/todos` API: list, get, create, update, delete.
enum Todos {
    static func answer(_ request: RecordedRequest, segments: [String], state: Lock<ServicesState>) -> MockResponse {
        let id = segments.count > 1 ? Int(segments[1]) : nil
        switch (request.method, id) {
        case ("GET", nil):
            let todos = state.withLock { state in state.todos.keys.sorted().compactMap { state.todos[$0] } }
            return Routes.json(.array(todos))
        case ("GET", let id?):
            guard let todo = state.withLock({ $0.todos[id] }) else { return Routes.json([:], status: 404) }
            return Routes.json(todo)
        case ("POST", nil):
            guard case .object(var members)? = JSONValue(jsonData: request.body) else {
                return Routes.json(["error": "expected a JSON object"], status: 400)
            }
            let todo = state.withLock { state -> JSONValue in
                members.removeAll { $0.key == "id" }
                members.append((key: "id", value: .int(state.nextTodoID)))
                let todo = JSONValue.object(members)
                state.todos[state.nextTodoID] = todo
                state.nextTodoID += 1
                return todo
            }
            return Routes.json(todo, status: 201)
        case ("PUT", let id?), ("PATCH", let id?):
            guard case .object(let changes)? = JSONValue(jsonData: request.body) else {
                return Routes.json(["error": "expected a JSON object"], status: 400)
            }
            let updated = state.withLock { state -> JSONValue? in
                guard case .object(var members)? = state.todos[id] else { return nil }
                for change in changes where change.key != "id" {
                    if let index = members.firstIndex(where: { $0.key == change.key }) {
                        members[index].value = change.value
                    } else {
                        members.append(change)
                    }
                }
                state.todos[id] = .object(members)
                return .object(members)
            }
            return updated.map { Routes.json($0) } ?? Routes.json([:], status: 404)
        case ("DELETE", let id?):
            let removed = state.withLock { $0.todos.removeValue(forKey: id) }
            return Routes.json([:], status: removed == nil ? 404 : 200)
        default:
            return Routes.json(["error": "method not allowed"], status: 405)
        }
    }
}
