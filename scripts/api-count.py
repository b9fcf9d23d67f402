#!/usr/bin/env python3
"""Counts the public declarations of each library module and holds them to the budget of CONTRIBUTING.md.

The count is the one issue #34 set: a line whose first word (after indentation) is `public` or `open`, other than
`public import` and `public extension`. Two kinds are counted apart, and the budget is held on the rest, the API a
user learns:
- a declaration marked `@available(..., deprecated ...)`, or inside a type or extension so marked: a shim on its way
  out (CONTRIBUTING.md, "Versioning");
- a requirement of a standard Swift or Foundation protocol the type conforms to (`==`, `hash(into:)`, `<`,
  `description`, `debugDescription`, `customMirror`, `errorDescription`, `rawValue`, the literal and `Decoder`
  initializers, `encode(to:)`, `makeIterator()`, `makeAsyncIterator()`, an iterator and its `next()`,
  `underestimatedCount`): nothing new to learn, the conformance is the API.
Top-level types are the public `struct`/`enum`/`class`/`actor`/`protocol`/`typealias` declarations at indentation
zero.

Usage: python3 scripts/api-count.py            (print the counts; exit 1 when a budget is exceeded)
       python3 scripts/api-count.py --list M   (print every counted declaration of module M, file:line)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ["BothamNetworking", "BothamNetworkingNative", "BothamNetworkingTesting", "BothamNetworkingConformance"]
# Non-deprecated public declarations allowed (issue #34): the core, the whole package, the core's top-level types.
# The 1.0 budget (#34), raised only by the API review of a feature issue, each raise in CONTRIBUTING.md's ledger
# ("Versioning"): #35 WebSockets +28 core (+1 type) and +10 test kit, #37 RateLimitInterceptor +8 core (+1 type),
# #36 Unix domain sockets +1 test kit, #36 TLS +14 core (+1 type; the native module's TLS types moved to the core).
BUDGET_CORE, BUDGET_TOTAL, BUDGET_CORE_TYPES = 500 + 28 + 8 + 14, 800 + 38 + 8 + 1, 60 + 2 + 1

DECL = re.compile(r"^(\s*)(public|open)\s")
NOT_DECL = re.compile(r"^\s*public\s+(import|extension)\b")
TYPE = re.compile(r"^(public|open)\s+(final\s+)?(struct|enum|class|actor|protocol|typealias)\s")
DEPRECATED = re.compile(r"@available\([^)]*\bdeprecated\b")
WITNESS = re.compile(
    r"^(public|open)\s+(static\s+|nonisolated\s+)*("
    r"func\s+(==|<|hash\(into|encode\(to|makeIterator\(\)|makeAsyncIterator\(\))"
    r"|mutating\s+func\s+next\(\)"
    r"|var\s+(description|debugDescription|customMirror|errorDescription|underestimatedCount)\s*:"
    r"|let\s+rawValue\s*:"
    r"|init\((from decoder|rawValue|stringLiteral|integerLiteral|floatLiteral|booleanLiteral|nilLiteral"
    r"|arrayLiteral|dictionaryLiteral)\b"
    r"|struct\s+(AsyncIterator|Iterator)\s*:\s*(AsyncIteratorProtocol|IteratorProtocol))"
)


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
            scopes, pending, attribute = [], False, None
            for number, line in enumerate(lines, 1):
                stripped = line.strip()
                # An attribute written over several lines (`@available(` … `)`) is read whole.
                if attribute is not None:
                    attribute += " " + stripped
                    if attribute.count("(") > attribute.count(")"):
                        continue
                    pending = pending or bool(DEPRECATED.search(attribute))
                    attribute = None
                    continue
                if stripped.startswith("@available(") and stripped.count("(") > stripped.count(")"):
                    attribute = stripped
                    continue
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


def kind(item):
    """`deprecated`, `witness` or `api` (the budgeted kind)."""
    if item[3]:
        return "deprecated"
    return "witness" if WITNESS.match(item[2]) else "api"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--list":
        for item in declarations(sys.argv[2]):
            label = kind(item)
            print(f"{item[0]}:{item[1]}: {'' if label == 'api' else f'[{label}] '}{item[2]}")
        return 0
    totals = {"api": 0, "witness": 0, "deprecated": 0}
    failures = []
    for module in MODULES:
        counts = {"api": 0, "witness": 0, "deprecated": 0}
        types = 0
        for item in declarations(module):
            counts[kind(item)] += 1
            types += kind(item) != "deprecated" and item[4]
        for key in totals:
            totals[key] += counts[key]
        print(f"{module}: {counts['api']} public declarations (+ {counts['witness']} standard-protocol witnesses, "
              f"{counts['deprecated']} deprecated shims; {sum(counts.values())} lines in all); {types} top-level types")
        if module == "BothamNetworking":
            if counts["api"] > BUDGET_CORE:
                failures.append(f"{module}: {counts['api']} public declarations, budget {BUDGET_CORE}")
            if types > BUDGET_CORE_TYPES:
                failures.append(f"{module}: {types} top-level types, budget {BUDGET_CORE_TYPES}")
    print(f"package: {totals['api']} public declarations (+ {totals['witness']} witnesses, "
          f"{totals['deprecated']} deprecated; {sum(totals.values())} lines in all)")
    if totals["api"] > BUDGET_TOTAL:
        failures.append(f"package: {totals['api']} public declarations, budget {BUDGET_TOTAL}")
    for failure in failures:
        print(f"api count: over budget: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
