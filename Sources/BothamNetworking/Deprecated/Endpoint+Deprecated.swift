// #34 folded Endpoint's three initialisers: a text endpoint names its decoding (`decoding: .string()`), like any
// other that is not JSON. The old spelling keeps compiling for at least one minor version.
import Foundation

extension Endpoint where Response == String {
    /// Creates an endpoint whose response is text, read in the charset its `Content-Type` names (UTF-8 when none).
    @available(*, deprecated, message: "pass decoding: .string()")
    public init(
        _ method: HTTPMethod,
        _ path: String,
        parameters: JSONValue? = nil,
        encoding: ParameterEncoding = .default,
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        timeout: Duration? = nil
    ) {
        self.init(
            method,
            path,
            parameters: parameters,
            encoding: encoding,
            headers: headers,
            body: body,
            timeout: timeout,
            decoding: .string()
        )
    }
}
