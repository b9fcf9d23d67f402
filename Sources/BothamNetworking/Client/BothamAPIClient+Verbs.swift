extension BothamAPIClient {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `GET path`.
    public func GET(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:]
    ) async -> Result<HTTPResponse, APIClientError> {
        await send(request(.get, path, parameters: parameters, headers: headers))
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `POST path` with an optional body.
    public func POST(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil
    ) async -> Result<HTTPResponse, APIClientError> {
        await send(request(.post, path, parameters: parameters, headers: headers, body: body))
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `PUT path` with an optional body.
    public func PUT(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil
    ) async -> Result<HTTPResponse, APIClientError> {
        await send(request(.put, path, parameters: parameters, headers: headers, body: body))
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `DELETE path` with an optional body.
    public func DELETE(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil
    ) async -> Result<HTTPResponse, APIClientError> {
        await send(request(.delete, path, parameters: parameters, headers: headers, body: body))
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `PATCH path` with an optional body.
    public func PATCH(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil
    ) async -> Result<HTTPResponse, APIClientError> {
        await send(request(.patch, path, parameters: parameters, headers: headers, body: body))
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `HEAD path`.
    public func HEAD(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:]
    ) async -> Result<HTTPResponse, APIClientError> {
        await send(request(.head, path, parameters: parameters, headers: headers))
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `OPTIONS path`.
    public func OPTIONS(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:]
    ) async -> Result<HTTPResponse, APIClientError> {
        await send(request(.options, path, parameters: parameters, headers: headers))
    }
}
