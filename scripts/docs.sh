#!/usr/bin/env bash
# Builds the DocC documentation of every library with warnings as errors (no plugin needed), and merges the four
# archives into one static site (an API reference to browse on Linux): RunningOnLinux.md says how to open it.
# Usage: scripts/docs.sh [OUTPUT_DIR]   (default .build/docs-site)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/docs-site}"
# The compiler writes symbol graphs only for modules it recompiles, so the folder lives beside the scratch build and
# is never emptied; each module's graphs are copied into a folder of their own for docc.
graphs=.build/docs-build/symbol-graphs
archives=.build/docs-archives
rm -rf "$out" .build/docs-graphs "$archives"
mkdir -p "$graphs" "$archives"
swift build --scratch-path .build/docs-build \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >/dev/null
for module in BothamNetworking BothamNetworkingTesting BothamNetworkingNative BothamNetworkingConformance; do
    mkdir -p ".build/docs-graphs/$module"
    cp "$graphs/$module".symbols.json ".build/docs-graphs/$module/"
    cp "$graphs/$module"@*.symbols.json ".build/docs-graphs/$module/" 2>/dev/null || true
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir ".build/docs-graphs/$module" \
        --output-path "$archives/$module.doccarchive" \
        --transform-for-static-hosting \
        --warnings-as-errors
done
# One site, served from its root: a landing page lists the four libraries.
docc merge "$archives"/*.doccarchive --output-path "$out" --synthesized-landing-page-name BothamNetworking \
    --synthesized-landing-page-kind Package >/dev/null
[ -f "$out/index.html" ] && [ -d "$out/documentation/bothamnetworking" ] ||
    { echo "docs: the merged site in $out has no index.html or BothamNetworking pages" >&2; exit 1; }
echo "docs: built into $out (browse: python3 -m http.server --directory $out 8000, then open"
echo "      http://localhost:8000/documentation/)"
