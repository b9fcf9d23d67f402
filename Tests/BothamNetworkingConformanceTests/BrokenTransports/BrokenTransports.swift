import BothamNetworking
import BothamNetworkingConformance
import Foundation

/// A broken transport built on `NativeHTTPClient`. It passes on the fields native would add of its own
/// (`Accept-Encoding`), so preparation puts them in the request as for native itself: without that, native adds
/// them while sending and the wrapper fails `headers.requestFieldsAsGiven` too, which is not what it is broken in.
protocol NativeWrapper: TransportHeaderDefaults {
    var inner: any HTTPClient { get }
}

extension NativeWrapper {
    func defaultHeaders(for request: HTTPRequest) -> HTTPHeaders {
        (inner as? any TransportHeaderDefaults)?.defaultHeaders(for: request) ?? [:]
    }
}

/// A ``NativeWrapper`` around a `NativeHTTPClient` made with the check's configuration as it is.
protocol NativeWrapperOfConfiguration: NativeWrapper {
    init(inner: any HTTPClient)
}

extension NativeWrapperOfConfiguration {
    init(_ configuration: ConformanceClientConfiguration) {
        self.init(inner: OwnTransport.native.make(configuration))
    }
}

/// Folds the repeated fields of a response into one comma-separated field, as a transport built on a dictionary of
/// fields does.
struct FoldsRepeatedFields: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let response = try await inner.send(request)
        var folded = HTTPHeaders()
        var seen = Set<String>()
        for field in response.headers.fields where seen.insert(field.name.rawName.lowercased()).inserted {
            folded.add(field.name, response.headers.values(for: field.name).joined(separator: ", "))
        }
        return response.withHeaders(folded)
    }
}

/// Reports a lost connection (a reset, a body cut short) as a response it could not parse.
struct MapsLostConnectionWrongly: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        do {
            return try await inner.send(request)
        } catch .networkError(let failure) where failure.kind == .connectionLost {
            throw .networkError(APIClientError.NetworkFailure(kind: .badServerResponse))
        }
    }
}

/// Does not stream: a request for a streamed body gets the whole body in memory, once it has all arrived.
struct DoesNotStream: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        guard case .stream = request.responseDestination else { return try await inner.send(request) }
        return try await inner.send(request.withResponseDestination(.memory))
    }
}

/// Reports no progress: it sends with no `TransferProgress.Reporter` bound, as a transport that never reads
/// `TransferProgress.Reporter.current` does. Everything else it does right.
struct ReportsNoProgress: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let result: Result<HTTPResponse, APIClientError> = await TransferProgress.Reporter.$current.withValue(nil) {
            do throws(APIClientError) {
                return .success(try await inner.send(request))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
