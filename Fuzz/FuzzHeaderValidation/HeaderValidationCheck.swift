import BothamNetworking
import Foundation
import FuzzSupport

/// Properties of header validation, for any names and values:
///
/// - a name that `HTTPFieldName.isValid` accepts is a non-empty RFC 9110 token (no CTL, space, separator or
///   non-ASCII byte);
/// - headers that `HTTPHeaders.validationFailure` accepts hold no CR, LF, NUL or other control character (HTAB
///   aside) in any name or value, so nothing can split a header line; headers holding one are rejected, and the
///   rejection message and the headers' description carry no raw control character (no forged log lines).
enum HeaderValidationCheck {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        var headers = HTTPHeaders()
        for _ in 0..<(1 + input.choice(4)) {
            let name = HTTPFieldName(input.string(maxLength: 32))
            checkName(name)
            headers.add(name, input.string(maxLength: 64))
        }
        checkHeaders(headers)
    }

    private static func checkName(_ name: HTTPFieldName) {
        guard name.isValid else { return }
        let bytes = Array(name.rawName.utf8)
        fuzzExpect(!bytes.isEmpty, "empty name accepted")
        for byte in bytes {
            fuzzExpect(byte > 0x20 && byte < 0x7F, "name with byte \(byte) accepted")
            fuzzExpect(!"()<>@,;:\\\"/[]?={}".utf8.contains(byte), "name with separator \(byte) accepted")
        }
    }

    private static func checkHeaders(_ headers: HTTPHeaders) {
        let failure = headers.validationFailure
        let allAcceptable = headers.allSatisfy { field in
            field.name.isValid && field.value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
        }
        guard let failure else {
            fuzzExpect(allAcceptable, "headers with a control character accepted: \(headers)")
            for field in headers {
                for byte in Array(field.name.rawName.utf8) + Array(field.value.utf8) {
                    fuzzExpect(byte != 0x0D && byte != 0x0A && byte != 0x00, "CR/LF/NUL accepted")
                }
            }
            return
        }
        fuzzExpect(!allAcceptable, "valid headers rejected: \(failure)")
        fuzzExpect(!containsControlCharacter(failure), "failure message with raw control characters: \(failure)")
        let lineBreaks = headers.description.unicodeScalars.filter { $0 == "\n" }.count
        let otherControls = headers.description.unicodeScalars.filter { $0 != "\n" && isControl($0) }
        fuzzExpect(lineBreaks == headers.fields.count - 1, "description is not one line per field: \(headers)")
        fuzzExpect(otherControls.isEmpty, "raw control characters in the description: \(otherControls)")
    }

    private static func containsControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }
}
