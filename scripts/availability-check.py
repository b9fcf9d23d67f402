#!/usr/bin/env python3
"""Fails when the package uses a standard-library, concurrency or Synchronization API that is newer on an Apple
platform than the minimum Package.swift declares, without a guard, in code the compiler check does not compile.

Two checks share the work:
- scripts/availability-compile.py (the compiler) covers the library targets under Sources/ as they compile on Linux:
  every use the compiler resolves, unlabelled members and inferred types included, and BothamHTTP2Wire type-checked
  for each Apple platform for real.
- this script (name patterns) covers what the compiler check never compiles: code in `#if` branches not taken on
  Linux (`#if canImport(Darwin)`, `#if !os(Linux)`, `#elseif os(iOS)`, ...; a condition it cannot decide counts as
  not taken), and every file under Tests, Playgrounds, Benchmarks and Fuzz.
Neither sees Foundation, Dispatch or Darwin API: their Linux modules carry no Apple availability.

The toolchain's own `.swiftinterface` files for Swift, _Concurrency and Synchronization carry the Apple platforms'
`@available` annotations even on Linux (`@available(macOS 15.0, iOS 18.0, ...)`), so the check runs here.

What it finds, per API newer than the declared minimum (on any of macOS, iOS, tvOS, watchOS):
- types (`Mutex`, `Atomic`, `TaskExecutor`, ...): any use of the name;
- free functions (`withTaskExecutorPreference`): `name(`;
- initializers with a first label (`String(validating:as:)`): `Type(label:`;
- members with a first label: `.name(label:`.
Members without labels (`.withLock {`) are too ambiguous to match by name and are not checked. Names the package
declares itself are skipped.

A use is guarded when an enclosing scope's `if #available(` / `guard #available(` or an `@available(` attribute on
it or on an enclosing declaration covers a version at least as new (scripts/availability_scopes.py, the scope walk
availability-compile.py shares), or when the line ends with the comment `// availability: <reason>`. Code under `#if os(Linux)` / `#if canImport(Glibc)` is not exempt: keep the
guard even there, so the Apple build stays honest.

Usage: scripts/availability-check.py [--verbose]; exit 1 with one line per unguarded use.
"""
import pathlib
import platform as host
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from availability_scopes import scope_covers  # noqa: E402  (the one scope walk of both checks)

root = pathlib.Path(__file__).resolve().parent.parent
verbose = "--verbose" in sys.argv

# The declared minimums.
manifest = (root / "Package.swift").read_text()
minimum = {}
def version_tuple(text: str, separator: str = "."):
    parts = [int(part) for part in text.split(separator)]
    return tuple((parts + [0, 0, 0])[:3])


for platform, version in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+(?:_\d+)?)\)", manifest):
    minimum[platform] = version_tuple(version, "_")
if not minimum:
    print("availability-check: no platforms in Package.swift", file=sys.stderr)
    sys.exit(2)


def toolchain_lib() -> pathlib.Path:
    swift = subprocess.run(["which", "swift"], capture_output=True, text=True).stdout.strip()
    real = pathlib.Path(swift).resolve()
    return real.parent.parent / "lib" / "swift" / "linux"


availability_re = re.compile(r"@available\(([^)]*)\)")
platform_re = re.compile(r"\b(macOS|iOS|tvOS|watchOS|visionOS)\s+(\d+(?:\.\d+)*)")


def newer_than_minimum(attribute: str):
    """The platforms (and versions) of an @available attribute that are newer than the declared minimum."""
    newer = {}
    for platform, version in platform_re.findall(attribute):
        if platform not in minimum:
            continue
        if version_tuple(version) > minimum[platform]:
            newer[platform] = version
    return newer


decl_re = re.compile(
    r"^\s*(?:@\S+\s+)*(?:public|open)\s+(?:(?:final|static|class|mutating|nonmutating|nonisolated|override|"
    r"indirect|required|convenience|__consuming|consuming|borrowing)\s+)*"
    r"(struct|class|enum|protocol|actor|typealias|func|init|var|let|subscript)(?![A-Za-z0-9_])[?!]?\s*([A-Za-z_][A-Za-z0-9_]*)?"
    r"(?:<[^(]*>)?\s*(\(([^)]*)\))?"
)
extension_re = re.compile(r"^\s*(?:@\S+\s+)*extension\s+([A-Za-z_][A-Za-z0-9_.]*)")
type_scope_re = re.compile(r"^\s*(?:@\S+\s+)*(?:public|open)\s+(?:final\s+)?(?:struct|class|enum|actor|protocol)\s+([A-Za-z_][A-Za-z0-9_]*)")


def labels(parameters: str):
    """The argument labels of a parameter list (`_` for none), split at top-level commas."""
    parts, depth, current = [], 0, ""
    for character in parameters:
        if character in "(<[":
            depth += 1
        elif character in ")>]":
            depth -= 1
        if character == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += character
    if current.strip():
        parts.append(current)
    result = []
    for part in parts:
        head = part.split(":")[0].strip().split()
        result.append(head[0] if head else "_")
    return tuple(result)


def first_label(parameters: str):
    found = labels(parameters)
    return None if not found or found[0] == "_" else ":".join(found)


apis = []  # (kind, name, owner, label, versions)
available_at_minimum = set()  # (kind, name, label) declared somewhere without a newer availability
for module in ("Swift", "_Concurrency", "Synchronization"):
    folder = toolchain_lib() / f"{module}.swiftmodule"
    interfaces = sorted(folder.glob("*.swiftinterface"))
    interfaces = [path for path in interfaces if ".private." not in path.name] or interfaces
    if not interfaces:
        print(f"availability-check: no interface for {module} in {folder}", file=sys.stderr)
        sys.exit(2)
    lines = interfaces[0].read_text().splitlines()
    pending = {}
    scopes = []  # (depth at open, owner name, versions)
    depth = 0
    for line in lines:
        stripped = line.strip()
        match = availability_re.search(stripped)
        if stripped.startswith("@available") and match:
            pending = {**pending, **newer_than_minimum(match.group(1))}
            if not stripped.endswith(")") and not re.match(r"^@available\([^)]*\)\s*$", stripped):
                pass
        inherited = {}
        for _, _, versions in scopes:
            inherited.update(versions)
        versions = {**inherited, **pending}
        owner = scopes[-1][1] if scopes else None
        decl = decl_re.match(line)
        ext = extension_re.match(line)
        scope = type_scope_re.match(line)
        if decl and not stripped.startswith("@available"):
            kind, name, _, parameters = decl.group(1), decl.group(2), decl.group(3), decl.group(4)
            if not versions:
                base = owner.split(".")[-1] if kind == "init" and owner else name
                available_at_minimum.add((kind, base, first_label(parameters or "")))
            if versions and not (name or "").startswith("_"):
                if kind in ("struct", "class", "enum", "protocol", "actor", "typealias") and name:
                    apis.append(("type", name, owner, None, versions))
                elif kind == "func" and name:
                    apis.append(("func", name, owner, first_label(parameters or ""), versions))
                elif kind == "init" and owner:
                    label = first_label(parameters or "")
                    if label:
                        apis.append(("init", owner.split(".")[-1], owner, label, versions))
        opens, closes = line.count("{"), line.count("}")
        if (ext or scope) and opens > closes:
            name = (ext or scope).group(1)
            scopes.append((depth, name, dict(pending)))
        depth += opens - closes
        while scopes and depth <= scopes[-1][0]:
            scopes.pop()
        if not stripped.startswith("@") and stripped:
            pending = {}

# Members of types that are themselves newer than the minimum are found through the type's own name.
newer_types = {name for kind, name, owner, _, _ in apis if kind == "type" and owner is None}
apis = [
    api
    for api in apis
    if not (api[2] and api[2].split(".")[-1] in newer_types) and not (api[0] == "type" and api[2] is not None)
    # An overload or protocol witness of an API that exists at the minimum (`index(after:)`) cannot be told apart.
    and not (api[0] == "func" and api[2] is not None and ("func", api[1], api[3]) in available_at_minimum)
    and not (api[0] == "init" and ("init", api[1], api[3]) in available_at_minimum)
]

# Our own names, which shadow the standard library's.
sources = [
    path
    for folder in ("Sources", "Tests", "Playgrounds", "Benchmarks", "Fuzz")
    for path in sorted((root / folder).rglob("*.swift"))
    if ".build" not in path.parts and path.name != "ReadmeSnippets.swift" or path.name == "ReadmeSnippets.swift"
]
own = set()
for path in sources:
    for name in re.findall(r"\b(?:struct|class|enum|protocol|actor|typealias|func)\s+([A-Za-z_][A-Za-z0-9_]*)", path.read_text()):
        own.add(name)

patterns = []
for kind, name, owner, label, versions in apis:
    if name in own:
        continue
    if kind == "type":
        if len(name) < 5:
            continue
        regex = re.compile(rf"\b{re.escape(name)}\b")
        what = f"type {name}"
    elif kind == "init":
        first, *rest = label.split(":")
        tail = "".join(rf"(?=.*\b{re.escape(other)}:)" for other in rest if other != "_")
        regex = re.compile(rf"{tail}\b{re.escape(name)}\(\s*{re.escape(first)}:")
        what = f"{name}.init({label}:)"
    elif owner is None:
        regex = re.compile(rf"(?<![.\w]){re.escape(name)}\(")
        what = f"func {name}"
    elif label:
        first, *rest = label.split(":")
        tail = "".join(rf"(?=.*\b{re.escape(other)}:)" for other in rest if other != "_")
        regex = re.compile(rf"{tail}\.{re.escape(name)}\(\s*{re.escape(first)}:")
        what = f"{owner}.{name}({label}:)"
    else:
        continue
    patterns.append((regex, what, versions))

guard_re = re.compile(r"(#available|@available)\(([^)]*)\)")


def covers(text, versions):
    """Whether an `#available`/`@available` in `text` covers `versions` on macOS and iOS (and every platform it names)."""
    for match in guard_re.finditer(text):
        covered = dict(platform_re.findall(match.group(2)))
        if all(
            platform in covered and version_tuple(covered[platform]) >= version_tuple(version)
            for platform, version in versions.items()
            if platform in covered or platform in ("macOS", "iOS")
        ):
            return True
    return False


def guarded(lines, index, versions):
    """The use is on a line marked `// availability:`, or an enclosing scope (a line of smaller indentation above it:
    an `if #available`, a `guard #available` before it in its scope, or a declaration with an `@available` attribute
    on it or on the lines just above it) covers `versions`. The code is formatted by swift-format, so indentation
    shows the scopes."""
    if "// availability:" in lines[index]:
        return True
    return scope_covers(lines, index, lambda line: covers(line, versions))


# Which modules `canImport` finds on Linux: the toolchain's and the package's own.
linux_modules = {path.name.split(".")[0] for path in toolchain_lib().iterdir()} | {"SwiftGlibc"}
linux_modules |= {path.name for path in (root / "Sources").iterdir() if path.is_dir()}
compiled_targets = {path.name for path in (root / "Sources").iterdir() if path.is_dir() and any(path.rglob("*.swift"))}


def linux_value(condition):
    """True or False: whether an `#if` condition holds when compiled on Linux; None when it cannot be told."""
    def atom(match):
        kind, argument = match.group(1), match.group(2).strip()
        if kind == "os":
            return str(argument == "Linux")
        if kind == "canImport":
            return str(argument.split(",")[0].strip() in linux_modules)
        if kind == "arch":
            return str(argument == host.machine())
        if kind in ("compiler", "swift", "hasFeature", "hasAttribute"):
            return "True"
        return "False"  # targetEnvironment(...)
    text = re.sub(r"\b(os|canImport|arch|compiler|swift|hasFeature|hasAttribute|targetEnvironment)\(([^)]*)\)", atom,
                  condition.split("//")[0])
    text = text.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    if re.search(r"\b(?!True\b|False\b|and\b|or\b|not\b)[A-Za-z_]\w*", text):
        return None  # a custom flag (DEBUG, ...)
    try:
        return bool(eval(text, {"__builtins__": {}}))
    except SyntaxError:
        return None


def compiled_on_linux(lines):
    """Per line, whether the Linux compile of a library target sees it: not inside an `#if` branch that is not taken
    on Linux, or that cannot be told."""
    result, stack = [], []  # per open #if: [parent compiled, a branch taken, every condition known, this one compiled]
    for line in lines:
        stripped = line.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        compiled = stack[-1][3] if stack else True
        if directive:
            kind, condition = directive.group(1), directive.group(2)
            if kind == "if":
                value = linux_value(condition)
                stack.append([compiled, value is True, value is not None, compiled and value is True])
            elif kind in ("elseif", "else") and stack:
                frame = stack[-1]
                value = True if kind == "else" else linux_value(condition)
                frame[2] = frame[2] and value is not None
                frame[3] = frame[0] and frame[2] and not frame[1] and value is True
                frame[1] = frame[1] or value is True
            elif kind == "endif" and stack:
                stack.pop()
            result.append(True)
            continue
        result.append(compiled)
    return result


problems = []
for path in sources:
    lines = path.read_text().splitlines()
    relative = path.relative_to(root).parts
    library = len(relative) > 2 and relative[0] == "Sources" and relative[1] in compiled_targets
    compiled = compiled_on_linux(lines) if library else [False] * len(lines)
    for index, line in enumerate(lines):
        if compiled[index]:
            continue
        code = line.split("//")[0] if "://" not in line else line
        if code.strip().startswith(("///", "//", "*")):
            continue
        for regex, what, versions in patterns:
            if regex.search(code) and not guarded(lines, index, versions):
                newer = ", ".join(f"{p} {v}" for p, v in sorted(versions.items()))
                problems.append(f"{path.relative_to(root)}:{index + 1}: {what} needs {newer} (declared: "
                                + ", ".join(f"{p} {v[0]}" for p, v in sorted(minimum.items())) + ")")

if verbose:
    print(f"availability-check: {len(apis)} APIs newer than the minimum, {len(patterns)} checked, {len(sources)} files")
for problem in problems:
    print(problem)
if problems:
    print(f"availability-check: {len(problems)} unguarded use(s) of APIs newer than the declared minimum", file=sys.stderr)
    sys.exit(1)
print("availability-check: every API used is available at the declared minimum or guarded")
