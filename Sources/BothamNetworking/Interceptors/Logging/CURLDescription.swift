import Foundation

extension HTTPRequest {
    /// The request as a `curl` command for a POSIX shell, with secrets hidden by `redactor`.
    ///
    /// ```swift
    /// print(request.cURLDescription())
    /// // curl -X 'POST' 'https://api.example.com/login' -H 'Authorization: REDACTED' --data-binary '{"a":1}'
    /// ```
    ///
    /// Every argument is single-quoted (a `'` inside becomes `'\''`), so the command is safe to paste whatever the
    /// values. The body is the one that would be sent (dictionary bodies encoded, `Content-Type` added). A body that
    /// is not UTF-8 text, or holds NUL bytes, is piped in with `printf '%b' … | curl … --data-binary @-` using octal
    /// escapes; a file body is referenced as `--data-binary '@/path'`, never read. The values of the redactor's body
    /// fields in a JSON or form body are hidden (``Redactor/redact(body:contentType:)``). Pass ``Redactor/none`` to
    /// show secrets (only for local debugging).
    public func cURLDescription(redactor: Redactor = .default) -> String {
        let request = (try? prepared()) ?? self
        var arguments = ["curl"]
        switch request.method {
        case .get: break
        case .head: arguments.append("--head")
        default: arguments += ["-X", ShellQuoting.quote(request.method.rawValue)]
        }
        arguments.append(ShellQuoting.quote(redactor.redactedURL(of: request)))
        for field in redactor.redact(request.headers).fields {
            arguments += ["-H", ShellQuoting.quote("\(field.name.rawName): \(field.value)")]
        }
        if let timeout = request.timeout {
            arguments += ["--max-time", ShellQuoting.quote(String(format: "%.3f", timeout.seconds))]
        }
        if let url = request.body?.fileURL {
            arguments += ["--data-binary", ShellQuoting.quote("@" + url.path)]
            return arguments.joined(separator: " ")
        }
        guard let sent = (try? request.bodyData()) ?? nil, !sent.isEmpty else {
            return arguments.joined(separator: " ")
        }
        let data = redactor.redact(body: sent, contentType: request.headers[.contentType])
        if !data.contains(0), let text = DebugText.validUTF8(data) {
            arguments += ["--data-binary", ShellQuoting.quote(text)]
            return arguments.joined(separator: " ")
        }
        arguments += ["--data-binary", "@-"]
        return "printf '%b' \(ShellQuoting.quote(ShellQuoting.octalEscaped(data))) | "
            + arguments.joined(separator: " ")
    }
}

/// POSIX shell quoting.
enum ShellQuoting {
    /// `text` in single quotes; each `'` becomes `'\''` (close, escaped quote, reopen).
    static func quote(_ text: String) -> String {
        // Scalar by scalar: `replacingOccurrences` compares Characters, so a `'` followed by a combining mark would
        // slip through unescaped and end the argument (found by fuzzing; see Reliability/CURLQuotingTests).
        var quoted = "'"
        for scalar in text.unicodeScalars {
            if scalar == "'" { quoted += #"'\''"# } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "'"
    }

    /// Every byte as a `\0NNN` escape understood by `printf '%b'`.
    static func octalEscaped(_ data: Data) -> String {
        var result = ""
        result.reserveCapacity(data.count * 5)
        for byte in data {
            let octal = String(byte, radix: 8)
            result += "\\0" + String(repeating: "0", count: 3 - octal.count) + octal
        }
        return result
    }
}
