#!/usr/bin/env bash
# Builds the DocC documentation of every library with warnings as errors (no plugin needed).
# Usage: scripts/docs.sh [OUTPUT_DIR]   (default .build/docs-site)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/docs-site}"
# The compiler writes symbol graphs only for modules it recompiles, so the folder lives beside the scratch build and
# is never emptied; each module's graphs are copied into a folder of their own for docc.
graphs=.build/docs-build/symbol-graphs
rm -rf "$out" .build/docs-graphs
mkdir -p "$graphs" "$out"
swift build --scratch-path .build/docs-build \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >/dev/null
for module in BothamNetworking BothamNetworkingTesting BothamNetworkingNative BothamNetworkingConformance; do
    mkdir -p ".build/docs-graphs/$module"
    cp "$graphs/$module".symbols.json ".build/docs-graphs/$module/"
    cp "$graphs/$module"@*.symbols.json ".build/docs-graphs/$module/" 2>/dev/null || true
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir ".build/docs-graphs/$module" \
        --output-path "$out/$module" \
        --warnings-as-errors
done
echo "docs: built into $out"
