import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// What the recording suites share: a client that accepts every status, and the archive their recording file holds.
protocol RecordingSuite {
    /// The suite's recording file.
    var file: URL { get }
    /// The base endpoint of ``client(_:clock:)``.
    var baseEndpoint: String { get }
}

extension RecordingSuite {
    var baseEndpoint: String { "https://api.example.com" }

    /// A client over `transport` that accepts every status, on `clock`.
    func client(_ transport: any HTTPClient, clock: any HTTPClock = .system) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: baseEndpoint, httpClient: transport,
            configuration: .init(validation: .acceptAll, clock: clock))
    }

    /// The archive in `url` (the suite's file by default).
    func archive(_ url: URL? = nil) throws -> HTTPArchive {
        let url = url ?? file
        return try HTTPArchive(data: try Data(contentsOf: url), from: url)
    }
}
