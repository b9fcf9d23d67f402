import Foundation

// Scalar by scalar because a comparison of `Character`s would not see a combining mark after a quote, `;`, `=` or
// backslash: found by `Fuzz/FuzzContentDisposition`.
/// The one reader of header-field parameters (RFC 9110 §5.6.6): `value; name=token; name="quoted \" string"`, as
/// `Content-Type` (``MediaType``) and `Content-Disposition` (RFC 6266, `SuggestedFilename`) carry them.
///
/// The value is split at the semicolons that are not inside a quoted string; each part after the first is a
/// parameter whose name (lower-cased) runs to the first `=` and whose value is a token or a quoted string (RFC 9110
/// §5.6.4: the quotes are removed and each quoted-pair `\x` becomes `x`). White space around names and values is
/// ignored, a part without `=` is skipped, and whatever follows a closing quote is dropped. It reads Unicode
/// scalar by scalar, so a quote, `;`, `=` or backslash followed by a combining mark still counts, and every input
/// gives an answer.
enum FieldParameters {
    /// One parameter: its lower-cased name and its value, unquoted.
    struct Parameter: Sendable, Hashable {
        /// The name, lower-cased.
        let name: String
        /// The value, without quotes and with quoted-pairs undone.
        let value: String
    }

    /// How a quoted-pair other than `\"` and `\\` is read.
    enum Escapes: Sendable {
        /// As RFC 9110 says: `\x` is `x`, whatever `x` is.
        case rfc9110
        /// The backslash is kept: servers send Windows paths in `Content-Disposition` unescaped
        /// (`filename="C:\files\a.txt"`).
        case keepingUnknown
    }

    /// The text before the first parameter, and the parameters in order (a name may come more than once).
    static func parse(_ value: String, escapes: Escapes = .rfc9110) -> (head: String, parameters: [Parameter]) {
        let parts = splitAtSemicolons(value)
        let head = String(String.UnicodeScalarView(parts[0]))
        var parameters: [Parameter] = []
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = String(String.UnicodeScalarView(part[..<equals])).trimmingCharacters(in: .whitespaces)
                .lowercased()
            var parameterValue = String(String.UnicodeScalarView(part[(equals + 1)...])).trimmingCharacters(
                in: .whitespaces)
            if parameterValue.unicodeScalars.first == "\"" {
                parameterValue = unquoted(parameterValue.unicodeScalars.dropFirst(), escapes: escapes)
            }
            parameters.append(Parameter(name: name, value: parameterValue))
        }
        return (head, parameters)
    }

    /// `value` split at the semicolons that are not inside a quoted string (always at least one part).
    private static func splitAtSemicolons(_ value: String) -> [[Unicode.Scalar]] {
        var parts: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var inQuotes = false
        var escaped = false
        for scalar in value.unicodeScalars {
            if escaped {
                current.append(scalar)
                escaped = false
            } else if scalar == "\\" && inQuotes {
                current.append(scalar)
                escaped = true
            } else if scalar == "\"" {
                inQuotes.toggle()
                current.append(scalar)
            } else if scalar == ";" && !inQuotes {
                parts.append(current)
                current = []
            } else {
                current.append(scalar)
            }
        }
        parts.append(current)
        return parts
    }

    /// The content of a quoted string whose opening quote is already dropped, up to its closing quote (or the end).
    private static func unquoted(_ scalars: Substring.UnicodeScalarView, escapes: Escapes) -> String {
        var result = String.UnicodeScalarView()
        var escaped = false
        for scalar in scalars {
            if escaped {
                if escapes == .keepingUnknown && scalar != "\"" && scalar != "\\" { result.append("\\") }
                result.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                break
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
