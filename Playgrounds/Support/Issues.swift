import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// A GitHub-like `/repos/{owner}/{repo}/issues` API.
enum Issues {
    static func answer(_ request: RecordedRequest, state: Lock<ServicesState>) -> MockResponse {
        guard request.path.hasSuffix("/issues") else { return Routes.json(["error": "not found"], status: 404) }
        switch request.method {
        case "GET":
            let filter = request.queryItems.first { $0.name == "state" }?.value ?? "all"
            let issues = state.withLock { $0.issues }.filter { issue in
                filter == "all" || issue["state"] == .string(filter)
            }
            return Routes.json(.array(issues))
        case "POST":
            guard let body = JSONValue(jsonData: request.body), let title = body["title"]?.stringValue else {
                return Routes.json(["message": "Validation Failed"], status: 422)
            }
            let issue = state.withLock { state -> JSONValue in
                let issue: JSONValue = [
                    "number": .int(state.issues.count + 1), "title": .string(title), "state": "open",
                ]
                state.issues.append(issue)
                return issue
            }
            return Routes.json(issue, status: 201)
        default:
            return Routes.json(["error": "method not allowed"], status: 405)
        }
    }
}
