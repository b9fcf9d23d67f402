#!/usr/bin/env bash
# Code written against the previous release's documented API still compiles, with deprecation warnings only.
# Typechecks api/previous-release/*.swift (the previous README's code, verbatim) against the modules of the last
# `swift build` (run it first): fails on any error or on any warning that is not a deprecation, and prints the
# deprecation warnings it met. See CONTRIBUTING.md, "Versioning".
# It first typechecks this release's README and DocC article code (Tests/ReadmeTests/*Snippets.swift) the same way, from
# outside the package, where `package` declarations are invisible: the docs may teach only public API, and no
# deprecated one.
# Usage: scripts/previous-api-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/debug
[ -d "$bin/Modules" ] || { echo "previous-api check: no $bin/Modules; run swift build first" >&2; exit 1; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
typecheck() {
    swiftc -typecheck -swift-version 6 -I "$bin/Modules" \
        -I Sources/CBothamNativeShims/include -Xcc -fmodule-map-file="$bin/CBothamNativeShims.build/module.modulemap" \
        -Xcc -fmodule-map-file=Sources/CBothamOpenSSL/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CBothamZlib/module.modulemap "$@"
}
if ! typecheck Tests/ReadmeTests/ReadmeSnippets.swift Tests/ReadmeTests/ArticleSnippets.swift >"$log" 2>&1 ||
    grep -qE '^[^ ]+:[0-9]+:[0-9]+: (error|warning): ' "$log"; then
    grep -E '^[^ ]+:[0-9]+:[0-9]+: (error|warning): ' "$log" || cat "$log"
    echo "previous-api check: the README or DocC article code uses non-public or deprecated API" >&2
    exit 1
fi
typecheck api/previous-release/*.swift >"$log" 2>&1 || status=$?
# One line per diagnostic: "file:line:col: kind: message".
diagnostics="$(grep -E '^[^ ]+:[0-9]+:[0-9]+: (error|warning): ' "$log" || true)"
errors="$(grep -E ': error: ' <<<"$diagnostics" || true)"
others="$(grep -E ': warning: ' <<<"$diagnostics" | grep -v -E "is deprecated|has been renamed to|deprecated:" || true)"
deprecations="$(grep -E ': warning: ' <<<"$diagnostics" | grep -E "is deprecated|has been renamed to|deprecated:" || true)"
if [ -n "$deprecations" ]; then
    echo "deprecation warnings the previous release's code meets:"
    sed -E 's/^[^:]*\/([^/:]+:[0-9]+:[0-9]+): warning: /  \1: /' <<<"$deprecations"
fi
if [ "$status" -ne 0 ] || [ -n "$errors" ] || [ -n "$others" ]; then
    [ -n "$errors$others" ] && printf '%s\n' "$errors" "$others" | sed '/^$/d'
    [ -z "$errors$others" ] && cat "$log"
    echo "previous-api check: the previous release's documented API no longer compiles with deprecation warnings" \
        "only. Keep the old spelling as an @available(*, deprecated, renamed:/message:) shim in" \
        "Sources/<Module>/Deprecated/ (CONTRIBUTING.md, \"Versioning\")." >&2
    exit 1
fi
echo "previous-api check: api/previous-release compiles; $(grep -c . <<<"$deprecations" || true) deprecation warnings, nothing else"
