extension HTTPRequest {
    /// A copy without the fields named `name`.
    @available(*, deprecated, message: "use withHeader(name, nil)")
    public func removingHeader(_ name: HTTPFieldName) -> HTTPRequest {
        withHeader(name, nil)
    }
}
