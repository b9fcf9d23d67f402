import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// The models and endpoints the typed endpoint stub tests answer.
enum EndpointStubFixtures {
    static let baseEndpoint = "https://api.example.com/v1"
    /// 2023-11-14T22:13:20Z: whole seconds, so every date strategy carries it exactly.
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    struct Event: Codable, Equatable, Sendable {
        var id: Int
        var startsAt: Date
    }

    struct Profile: Codable, Equatable, Sendable {
        var userName: String
        var avatarBytes: Data
    }

    /// `userID` → `user_id` → `userId`: a name the snake_case conversion does not give back.
    struct Account: Codable, Equatable, Sendable {
        var userID: Int
    }

    struct Manifest: Codable, Equatable, Sendable {
        var version: Int
    }

    /// Only decodable: nothing can encode it.
    struct Receipt: Decodable, Sendable {
        var total: Int
    }

    static func decoder(
        dates: JSONDecoder.DateDecodingStrategy = .deferredToDate,
        keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys,
        data: JSONDecoder.DataDecodingStrategy = .base64
    ) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dates
        decoder.keyDecodingStrategy = keys
        decoder.dataDecodingStrategy = data
        return decoder
    }

    static func client(_ stubClient: StubHTTPClient) -> BothamAPIClient {
        BothamAPIClient(baseEndpoint: baseEndpoint, httpClient: stubClient)
    }

    /// The body a request to `endpoint`'s path gets from `stubClient`, as text.
    static func servedBody<Response>(_ endpoint: Endpoint<Response>, _ stubClient: StubHTTPClient) async throws
        -> String
    {
        let apiClient = client(stubClient)
        let response = try await apiClient.response(for: try endpoint.request(for: apiClient))
        return String(decoding: response.body, as: UTF8.self)
    }
}
