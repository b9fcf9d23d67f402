#!/usr/bin/env python3
"""Fails when a file in a lower layer names a type declared in a higher one.

The layers of each library, lowest first, are read from ARCHITECTURE.md's "Layers" table (lines of the form
`| N | Module/Folder, Folder | ... |`), so the documentation and the check cannot drift apart. A folder of a module
belongs to exactly one layer; a file may use types of its own layer and of every layer below it (and of the modules
it imports), and every Swift module under Sources/ must have rows. Extensions are fine anywhere: what counts is where a type is *declared*. Only top-level declarations
(at the start of a line) count: a nested type is reached through its parent's name, which is checked.

Comments and string literals are stripped before identifiers are collected, so a doc comment that mentions a type
of a higher layer is not a dependency.

Usage: python3 scripts/layering-check.py            (exit 1 and a list of violations when there are any)
       python3 scripts/layering-check.py --explain  (also prints every layer and its folders)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|final|indirect|nonisolated)"
    r"(?:\([a-z]+\))?\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)",
    re.MULTILINE,
)
IDENTIFIER = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")


def read_layers():
    """{module: [(layer number, [folders])]} from ARCHITECTURE.md."""
    layers = {}
    in_table = False
    with open(os.path.join(ROOT, "ARCHITECTURE.md"), encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("## Layers"):
                in_table = True
                continue
            if in_table and line.startswith("## "):
                break
            match = re.match(r"^\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|", line) if in_table else None
            if not match:
                continue
            number = int(match.group(1))
            for entry in match.group(2).split(","):
                module, _, folder = entry.strip().partition("/")
                layers.setdefault(module, []).append((number, folder))
    return layers


def strip_comments_and_strings(text):
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", " ", text)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return text


def swift_files(folder):
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def unlisted_modules(layers):
    """The Swift modules under Sources/ (a folder holding .swift files) that have no row in the table."""
    sources = os.path.join(ROOT, "Sources")
    return [
        name
        for name in sorted(os.listdir(sources))
        if name not in layers and any(swift_files(os.path.join(sources, name)))
    ]


def main():
    explain = "--explain" in sys.argv
    violations = []
    unplaced = []
    layers = read_layers()
    unlisted = unlisted_modules(layers)
    for module, entries in sorted(layers.items()):
        module_root = os.path.join(ROOT, "Sources", module)
        layer_of_folder = {folder: number for number, folder in entries}
        declared = {}  # type name -> (layer, file)
        files = []
        for path in swift_files(module_root):
            relative = os.path.relpath(path, module_root)
            folder = relative.split(os.sep)[0] if os.sep in relative else ""
            if folder not in layer_of_folder:
                unplaced.append(os.path.relpath(path, ROOT))
                continue
            with open(path, encoding="utf-8") as handle:
                text = strip_comments_and_strings(handle.read())
            files.append((path, layer_of_folder[folder], text))
            # A former spelling in Deprecated/ is used by nothing (any use warns, and the build has no warnings): its
            # name is the nested type's that replaced it, which code inside the owner names unqualified.
            if folder == "Deprecated":
                continue
            for name in DECLARATION.findall(text):
                declared.setdefault(name, (layer_of_folder[folder], path))
        if explain:
            for number, folder in sorted(entries):
                print(f"{module} layer {number}: {folder}")
        for path, layer, text in files:
            used = set(IDENTIFIER.findall(text))
            for name in sorted(used):
                owner = declared.get(name)
                if owner and owner[0] > layer:
                    violations.append(
                        f"{os.path.relpath(path, ROOT)} (layer {layer}) uses {name}, declared in "
                        f"{os.path.relpath(owner[1], ROOT)} (layer {owner[0]})"
                    )
    for module in unlisted:
        print(f"module with no rows in ARCHITECTURE.md's Layers table: Sources/{module}")
    for path in unplaced:
        print(f"not in any layer of ARCHITECTURE.md: {path}")
    for violation in violations:
        print(violation)
    if violations or unplaced or unlisted:
        print(
            f"layering check: {len(violations)} upward dependencies, {len(unplaced)} files in no layer, "
            f"{len(unlisted)} modules in no layer"
        )
        return 1
    print("layering check: every file uses only its own layer and the layers below it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
