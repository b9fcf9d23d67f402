#!/usr/bin/env python3
"""Writes every Swift code block of README.md into Tests/ReadmeTests/ReadmeSnippets.swift, and every Swift code block
of the DocC articles in ARTICLES into Tests/ReadmeTests/ArticleSnippets.swift, so the tests compile them.

Blocks made only of declarations stay at file scope (so a README `@Test` really runs, and a recipe's types can be
used by RecipeTests); blocks with statements are wrapped in a function (async when they use `await`) that takes an
`apiClient`, compiled but not called, since they talk to real services. A block whose first line is
`// Package.swift` is a manifest, not library code, and is skipped; so is a block whose first line starts with
`// Not compiled` (a bridge to a package this one does not depend on, marked as such in the article). Imports move to the top of the file, conditional
ones (`#if canImport(X)` / `import X` / `#endif`) included.
ReadmeTests/ReadmeIsCompiledTests.swift and ReadmeTests/ArticlesAreCompiledTests.swift fail when a README or article
block is not in its file: run `python3 scripts/readme-snippets.py` after editing them.
"""
import pathlib
import re

root = pathlib.Path(__file__).resolve().parent.parent
docc = "Sources/BothamNetworking/BothamNetworking.docc"
# The articles whose every block is compiled (their blocks are complete programs, not fragments).
ARTICLES = [
    "SigningRequests.md", "PerServiceClientRecipes.md", "Tracing.md", "Coalescing.md", "Caching.md",
    "RunningTheConformanceSuite.md", "ChaosTesting.md", "TestingYourAPIClient.md",
    "BothamNetworkingConformance.md", "BothamNetworkingTesting.md", "UsingHTTP2.md", "RequestsAndBodies.md",
    "TypedEndpoints.md", "UploadsAndDownloads.md", "Cookies.md", "LoggingMetricsAndValidation.md",
    "ChoosingATransport.md", "Retrying.md", "Authentication.md", "StreamingAndServerSentEvents.md",
    "BothamNetworkingNative.md", "RealNetworks.md", "UsingProxies.md", "Pagination.md", "WebSockets.md",
    "RateLimits.md", "UnixDomainSockets.md", "IdempotencyKeys.md", "TLS.md",
]
# The catalog of an article that is not BothamNetworking's (those modules' landing pages included).
CATALOGS = {
    "RunningTheConformanceSuite.md": "Sources/BothamNetworkingConformance/BothamNetworkingConformance.docc",
    "BothamNetworkingConformance.md": "Sources/BothamNetworkingConformance/BothamNetworkingConformance.docc",
    "BothamNetworkingTesting.md": "Sources/BothamNetworkingTesting/BothamNetworkingTesting.docc",
    "UsingHTTP2.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
    "BothamNetworkingNative.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
    "RealNetworks.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
    "UsingProxies.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
    "UnixDomainSockets.md": "Sources/BothamNetworkingNative/BothamNetworkingNative.docc",
}

declaration = re.compile(r"^(//|((struct|enum|final class|class|func|extension|protocol|@Test|import)\b))")
conditional_import = re.compile(r"#if canImport\((\w+)\)$")
base_imports = {"import BothamNetworking", "import BothamNetworkingTesting", "import Foundation", "import Testing"}


def blocks_of(path):
    return re.findall(r"```swift\n(.*?)```", (root / path).read_text(), re.S)


def split_imports(block):
    """The block's imports, its conditional imports (module names) and the rest of its lines."""
    lines = block.rstrip("\n").split("\n")
    imports, conditional, body = set(), [], []
    index = 0
    while index < len(lines):
        line = lines[index]
        match = conditional_import.match(line)
        if match and lines[index + 1 : index + 3] == [f"import {match.group(1)}", "#endif"]:
            conditional.append(match.group(1))
            index += 3
            continue
        if line.startswith("import "):
            imports.add(line.strip())
        else:
            body.append(line)
        index += 1
    return imports, conditional, body


def generate(sources, output, header, label, function_prefix):
    """Writes the blocks of `sources` ([(name, blocks)]) to `output`."""
    imports, conditionals, parts = set(base_imports), [], []
    for name, blocks in sources:
        for index, block in enumerate(blocks):
            if block.startswith("// Not compiled"):
                continue
            block_imports, block_conditionals, lines = split_imports(block)
            imports.update(block_imports)
            conditionals.extend(module for module in block_conditionals if module not in conditionals)
            if lines and lines[0].strip() == "// Package.swift":
                continue
            top_level = [line for line in lines if line and not line[0].isspace() and line[0] != "}"]
            where = label(name, index + 1)
            if all(declaration.match(line) for line in top_level):
                parts.append(f"// {where}")
                parts.extend(lines)
            else:
                effect = " async throws" if "await" in block else " throws"
                parts.append(f"// {where}: compiled, never called (it talks to real services)")
                parts.append(f"@Sendable func {function_prefix(name)}{index + 1}(apiClient: BothamAPIClient){effect} {{")
                parts.extend(("    " + line) if line else "" for line in lines)
                parts.append("}")
            parts.append("")
    out = [header, "// swift-format-ignore-file", *sorted(imports)]
    for module in conditionals:
        out.extend([f"#if canImport({module})", f"import {module}", "#endif"])
    out.append("")
    (root / output).parent.mkdir(parents=True, exist_ok=True)
    (root / output).write_text("\n".join(out + parts))
    return sum(len(blocks) for _, blocks in sources)


readme = generate(
    [("README.md", blocks_of("README.md"))],
    "Tests/ReadmeTests/ReadmeSnippets.swift",
    "// Generated by scripts/readme-snippets.py from README.md. Do not edit: edit the README and run the script.",
    lambda _, number: f"README block {number}",
    lambda _: "readmeBlock",
)
print(f"wrote {readme} README blocks to Tests/ReadmeTests/ReadmeSnippets.swift")

articles = generate(
    [(name, blocks_of(f"{CATALOGS.get(name, docc)}/{name}")) for name in ARTICLES],
    "Tests/ReadmeTests/ArticleSnippets.swift",
    "// Generated by scripts/readme-snippets.py from the DocC articles "
    + ", ".join(ARTICLES)
    + ". Do not edit: edit the articles and run the script.",
    lambda name, number: f"{name} block {number}",
    lambda name: name[0].lower() + name[1:-3] + "Block",
)
print(f"wrote {articles} article blocks to Tests/ReadmeTests/ArticleSnippets.swift")
