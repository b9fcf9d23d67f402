import Foundation
import Testing

/// The README cannot lie: every Swift block in it is compiled as part of this test target.
@Suite("The README's code", .timeLimit(.minutes(1)))
struct ReadmeIsCompiledTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private static func normalized(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            // Imports (conditional ones included) go to the top of the generated file, not into the block's body.
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") && !$0.hasPrefix("#if canImport(") && $0 != "#endif" }
    }

    @Test("Every Swift block of README.md is in the compiled snippets file")
    func everyBlockIsCompiled() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let snippets = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/ReadmeTests/ReadmeSnippets.swift"),
            encoding: .utf8
        )
        let compiled = Self.normalized(snippets).joined(separator: "\n")
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
        #expect(blocks.count >= 5)
        for block in blocks where !block.hasPrefix("// Package.swift") {
            let lines = Self.normalized(block).joined(separator: "\n")
            #expect(
                compiled.contains(lines),
                "README block not in ReadmeSnippets.swift (run scripts/readme-snippets.py):\n\(block.prefix(200))"
            )
        }
    }
}
