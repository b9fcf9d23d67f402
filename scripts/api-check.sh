#!/usr/bin/env bash
# The public API of every library product against the committed dump in api/<Module>.api (CONTRIBUTING.md,
# "Versioning"): fails when a declaration of the dump is gone or changed (a breaking change) and when the dump is
# stale (new or newly deprecated API not committed). `--update` rewrites the dump: the one command after a deliberate
# API change.
# Usage: scripts/api-check.sh [--update]
set -euo pipefail
cd "$(dirname "$0")/.."
# The same scratch build, flags and folder as scripts/docs.sh, so after it this build has nothing to do. The compiler
# writes symbol graphs only for modules it recompiles; the folder is never emptied.
graphs=.build/docs-build/symbol-graphs
mkdir -p "$graphs"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
swift build --scratch-path .build/docs-build \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >"$log" 2>&1 ||
    { cat "$log"; echo "api check: the symbol-graph build failed" >&2; exit 1; }
python3 scripts/api-dump.py --graphs "$graphs" "$@"
