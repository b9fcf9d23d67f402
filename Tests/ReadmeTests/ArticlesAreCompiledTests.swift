import Foundation
import Testing

/// The recipes cannot lie: every Swift block of the DocC articles that scripts/readme-snippets.py compiles is part
/// of this test target, in ArticleSnippets.swift.
@Suite("The DocC articles' code", .timeLimit(.minutes(1)))
struct ArticlesAreCompiledTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The articles whose blocks are compiled (`ARTICLES` in scripts/readme-snippets.py).
    private static let articles = [
        "SigningRequests.md", "PerServiceClientRecipes.md", "Tracing.md", "Coalescing.md", "Caching.md",
        "RunningTheConformanceSuite.md", "ChaosTesting.md", "TestingYourAPIClient.md",
        "BothamNetworkingConformance.md", "BothamNetworkingTesting.md", "UsingHTTP2.md", "RequestsAndBodies.md",
        "TypedEndpoints.md", "UploadsAndDownloads.md", "Cookies.md", "LoggingMetricsAndValidation.md",
        "ChoosingATransport.md", "Retrying.md", "Authentication.md", "StreamingAndServerSentEvents.md",
        "BothamNetworkingNative.md", "RealNetworks.md", "UsingProxies.md", "Pagination.md", "WebSockets.md",
        "RateLimits.md", "UnixDomainSockets.md", "IdempotencyKeys.md", "TLS.md",
    ]
    /// The catalog of an article that is not BothamNetworking's (`CATALOGS` in scripts/readme-snippets.py), the
    /// landing pages of those modules included.
    private static let catalogs = [
        "RunningTheConformanceSuite.md": "Sources/BothamNetworkingConformance/BothamNetworkingConformance.docc",
        "BothamNetworkingConformance.md": "Sources/BothamNetworkingConformance/BothamNetworkingConformance.docc",
        "BothamNetworkingTesting.md": "Sources/BothamNetworkingTesting/BothamNetworkingTesting.docc",
        "UsingHTTP2.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
        "BothamNetworkingNative.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
        "RealNetworks.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
        "UsingProxies.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
        "UnixDomainSockets.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
    ]

    /// The lines that count: imports (conditional ones included) move to the top of the generated file.
    private static func normalized(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") && !$0.hasPrefix("#if canImport(") && $0 != "#endif" }
    }

    @Test("Every Swift block of the compiled DocC articles is in ArticleSnippets.swift", arguments: articles)
    func everyBlockIsCompiled(article: String) throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent(
                "\(Self.catalogs[article] ?? "Sources/BothamNetworking/BothamNetworking.docc")/\(article)"),
            encoding: .utf8
        )
        let snippets = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/ReadmeTests/ArticleSnippets.swift"),
            encoding: .utf8
        )
        #expect(snippets.contains("// \(article) block 1"))
        let compiled = Self.normalized(snippets).joined(separator: "\n")
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
        #expect(!blocks.isEmpty)
        // A block marked `// Not compiled` imports a package this one does not depend on (a tracing bridge).
        for block in blocks where !block.hasPrefix("// Not compiled") {
            #expect(
                compiled.contains(Self.normalized(block).joined(separator: "\n")),
                "\(article) block not in ArticleSnippets.swift (run scripts/readme-snippets.py):\n\(block.prefix(200))"
            )
        }
    }
}
