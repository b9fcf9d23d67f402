// The client side of the Autobahn|Testsuite run (scripts/autobahn.sh): NativeHTTPClient's WebSockets through
// BothamAPIClient, against the suite's fuzzing server. Every case is one socket that echoes what it receives, as
// the suite's protocol asks (the header of scripts/autobahn.sh describes it).
//
//   AutobahnTestee ws://127.0.0.1:PORT AGENT [--no-deflate]
import BothamNetworking
import BothamNetworkingNative
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: AutobahnTestee ws://HOST:PORT AGENT [--no-deflate]")
    exit(2)
}
let server = arguments[1]
let agent = arguments[2]
let options = WebSocket.Options(
    maxMessageSize: 64 << 20, compression: !arguments.contains("--no-deflate"), closeTimeout: .seconds(5))
let apiClient = BothamAPIClient(baseEndpoint: server, httpClient: NativeHTTPClient())

/// The first message of a socket the server opens only to answer a question (`getCaseCount`).
func firstText(_ path: String, parameters: HTTPParameters = [:]) async throws -> String? {
    let socket = try await apiClient.webSocket(path, parameters: parameters, options: options)
    defer { Task { await socket.close() } }
    for try await message in socket.messages {
        if case .text(let text) = message { return text }
    }
    return nil
}

/// Runs case `index`: echoes every message until the server closes; a failure is the case's outcome, not ours.
func runCase(_ index: Int) async {
    do {
        let socket = try await apiClient.webSocket(
            "/runCase", parameters: ["case": "\(index)", "agent": agent], options: options)
        for try await message in socket.messages {
            try await socket.send(message)
        }
    } catch {
        // The suite judges how the connection ended (close codes, failing fast); it is reported, not fatal here.
    }
}

guard let countText = try await firstText("/getCaseCount"), let count = Int(countText) else {
    print("AutobahnTestee: the fuzzing server at \(server) gave no case count")
    exit(1)
}
print("AutobahnTestee: \(count) cases for agent \(agent)")
let started = ContinuousClock.now
for index in 1...max(1, count) where count > 0 {
    await runCase(index)
    if index % 50 == 0 { print("AutobahnTestee: \(index)/\(count) (\(ContinuousClock.now - started))") }
}
do {
    let socket = try await apiClient.webSocket("/updateReports", parameters: ["agent": agent], options: options)
    for try await _ in socket.messages {}
} catch {
    print("AutobahnTestee: updateReports: \(error)")
}
print("AutobahnTestee: done in \(ContinuousClock.now - started)")
