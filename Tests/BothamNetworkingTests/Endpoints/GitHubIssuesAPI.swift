import BothamNetworking
import Foundation

/// A GitHub issue, as the REST API returns it (snake_case keys, ISO 8601 dates).
struct GitHubIssue: Codable, Sendable, Equatable {
    struct Label: Codable, Sendable, Equatable {
        var name: String
    }

    var number: Int
    var title: String
    var state: String
    var labels: [Label]
    var createdAt: Date
}

/// The GitHub issues service: one type per operation.
enum GitHubIssues {
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static let headers: HTTPHeaders = [.accept: "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"]

    /// `GET /repos/{owner}/{repo}/issues?state=…&labels=a,b`
    struct List: EndpointConvertible {
        enum State: String, Sendable { case open, closed, all }

        var owner: String
        var repo: String
        var state: State = .open
        var labels: [String] = []

        var endpoint: Endpoint<[GitHubIssue]> {
            // `null` parameters are left out, so no labels means no `labels=`.
            let labelList: JSONValue = labels.isEmpty ? nil : .string(labels.joined(separator: ","))
            return Endpoint(
                .get,
                "/repos/\(owner)/\(repo)/issues",
                parameters: ["state": .string(state.rawValue), "labels": labelList],
                headers: GitHubIssues.headers,
                decoder: GitHubIssues.decoder
            )
        }
    }

    /// `GET /repos/{owner}/{repo}/issues/{number}`
    struct Get: EndpointConvertible {
        var owner: String
        var repo: String
        var number: Int

        var endpoint: Endpoint<GitHubIssue> {
            Endpoint(
                .get, "/repos/\(owner)/\(repo)/issues/\(number)", headers: GitHubIssues.headers,
                decoder: GitHubIssues.decoder)
        }
    }

    /// `POST /repos/{owner}/{repo}/issues`
    struct Create: EndpointConvertible {
        struct Body: Encodable, Sendable {
            var title: String
            var body: String?
            var labels: [String]
        }

        var owner: String
        var repo: String
        var issue: Body

        var endpoint: Endpoint<GitHubIssue> {
            Endpoint(
                .post,
                "/repos/\(owner)/\(repo)/issues",
                headers: GitHubIssues.headers,
                body: .json(issue),
                decoder: GitHubIssues.decoder
            )
        }
    }
}
