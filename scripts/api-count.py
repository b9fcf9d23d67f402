#!/usr/bin/env python3
"""Counts the public declarations of each library module and holds them to the budget of CONTRIBUTING.md.

The count is the one issue #34 set: a line whose first word (after indentation) is `public` or `open`, other than
`public import` and `public extension`. A declaration marked `@available(..., deprecated ...)`, or inside a type or
extension so marked, is a shim on its way out (CONTRIBUTING.md, "Versioning") and is counted apart. Top-level types
are the public `struct`/`enum`/`class`/`actor`/`protocol`/`typealias` declarations at indentation zero.

Usage: python3 scripts/api-count.py            (print the counts; exit 1 when a budget is exceeded)
       python3 scripts/api-count.py --list M   (print every counted declaration of module M, file:line)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ["BothamNetworking", "BothamNetworkingNative", "BothamNetworkingTesting", "BothamNetworkingConformance"]
# Non-deprecated public declarations allowed (issue #34): the core, the whole package, the core's top-level types.
BUDGET_CORE, BUDGET_TOTAL, BUDGET_CORE_TYPES = 500, 800, 60

DECL = re.compile(r"^(\s*)(public|open)\s")
NOT_DECL = re.compile(r"^\s*public\s+(import|extension)\b")
TYPE = re.compile(r"^(public|open)\s+(final\s+)?(struct|enum|class|actor|protocol|typealias)\s")
DEPRECATED = re.compile(r"@available\([^)]*\bdeprecated\b")


def declarations(module):
    """Yields (path, line number, text, deprecated, top-level type) for each counted declaration of a module."""
    base = os.path.join(ROOT, "Sources", module)
    for folder, _, files in sorted(os.walk(base)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
            # Indentation levels of the deprecated scopes that are open, and whether the attribute lines just read
            # deprecate the next declaration.
            scopes, pending = [], False
            for number, line in enumerate(lines, 1):
                stripped = line.strip()
                indent = len(line) - len(line.lstrip())
                if stripped and not stripped.startswith("//") and not stripped.startswith("}"):
                    scopes = [level for level in scopes if level < indent]
                if DEPRECATED.search(line):
                    pending = True
                    continue
                if stripped.startswith("@") or not stripped or stripped.startswith("//"):
                    continue
                is_decl = DECL.match(line) and not NOT_DECL.match(line)
                opens_scope = re.match(r"^\s*(public\s+|package\s+|internal\s+)?(final\s+)?"
                                       r"(struct|enum|class|actor|protocol|extension)\b", line)
                deprecated = pending or bool(scopes)
                if pending and opens_scope:
                    scopes.append(indent)
                pending = False
                if is_decl:
                    yield (os.path.relpath(path, ROOT), number, stripped, deprecated, bool(TYPE.match(line)))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--list":
        for path, number, text, deprecated, _ in declarations(sys.argv[2]):
            print(f"{path}:{number}: {'[deprecated] ' if deprecated else ''}{text}")
        return 0
    total = {"all": 0, "live": 0}
    failures = []
    for module in MODULES:
        found = list(declarations(module))
        live = [item for item in found if not item[3]]
        types = [item for item in live if item[4]]
        total["all"] += len(found)
        total["live"] += len(live)
        print(f"{module}: {len(live)} public declarations, {len(found) - len(live)} deprecated; "
              f"{len(types)} top-level types")
        if module == "BothamNetworking":
            if len(live) > BUDGET_CORE:
                failures.append(f"{module}: {len(live)} public declarations, budget {BUDGET_CORE}")
            if len(types) > BUDGET_CORE_TYPES:
                failures.append(f"{module}: {len(types)} top-level types, budget {BUDGET_CORE_TYPES}")
    print(f"package: {total['live']} public declarations, {total['all'] - total['live']} deprecated")
    if total["live"] > BUDGET_TOTAL:
        failures.append(f"package: {total['live']} public declarations, budget {BUDGET_TOTAL}")
    for failure in failures:
        print(f"api count: over budget: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
