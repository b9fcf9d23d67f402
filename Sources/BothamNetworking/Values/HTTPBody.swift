import Foundation

/// A request body and the way it is encoded.
///
/// A dictionary literal is a body whose encoding follows the request's `Content-Type`, as in Botham: JSON by
/// default, `application/x-www-form-urlencoded` when that is the content type. Every other form is explicit:
///
/// ```swift
/// apiClient.POST("/authorizations", body: ["scopes": ["repo_status", "user:email"], "id": 3])  // JSON
/// apiClient.POST("/upload", body: .data(bytes, contentType: "image/png"))
/// apiClient.POST("/login", body: .form(["user": "jane", "password": "s3cr3t"]))
/// apiClient.POST("/todos", body: .json(Todo(title: "Ship it")))
/// ```
///
/// A body is never silently dropped: one that cannot be encoded (NaN in JSON, a failing `Encodable`, a dictionary
/// with a `Content-Type` that cannot express it) ends the call with ``APIClientError/invalidRequest(reason:)`` and
/// nothing is sent.
public struct HTTPBody: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        case data(Data, contentType: String?)
        case json(JSONValue)
        case parameters(JSONValue)
        case form(HTTPParameters)
        case file(URL, contentType: String?, temporary: TemporaryFile?)
        case stream(HTTPBody.Stream, contentType: String?)
        case failed(reason: String)
    }

    let storage: Storage

    /// Raw bytes, sent as they are. `contentType` is set as `Content-Type` unless the request already has one.
    public static func data(_ data: Data, contentType: String? = nil) -> HTTPBody {
        HTTPBody(storage: .data(data, contentType: contentType))
    }

    /// UTF-8 text, sent as `text/plain; charset=utf-8` unless the request has a `Content-Type`.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPBody {
        HTTPBody(storage: .data(Data(text.utf8), contentType: contentType))
    }

    /// A JSON value, sent as `application/json` unless the request has a `Content-Type`.
    public static func json(_ value: JSONValue) -> HTTPBody {
        HTTPBody(storage: .json(value))
    }

    /// Any `Encodable`, encoded now with `encoder` and sent as `application/json` unless the request has a
    /// `Content-Type`. An encoding failure is kept and reported when the request is sent.
    public static func json<Value: Encodable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) -> HTTPBody {
        do {
            return HTTPBody(storage: .data(try encoder.encode(value), contentType: MediaType.json))
        } catch {
            return HTTPBody(storage: .failed(reason: "the \(Value.self) body could not be encoded as JSON: \(error)"))
        }
    }

    /// Form parameters, sent as `application/x-www-form-urlencoded` unless the request has a `Content-Type`.
    public static func form(_ parameters: HTTPParameters) -> HTTPBody {
        HTTPBody(storage: .form(parameters))
    }

    /// The contents of a file, sent as `contentType` unless the request already has a `Content-Type`.
    ///
    /// Transports that can upload from a file read it from ``fileURL`` as they send it, so a large body never has to
    /// fit in memory. ``HTTPRequest/bodyData()`` reads the file only when it is at most
    /// `maximumFileSizeLoadedInMemory` bytes long. The file must exist until the call ends; it is not deleted.
    public static func file(_ url: URL, contentType: String? = nil) -> HTTPBody {
        HTTPBody(storage: .file(url, contentType: contentType, temporary: nil))
    }

    /// The file a ``file(_:contentType:)`` body (or a large multipart body) is read from, or `nil` for other bodies.
    public var fileURL: URL? {
        guard case .file(let url, _, _) = storage else { return nil }
        return url
    }

    /// The largest file body that ``HTTPRequest/bodyData()`` reads into memory: 16 MiB.
    package static let maximumFileSizeLoadedInMemory = 16 * 1024 * 1024

    /// The bytes this body encodes to given the request's `Content-Type`, and the content type to set when the
    /// request has none.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the body cannot be encoded.
    package func encoded(forContentType contentType: String?) throws(APIClientError) -> (
        data: Data, contentType: String?
    ) {
        switch storage {
        case .data(let data, let type):
            return (data, type)
        case .json(let value):
            return (try value.encoded(), MediaType.json)
        case .form(let parameters):
            return (Data(parameters.percentEncoded.utf8), MediaType.form)
        case .failed(let reason):
            throw .invalidRequest(reason: reason)
        case .file(let url, let type, _):
            return (try FileBody.contents(of: url, limit: Self.maximumFileSizeLoadedInMemory), type)
        case .stream:
            throw .invalidRequest(
                reason: "a streamed body cannot be read into memory; send it with a transport that streams bodies")
        case .parameters(let value):
            let mediaType = contentType.map(MediaType.essence)
            if mediaType == MediaType.form {
                return (Data(try ParameterEncoding.dictionaryFormBody.percentEncoded(value).utf8), MediaType.form)
            }
            if mediaType == nil || mediaType.map(MediaType.isJSON) == true {
                return (try value.encoded(), MediaType.json)
            }
            throw .invalidRequest(
                reason: "a dictionary body cannot be encoded as \(DebugText.printable(contentType ?? "")); "
                    + "use HTTPBody.data(_:contentType:) or a JSON or form Content-Type"
            )
        }
    }
}

extension HTTPBody: ExpressibleByDictionaryLiteral {
    /// A Botham-style dictionary body: JSON unless the request's `Content-Type` is
    /// `application/x-www-form-urlencoded`. Members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        storage = .parameters(.object(elements.map { (key: $0.0, value: $0.1) }))
    }
}

extension HTTPBody: CustomStringConvertible {
    /// A description for people that never fails, whatever the bytes. The body fields ``Redactor/default`` hides
    /// (`password`, `client_secret`, tokens…) show `REDACTED` in JSON and form bodies.
    public var description: String {
        let redactor = Redactor.default
        switch storage {
        case .data(let data, let contentType):
            return DebugText.body(redactor.redact(body: data, contentType: contentType))
        case .json(let value), .parameters(let value):
            return (try? value.encoded()).map {
                DebugText.body(redactor.redact(body: $0, contentType: MediaType.json))
            }
                ?? "(JSON that cannot be encoded)"
        case .form(let parameters):
            let form = redactor.redact(
                body: Data(parameters.percentEncoded.utf8), contentType: MediaType.form)
            return DebugText.printable(String(decoding: form, as: UTF8.self))
        case .failed(let reason): return "(invalid body: \(reason))"
        case .file(let url, _, _): return "(contents of \(DebugText.printable(url.path)))"
        case .stream(let body, _): return "(streamed body\(body.length.map { " of \($0) bytes" } ?? ""))"
        }
    }
}
