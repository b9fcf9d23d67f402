import Foundation

extension JSONEncoder {
    /// An encoder whose output `decoder` reads back: the date, data, key and non-conforming float strategies
    /// mirrored (`.iso8601` ↔ `.iso8601`, `.convertFromSnakeCase` ↔ `.convertToSnakeCase`, `.base64` ↔ `.base64`,
    /// …), the user info copied, the keys sorted so the bytes are the same on every run. The one place the mirror
    /// lives: ``ResponseDecoding/json(_:emptyResponses:)``'s encoder uses it.
    ///
    /// - Throws: ``ResponseEncodingError`` when a strategy is a closure (`.custom`), which has no inverse.
    static func mirroring(_ decoder: JSONDecoder) throws(ResponseEncodingError) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.userInfo = decoder.userInfo
        encoder.dateEncodingStrategy = try mirror(decoder.dateDecodingStrategy)
        encoder.dataEncodingStrategy = try mirror(decoder.dataDecodingStrategy)
        encoder.keyEncodingStrategy = try mirror(decoder.keyDecodingStrategy)
        encoder.nonConformingFloatEncodingStrategy = try mirror(decoder.nonConformingFloatDecodingStrategy)
        return encoder
    }

    private static func mirror(
        _ strategy: JSONDecoder.DateDecodingStrategy
    ) throws(ResponseEncodingError) -> DateEncodingStrategy {
        switch strategy {
        case .deferredToDate: return .deferredToDate
        case .secondsSince1970: return .secondsSince1970
        case .millisecondsSince1970: return .millisecondsSince1970
        case .iso8601: return .iso8601
        #if canImport(Darwin)
            case .formatted(let formatter): return .formatted(formatter)
        #endif
        case .custom: throw ResponseEncodingError(reason: "the decoder's dateDecodingStrategy is .custom")
        @unknown default: throw ResponseEncodingError(reason: "the decoder's dateDecodingStrategy is unknown")
        }
    }

    private static func mirror(
        _ strategy: JSONDecoder.DataDecodingStrategy
    ) throws(ResponseEncodingError) -> DataEncodingStrategy {
        switch strategy {
        case .deferredToData: return .deferredToData
        case .base64: return .base64
        case .custom: throw ResponseEncodingError(reason: "the decoder's dataDecodingStrategy is .custom")
        @unknown default: throw ResponseEncodingError(reason: "the decoder's dataDecodingStrategy is unknown")
        }
    }

    private static func mirror(
        _ strategy: JSONDecoder.KeyDecodingStrategy
    ) throws(ResponseEncodingError) -> KeyEncodingStrategy {
        switch strategy {
        case .useDefaultKeys: return .useDefaultKeys
        case .convertFromSnakeCase: return .convertToSnakeCase
        case .custom: throw ResponseEncodingError(reason: "the decoder's keyDecodingStrategy is .custom")
        @unknown default: throw ResponseEncodingError(reason: "the decoder's keyDecodingStrategy is unknown")
        }
    }

    private static func mirror(
        _ strategy: JSONDecoder.NonConformingFloatDecodingStrategy
    ) throws(ResponseEncodingError) -> NonConformingFloatEncodingStrategy {
        switch strategy {
        case .throw:
            return .throw
        case .convertFromString(let positiveInfinity, let negativeInfinity, let nan):
            return .convertToString(positiveInfinity: positiveInfinity, negativeInfinity: negativeInfinity, nan: nan)
        @unknown default:
            throw ResponseEncodingError(reason: "the decoder's nonConformingFloatDecodingStrategy is unknown")
        }
    }
}
