// Former top-level names of types that now live under the type they belong to (issue #34). Each compiles for one
// more minor version with a warning that names the replacement (CONTRIBUTING.md, "Versioning").

/// An HTTP status code and its class.
@available(*, deprecated, renamed: "HTTPResponse.Status")
public typealias HTTPStatus = HTTPResponse.Status

/// Why a request failed below HTTP.
@available(*, deprecated, renamed: "APIClientError.NetworkFailure")
public typealias NetworkFailure = APIClientError.NetworkFailure
