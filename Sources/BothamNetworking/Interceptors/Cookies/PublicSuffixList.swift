import Foundation

/// The public suffixes (`com`, `co.uk`, `github.io`, …) under which no server may set a cookie for every site.
///
/// ``default`` is the system's list when there is one — the file Debian's and Ubuntu's `publicsuffix` package
/// installs at ``systemListPath`` (`apt-get install publicsuffix`), read once — and ``builtIn`` otherwise, a short
/// list of the most common suffixes. Load another copy of <https://publicsuffix.org/list/> with
/// ``init(rules:)`` or ``init(contentsOf:)``.
///
/// Rules follow the list's format: one per line, `//` comments, `*.` wildcards (`*.ck`: every label under `ck`) and
/// `!` exceptions (`!www.ck`: not a suffix despite the wildcard); a name no rule covers has its last label as its
/// suffix (the implicit `*` rule). A rule with Unicode (IDN) labels matches both its Unicode form and the Punycode
/// form hosts carry.
package struct PublicSuffixList: Sendable, Hashable {
    private var rules: Set<String> = []
    private var wildcards: Set<String> = []
    private var exceptions: Set<String> = []

    /// Where Debian's `publicsuffix` package puts the list.
    package static let systemListPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The list at ``systemListPath``, or `nil` when that file is missing or unreadable.
    package static let system: PublicSuffixList? = try? PublicSuffixList(
        contentsOf: URL(fileURLWithPath: systemListPath))

    /// The list in the file at `path`, or ``builtIn`` when that file is missing or unreadable: how ``default`` is
    /// chosen.
    package static func systemOrBuiltIn(at path: String) -> PublicSuffixList {
        (try? PublicSuffixList(contentsOf: URL(fileURLWithPath: path))) ?? builtIn
    }

    /// A small list built in: the generic and most used country suffixes, and well-known hosting suffixes.
    package static let builtIn = PublicSuffixList(
        rules: """
            com
            net
            org
            edu
            gov
            mil
            int
            info
            biz
            io
            dev
            app
            co
            me
            eu
            uk
            co.uk
            org.uk
            ac.uk
            gov.uk
            de
            fr
            es
            it
            nl
            jp
            co.jp
            au
            com.au
            net.au
            org.au
            br
            com.br
            cn
            com.cn
            in
            co.in
            ca
            us
            ru
            nz
            co.nz
            *.ck
            !www.ck
            github.io
            githubusercontent.com
            herokuapp.com
            appspot.com
            blogspot.com
            cloudfront.net
            azurewebsites.net
            netlify.app
            vercel.app
            pages.dev
            workers.dev
            s3.amazonaws.com
            """)

    /// The system's list when it is installed, else ``builtIn``.
    package static let `default` = systemOrBuiltIn(at: systemListPath)

    /// A list from the text of a `public_suffix_list.dat`. A rule with non-ASCII labels (`公司.cn`) is kept in its
    /// Unicode form and in the Punycode form hosts carry (`xn--55qx5d.cn`).
    package init(rules text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            guard let rule = line.split(whereSeparator: \.isWhitespace).first, !rule.hasPrefix("//") else { continue }
            let lowered = rule.lowercased()
            for form in Self.forms(of: lowered) {
                if form.hasPrefix("!") {
                    exceptions.insert(String(form.dropFirst()))
                } else if form.hasPrefix("*.") {
                    wildcards.insert(String(form.dropFirst(2)))
                } else {
                    rules.insert(form)
                }
            }
        }
    }

    /// `rule`, and its Punycode form when a label is not ASCII.
    private static func forms(of rule: String) -> [String] {
        guard rule.unicodeScalars.contains(where: { !$0.isASCII }) else { return [rule] }
        let labels = rule.split(separator: ".", omittingEmptySubsequences: false).map {
            Punycode.asciiLabel(String($0))
        }
        guard labels.allSatisfy({ $0 != nil }) else { return [rule] }
        return [rule, labels.compactMap { $0 }.joined(separator: ".")]
    }

    /// A list read from a `public_suffix_list.dat` file.
    ///
    /// - Throws: The error of reading the file.
    package init(contentsOf url: URL) throws {
        self.init(rules: try String(contentsOf: url, encoding: .utf8))
    }

    /// The number of rules (wildcards and exceptions included).
    package var count: Int { rules.count + wildcards.count + exceptions.count }

    /// Whether `domain` (lowercased, no trailing dot) is itself a public suffix, so no cookie may be set for it.
    package func isPublicSuffix(_ domain: String) -> Bool {
        let domain = domain.lowercased()
        if exceptions.contains(domain) { return false }
        if rules.contains(domain) { return true }
        guard let dot = domain.firstIndex(of: ".") else { return true }  // the implicit `*` rule
        return wildcards.contains(String(domain[domain.index(after: dot)...]))
    }
}
