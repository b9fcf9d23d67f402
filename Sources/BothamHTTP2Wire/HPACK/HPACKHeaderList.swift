/// The fields of one block as the decoder collects them, counted against SETTINGS_MAX_HEADER_LIST_SIZE: past the
/// limit it keeps counting but stops keeping fields, so a compression bomb costs no memory while the decoder still
/// reads the whole block and its table stays in step.
struct HeaderList {
    /// The most bytes the fields may take, name + value + 32 each.
    let limit: Int
    /// The fields kept so far (none once the list is over the limit).
    private(set) var fields: [HPACKHeaderField] = []
    /// The bytes counted so far.
    private(set) var size = 0

    /// A list of at most `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the fields took more than the limit.
    var overLimit: Bool { size > limit }

    /// Counts `field`, and keeps it while the list is within the limit.
    mutating func append(_ field: HPACKHeaderField) {
        guard !overLimit else { return }
        size += field.size
        if overLimit {
            fields = []
        } else {
            fields.append(field)
        }
    }
}
