// #34 nested MultipartPart in its owner as MultipartFormData.Part;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``MultipartFormData/Part``.
@available(*, deprecated, renamed: "MultipartFormData.Part")
public typealias MultipartPart = MultipartFormData.Part
