#!/usr/bin/env python3
"""Keeps the proof in one place: docs/Guarantees.md.

Fails (exit 1, one line per problem) when
  1. a test cited in docs/Guarantees.md does not exist. A citation is a backticked `Target/Suite.test` (the suite may
     be a dotted chain of nested types, outermost first, any trailing part of it: `Target/Outer.Inner.test` or
     `Target/Inner.test`) or `Target/test` for a test declared at file scope. Tests are read from the Swift files
     under Tests/: every `@Test` function with the types that enclose it, and XCTest `func test...` methods of a class;
  2. a `///` doc comment under Sources/ cites a test: a backticked identifier that is a `SomethingTests` type name or
     a known test function (one that is no identifier or string of the Sources code), or a quoted phrase of four
     words or more that begins a test's display name. Doc comments say what a declaration does and promises; the proof is a row of
     docs/Guarantees.md.

No build: the Swift files are scanned as text (comments and string literals skipped when braces are counted).

Usage: python3 scripts/guarantees-check.py          (the check)
       python3 scripts/guarantees-check.py --list   (also prints every test found, as a citation)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUARANTEES = os.path.join(ROOT, "docs", "Guarantees.md")
TYPE_DECLARATION = re.compile(
    r"(?:^|[\s;{}])(?:(?:public|package|internal|private|fileprivate|open|final|nonisolated)\s+)*"
    r"(struct|class|enum|actor|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)"
)
FUNCTION = re.compile(r"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)")
CITATION = re.compile(r"`([A-Za-z][A-Za-z0-9_]*)/((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*)(?:\(\))?`")
BACKTICKED = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)`")
QUOTED = re.compile(r"[\"“]([^\"”]{12,})[\"”]")
IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def swift_files(folder):
    for directory, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def skip_string(text, i):
    """Index just past the string literal starting at text[i] (a `#` or a `"`), interpolations included."""
    hashes = 0
    while text[i] == "#":
        hashes += 1
        i += 1
    multiline = text.startswith('"""', i)
    i += 3 if multiline else 1
    closing = ('"""' if multiline else '"') + "#" * hashes
    escape = "\\" + "#" * hashes
    while i < len(text):
        if text.startswith(escape, i):
            i += len(escape)
            if i < len(text) and text[i] == "(":
                i = skip_balanced(text, i)
            else:
                i += 1
        elif text.startswith(closing, i):
            return i + len(closing)
        elif text[i] == "\n" and not multiline:
            return i
        else:
            i += 1
    return i


def skip_balanced(text, i):
    """Index just past the parenthesised interpolation starting at text[i] == '('."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            i = skip_string(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def code_only(text, keep_strings=False):
    """The text with comments and string literal contents blanked (newlines kept, so offsets stay)."""
    out = []
    i = 0
    while i < len(text):
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            depth, j = 0, i
            while j < len(text):
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                    if depth == 0:
                        break
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            j = skip_string(text, i)
            out.append(text[i:j] if keep_strings else '"' + re.sub(r"[^\n]", " ", text[i + 1 : j - 1]) + '"' if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def display_name(text, start, end):
    """The first string literal argument of the `@Test(...)` attribute between start and end, if any."""
    match = re.match(r'@Test\s*\(\s*"((?:\\.|[^"\\])*)"', text[start:end])
    return match.group(1) if match else None


def tests_in(path, target):
    """[(target, (type, ...), function, display name, line)] of one file."""
    text = open(path, encoding="utf-8").read()
    code = code_only(text)
    # Scope stack: (brace depth at which the scope's body opened, type name or None).
    found, scopes, depth, pending_type = [], [], 0, None
    pending_test, is_xctest_class = None, {}
    i = 0
    events = []
    for match in TYPE_DECLARATION.finditer(code):
        events.append((match.start(2), "type", match))
    for match in re.finditer(r"@Test\b", code):
        events.append((match.start(), "test", match))
    for match in FUNCTION.finditer(code):
        events.append((match.start(), "func", match))
    for match in re.finditer(r"[{}]", code):
        events.append((match.start(), match.group(0), match))
    events.sort(key=lambda event: event[0])
    for position, kind, match in events:
        if kind == "type":
            name = match.group(2)
            header = code[match.end(2) : code.find("{", match.end(2))]
            if match.group(1) == "class" and "XCTestCase" in header:
                is_xctest_class[name] = True
            pending_type = name
        elif kind == "{":
            depth += 1
            scopes.append((depth, pending_type))
            pending_type = None
        elif kind == "}":
            if scopes and scopes[-1][0] == depth:
                scopes.pop()
            depth -= 1
        elif kind == "test":
            pending_test = position
        elif kind == "func":
            name = match.group(1)
            chain = tuple(part for _, scope in scopes if scope for part in scope.split("."))
            inside_type = bool(scopes) and scopes[-1][1] is not None
            line = code.count("\n", 0, position) + 1
            if pending_test is not None:
                found.append((target, chain, name, display_name(text, pending_test, position), line))
            elif inside_type and name.startswith("test") and is_xctest_class.get(scopes[-1][1]):
                found.append((target, chain, name, None, line))
            pending_test = None
    return found


def all_tests():
    tests = []
    tests_root = os.path.join(ROOT, "Tests")
    for target in sorted(os.listdir(tests_root)):
        folder = os.path.join(tests_root, target)
        if os.path.isdir(folder):
            for path in swift_files(folder):
                for test in tests_in(path, target):
                    tests.append(test + (os.path.relpath(path, ROOT),))
    return tests


def citation(test):
    target, chain, name = test[0], test[1], test[2]
    return f"{target}/{'.'.join(chain + (name,))}"


def check_guarantees(tests):
    problems = []
    if not os.path.exists(GUARANTEES):
        return [f"{os.path.relpath(GUARANTEES, ROOT)}: missing"]
    index = {}
    for test in tests:
        index.setdefault((test[0], test[2]), []).append(test[1])
    count = 0
    for number, line in enumerate(open(GUARANTEES, encoding="utf-8"), start=1):
        for match in CITATION.finditer(line):
            count += 1
            target, parts = match.group(1), match.group(2).split(".")
            suite, name = tuple(parts[:-1]), parts[-1]
            chains = index.get((target, name), [])
            if not any(chain[len(chain) - len(suite) :] == suite for chain in chains if len(chain) >= len(suite)):
                problems.append(f"docs/Guarantees.md:{number}: `{match.group(0).strip('`')}` names no test in Tests/")
    if count == 0:
        problems.append("docs/Guarantees.md: no test cited (a citation is `Target/Suite.test`)")
    return problems


def check_doc_comments(tests):
    test_types = {part for test in tests for part in test[1] if part.endswith("Tests")}
    test_functions = {test[2] for test in tests}
    display_names = [test[3].lower() for test in tests if test[3]]
    source_files = list(swift_files(os.path.join(ROOT, "Sources")))
    source_identifiers = set()
    for path in source_files:
        text = code_only(open(path, encoding="utf-8").read(), keep_strings=True)
        source_identifiers.update(IDENTIFIER.findall(text))
    problems = []
    for path in source_files:
        for number, line in enumerate(open(path, encoding="utf-8"), start=1):
            comment = re.match(r"\s*///(.*)", line)
            if not comment:
                continue
            text = comment.group(1)
            where = f"{os.path.relpath(path, ROOT)}:{number}"
            for match in BACKTICKED.finditer(text):
                first, last = match.group(1).split(".")[0], match.group(1).split(".")[-1]
                if re.fullmatch(r"[A-Z][A-Za-z0-9_]*Tests", first) or first in test_types:
                    problems.append(f"{where}: a doc comment cites the test `{match.group(1)}`")
                elif last in test_functions and last not in source_identifiers:
                    problems.append(f"{where}: a doc comment cites the test function `{match.group(1)}`")
            for match in QUOTED.finditer(text):
                phrase = match.group(1).rstrip("….").strip().lower()
                if len(phrase.split()) >= 4 and any(name.startswith(phrase) for name in display_names):
                    problems.append(f'{where}: a doc comment cites the test "{match.group(1)}"')
    return problems


def main():
    tests = all_tests()
    if "--list" in sys.argv:
        for test in tests:
            print(f"{citation(test)}\t{test[5]}:{test[4]}\t{test[3] or ''}")
    problems = check_guarantees(tests) + check_doc_comments(tests)
    for problem in problems:
        print(problem)
    if problems:
        print(f"guarantees-check: {len(problems)} problem(s); the proof lives in docs/Guarantees.md")
        return 1
    print(f"guarantees-check: every test cited in docs/Guarantees.md exists ({len(tests)} tests read), "
          "no doc comment cites a test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
