/// What makes two requests the same for ``RequestCoalescingInterceptor``: the method, the resolved URL and the values
/// of the header fields that matter (each field's values in order; a missing field is an empty list).
struct CoalescingKey: Hashable, Sendable {
    /// The method and URL.
    let target: VaryMemory.Target
    /// The fields that matter, by lower-cased name, in name order.
    let fields: [Field]

    /// One field that matters and its values.
    struct Field: Hashable, Sendable {
        let name: String
        let values: [String]
    }

    /// The key of `request` over the fields named in `names`.
    init(_ request: HTTPRequest, target: VaryMemory.Target, names: Set<HTTPFieldName>) {
        self.target = target
        fields = names.sorted { $0.canonicalName < $1.canonicalName }.map {
            Field(name: $0.canonicalName, values: request.headers.values(for: $0))
        }
    }
}
