#!/usr/bin/env python3
"""The Apple availability check done by the compiler: fails when a library target uses a standard-library,
_Concurrency or Synchronization API newer on an Apple platform than Package.swift's minimums, outside an
`@available` / `#available` scope that covers it.

No Apple SDK is needed: the toolchain's own `lib/swift/linux/*.swiftmodule/*.swiftinterface` files for Swift,
_Concurrency and Synchronization keep the Apple `@available` attributes. Two checks are built from them, under
.build/availability (the toolchain is never modified):

1. apple: each interface is copied with its `-target` rewritten to an Apple triple (`x86_64-apple-macosx13.0`,
   `x86_64-apple-ios16.0-simulator`, tvOS and watchOS simulators: one per platform Package.swift declares, at its
   minimum), and every Foundation-free library target (today BothamHTTP2Wire: it imports nothing but the standard
   library) is type-checked for real for each platform. The compiler's own availability errors, exact.
2. deprecations: a resource directory (symlinks to the toolchain's, except these three modules) whose interfaces add
   `@available(*, deprecated, message: "<Apple versions>")` to every declaration newer than the minimums. Every
   library target under Sources/ is compiled for Linux against it (SwiftPM, scratch path .build/availability/build);
   each such warning is a use of a too-new API, found by the compiler (unlabelled members, inferred types and
   conformances included). It fails unless an enclosing `@available` / `#available` scope covers the versions on
   every platform (scopes are read from the swift-format indentation, as scripts/availability-check.py does).
   Newer functions are also `@_disfavoredOverload`, so that Linux resolves overloads as an Apple compiler at the
   minimum does (it never picks `Int128`'s `&*` over the generic one); the two choices it still makes otherwise
   (`for await` calling `next(isolation:)`, a newer `Collection` conformance of a `Sequence`) are not reported.

The first is exact but sees one target; the second sees every library target as Linux compiles it. Both catch an
unguarded `Mutex`, a newer unlabelled member (`Array.span`) and a guard that names macOS and iOS but not tvOS and
watchOS; the second also in the targets that import Foundation (`String(validating:as:)` in BothamNetworking).

What neither sees, and scripts/availability-check.py (a name-pattern check) still covers: code in `#if` branches not
compiled on Linux (`#if canImport(Darwin)`, `#if !os(Linux)`, ...), and the test, playground, benchmark and fuzz
sources. Foundation, Dispatch and Darwin APIs carry no Apple availability here: only a Mac checks those.

Time on a fresh clone (2 cores): 2 min (3 min of CPU: the standard library built from its interfaces for each Apple
platform and for the marked Linux one, and a debug build of the library targets), 6 min while other builds ran;
about 50 s when run again (the built interfaces are cached under .build/availability; the library targets are
always recompiled, so that every warning is printed again).

Usage: python3 scripts/availability-compile.py [apple|deprecations]   (both when no argument is given)
Exit 1 with one line per unguarded use.
"""
import concurrent.futures
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from availability_scopes import scope_covers  # noqa: E402  (the one scope walk of both checks)

root = pathlib.Path(__file__).resolve().parent.parent
work = root / ".build" / "availability"
modules = ("Swift", "_Concurrency", "Synchronization")
# Modules the compiler also loads for any Swift file (implicitly, or through the three above).
implicit = ("_StringProcessing", "SwiftOnoneSupport")
marker = "too new for Package.swift's minimums:"

manifest = (root / "Package.swift").read_text()
minimum = {}


def version_tuple(text, separator="."):
    parts = [int(part) for part in text.split(separator)]
    return tuple((parts + [0, 0, 0])[:3])


def version_text(version):
    return ".".join(str(part) for part in version[:2])


for name, version in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+(?:_\d+)?)\)", manifest):
    minimum[name] = version_tuple(version, "_")
if not minimum:
    sys.exit("availability-compile: no platforms in Package.swift")

swiftc = shutil.which("swiftc")
if not swiftc:
    sys.exit("availability-compile: swiftc is not on PATH")
toolchain = pathlib.Path(swiftc).resolve().parent.parent / "lib" / "swift"
host_arch = platform.machine()
apple_arch = {"x86_64": "x86_64", "aarch64": "arm64", "arm64": "arm64"}.get(host_arch)
if apple_arch is None:
    sys.exit(f"availability-compile: no Apple architecture for {host_arch}")


def interface(module):
    """The toolchain's public interface of a Linux module."""
    found = [
        path
        for path in sorted((toolchain / "linux" / f"{module}.swiftmodule").glob("*.swiftinterface"))
        if ".private." not in path.name
    ]
    if not found:
        sys.exit(f"availability-compile: no .swiftinterface for {module} in {toolchain / 'linux'}")
    return found[0]


def write_if_changed(path, text):
    """Writes only a changed file: a rewritten interface, even unchanged, would be rebuilt (~40 s each)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_text() == text:
        return
    path.write_text(text)


def link(target, source):
    if target.is_symlink() and os.readlink(target) == str(source):
        return
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.is_dir():
        shutil.rmtree(target)
    target.symlink_to(source)


def run(command, **options):
    return subprocess.run(command, cwd=root, text=True, capture_output=True, **options)


# --- 1. apple: the Foundation-free targets type-checked for each Apple platform -------------------------------------

# Platform: (triple at the minimum, resource subfolder, interface file stem).
apple_platforms = {
    "macOS": ("{arch}-apple-macosx{v}", "macosx", "{arch}-apple-macos"),
    "iOS": ("{arch}-apple-ios{v}-simulator", "iphonesimulator", "{arch}-apple-ios-simulator"),
    "tvOS": ("{arch}-apple-tvos{v}-simulator", "appletvsimulator", "{arch}-apple-tvos-simulator"),
    "watchOS": ("{arch}-apple-watchos{v}-simulator", "watchsimulator", "{arch}-apple-watchos-simulator"),
    "visionOS": ("{arch}-apple-xros{v}-simulator", "xrsimulator", "{arch}-apple-xros-simulator"),
}


def apple_interface(module, triple):
    """A Linux interface made loadable for an Apple triple. The interfaces were printed for Linux, so a few Linux
    details are taken out; none of them changes what is available where."""
    text = interface(module).read_text()
    # The interface's own inlinable code uses newer API inside older declarations in places (the Linux build never
    # checks): the module is built without availability checking; its clients are checked as usual.
    text = re.sub(r"-target \S+", f"-target {triple} -disable-availability-checking", text, count=1)
    # Only type-checking follows: built without optimization, in about half the time.
    text = re.sub(r"(// swift-module-flags:.*) -O ", r"\1 -Onone ", text, count=1)
    # Printed for Linux without the bodies Apple's @backDeployed needs; the declared introduction stays.
    text = re.sub(r"@backDeployed\(before:[^)]*\)", "", text)
    # Synchronization's Linux mutex: Glibc and the Linux-only shim have no Apple counterpart here.
    text = re.sub(r"(?m)^import Glibc\n", "", text)
    text = text.replace("_swift_stdlib_gettid()", "Swift.UInt32(1)")
    return text


def swift_sources(target):
    return sorted((root / "Sources" / target).rglob("*.swift"))


import_re = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
                       r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)",
                       re.MULTILINE)


def imports(target):
    found = set()
    for path in swift_sources(target):
        found.update(import_re.findall(path.read_text()))
    return found


library_targets = sorted(
    folder.name for folder in (root / "Sources").iterdir() if folder.is_dir() and swift_sources(folder.name)
)


def foundation_free_targets():
    """Library targets that import only the standard library's modules and each other, in dependency order."""
    standard = set(modules) | set(implicit)
    free, remaining = [], {target: imports(target) - {target} for target in library_targets}
    progress = True
    while progress:
        progress = False
        for target, needed in sorted(remaining.items()):
            if needed <= standard | set(free):
                free.append(target)
                del remaining[target]
                progress = True
    # A target that imports a library target which is not Foundation-free is itself not free.
    return free


def check_apple():
    targets = foundation_free_targets()
    if not targets:
        print("availability-compile: apple: no Foundation-free library target to type-check")
        return []
    resource = work / "apple-resource"
    resource.mkdir(parents=True, exist_ok=True)
    for shared in ("shims", "clang", "apinotes"):
        if (toolchain / shared).exists():
            link(resource / shared, toolchain / shared)

    def check_platform(name, version):
        """Type-checks every Foundation-free target for one platform; (report lines, problems)."""
        triple_format, folder, stem_format = apple_platforms[name]
        triple = triple_format.format(arch=apple_arch, v=version_text(version))
        stem = stem_format.format(arch=apple_arch)
        for module in modules + implicit:
            write_if_changed(resource / folder / f"{module}.swiftmodule" / f"{stem}.swiftinterface",
                             apple_interface(module, triple))
        built = work / "apple-modules" / folder
        built.mkdir(parents=True, exist_ok=True)
        report, problems = [], []
        for target in targets:
            started = time.monotonic()
            command = [
                swiftc, "-typecheck", "-module-name", target, "-package-name", "bothamnetworking",
                "-swift-version", "6", "-target", triple, "-resource-dir", str(resource),
                "-module-cache-path", str(work / "module-cache"), "-I", str(built),
            ] + [str(path) for path in swift_sources(target)]
            result = run(command)
            # A free target that another one imports is also written as a module, for that one.
            if any(target in imports(other) for other in targets):
                run(command[:1] + ["-emit-module", "-emit-module-path", str(built / f"{target}.swiftmodule")] +
                    command[2:])
            errors = [line for line in result.stderr.splitlines() if re.match(r"^\S+:\d+:\d+: error: ", line)]
            report.append(f"availability-compile: apple: {target} type-checked for {triple} in "
                          f"{time.monotonic() - started:.0f} s: {len(errors)} error(s)")
            if result.returncode != 0:
                shown = errors or result.stderr.strip().splitlines()[-20:]
                problems.extend(f"{line} [{triple}]" for line in shown)
        return report, problems

    chosen = [(name, version) for name, version in sorted(minimum.items()) if name in apple_platforms]
    # One platform per core: the first run builds the standard library from its interface for each.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        results = list(pool.map(lambda pair: check_platform(*pair), chosen))
    problems = []
    for report, found in results:
        print("\n".join(report))
        problems += found
    return problems


# --- 2. deprecations: every library target compiled for Linux with too-new API marked deprecated --------------------

platform_re = re.compile(r"\b(macOS|iOS|tvOS|watchOS|visionOS)\s+(\d+(?:\.\d+)*)")
attribute_re = re.compile(r"@available\(([^()]*)\)")


def newer_than_minimum(arguments):
    if "unavailable" in arguments or "deprecated" in arguments or arguments.strip().startswith(("*", "swift")):
        return {}
    return {
        name: version
        for name, version in platform_re.findall(arguments)
        if name in minimum and version_tuple(version) > minimum[name]
    }


declaration_re = re.compile(r"\b(func|init|subscript|var|let|struct|class|enum|protocol|extension|typealias|actor|"
                            r"associatedtype|case|deinit|macro|operator|precedencegroup)\b")


def deprecating_interface(module):
    """The Linux interface with every declaration newer than the minimums also marked deprecated, its message naming
    the Apple versions it needs."""
    count = 0

    def mark(match):
        nonlocal count
        newer = newer_than_minimum(match.group(1))
        if not newer:
            return match.group(0)
        count += 1
        versions = ", ".join(f"{name} {version}" for name, version in sorted(newer.items()))
        marked = f'{match.group(0)} @available(*, deprecated, message: "{marker} {versions}")'
        # An Apple compiler at the minimum never picks a newer overload while an older one fits (`&*` of Int128 over
        # the generic one, say): disfavoured here, Linux picks as Apple does.
        kind = declaration_re.search(text_being_marked, match.end())
        if kind and kind.group(1) in ("func", "init", "subscript", "var"):
            marked += " @_disfavoredOverload"
        return marked

    text_being_marked = interface(module).read_text()
    # Only debug builds of the library targets follow: built without optimization, in about half the time.
    text_being_marked = re.sub(r"(// swift-module-flags:.*) -O ", r"\1 -Onone ", text_being_marked, count=1)
    text = attribute_re.sub(mark, text_being_marked)
    return text, count


def deprecation_resource():
    resource = work / "deprecation-resource"
    (resource / "linux").mkdir(parents=True, exist_ok=True)
    for entry in toolchain.iterdir():
        if entry.name != "linux":
            link(resource / entry.name, entry)
    for entry in (toolchain / "linux").iterdir():
        if entry.name in {f"{module}.swiftmodule" for module in modules}:
            continue
        link(resource / "linux" / entry.name, entry)
    counts = {}
    for module in modules:
        folder = resource / "linux" / f"{module}.swiftmodule"
        if folder.is_symlink():
            folder.unlink()
        folder.mkdir(exist_ok=True)
        text, counts[module] = deprecating_interface(module)
        write_if_changed(folder / interface(module).name, text)
        for doc in (toolchain / "linux" / f"{module}.swiftmodule").glob("*.swiftdoc"):
            link(folder / doc.name, doc)
        # No binary module: the compiler builds the module from the marked interface.
        for binary in folder.glob("*.swiftmodule"):
            binary.unlink()
    return resource, counts


guard_re = re.compile(r"(#available|@available)\(([^)]*)\)")


def covers(text, versions):
    """Whether an `#available`/`@available` in `text` covers `versions` on every platform: a platform it does not
    name falls under `*`, the package's minimum, which is never enough for a too-new API."""
    for match in guard_re.finditer(text):
        covered = dict(platform_re.findall(match.group(2)))
        if all(name in covered and version_tuple(covered[name]) >= version_tuple(version)
               for name, version in versions.items()):
            return True
    return False


def guarded(lines, index, versions):
    """An enclosing scope covers `versions`: an `if #available` line of smaller indentation above the use, a `guard
    #available` before it in its scope, or a declaration with an `@available` attribute on it or just above it. The
    code is formatted by swift-format, so indentation shows the scopes."""
    return scope_covers(lines, index, lambda line: covers(line, versions))


def apple_picks_older(what, line):
    """Warnings about a choice the compiler makes differently for an Apple platform at the minimum, where the newer
    declaration is not available, so not a use there: `for await` calls `next(isolation:)` only where it exists
    (`next()` otherwise), and a newer conformance that only refines what the type already is (`EnumeratedSequence`
    is a `Collection` from macOS 26) makes Linux pick the `Collection` algorithm where Apple picks the `Sequence`
    one. Explicit uses are still reported: `next(isolation:` written out, and the newer members themselves."""
    if what == "'next(isolation:)'":
        return "next(isolation:" not in line
    return re.fullmatch(r"conformance of '[^']+' to '(Collection|BidirectionalCollection|RandomAccessCollection)'",
                        what) is not None


warning_re = re.compile(r"^(/\S+?):(\d+):(\d+): warning: (.*?) is deprecated: " + re.escape(marker) + r" ([^\"]*)$")


def check_deprecations():
    resource, counts = deprecation_resource()
    print("availability-compile: deprecations: marked " +
          ", ".join(f"{count} declarations of {module}" for module, count in counts.items()))
    scratch = work / "build"
    # Every library target is compiled again each run, so that every warning is printed (SwiftPM prints a file's
    # warnings only when it compiles the file); the standard library built from the interfaces stays in the cache.
    for folder in scratch.glob("*/debug"):
        for target in library_targets:
            shutil.rmtree(folder / f"{target}.build", ignore_errors=True)
    leaves = [target for target in library_targets if not any(target in imports(other) for other in library_targets)]
    started = time.monotonic()
    seen, problems, picked_older = set(), [], 0
    for target in leaves:
        result = run(["swift", "build", "--scratch-path", str(scratch), "--target", target,
                      "-Xswiftc", "-resource-dir", "-Xswiftc", str(resource)])
        output = result.stdout + result.stderr
        if result.returncode != 0:
            problems.append(f"swift build --target {target} failed:\n" + "\n".join(output.splitlines()[-30:]))
            continue
        for line in output.splitlines():
            match = warning_re.match(line.strip())
            if not match or match.group(1, 2, 3) in seen:
                continue
            seen.add(match.group(1, 2, 3))
            path, number, what, needed = pathlib.Path(match.group(1)), int(match.group(2)), match.group(4), match.group(5)
            versions = dict(platform_re.findall(needed))
            lines = path.read_text().splitlines()
            if apple_picks_older(what, lines[number - 1]):
                picked_older += 1
                continue
            if not guarded(lines, number - 1, versions):
                try:
                    shown = path.relative_to(root)
                except ValueError:
                    shown = path
                problems.append(f"{shown}:{number}:{match.group(3)}: {what} needs {needed} (declared: " +
                                ", ".join(f"{name} {version_text(v)}" for name, v in sorted(minimum.items())) + ")")
    print(f"availability-compile: deprecations: {', '.join(library_targets)} compiled in "
          f"{time.monotonic() - started:.0f} s: {len(seen)} warning(s) of newer API, {picked_older} of them a choice "
          f"made otherwise on Apple, {len(seen) - picked_older - len([p for p in problems if ' needs ' in p])} "
          f"guarded")
    return problems


def main():
    chosen = sys.argv[1:] or ["apple", "deprecations"]
    unknown = set(chosen) - {"apple", "deprecations"}
    if unknown:
        sys.exit(__doc__)
    started = time.monotonic()
    problems = []
    if "apple" in chosen:
        problems += check_apple()
    if "deprecations" in chosen:
        problems += check_deprecations()
    for problem in problems:
        print(problem)
    if problems:
        print(f"availability-compile: {len(problems)} problem(s) ({time.monotonic() - started:.0f} s)", file=sys.stderr)
        sys.exit(1)
    print(f"availability-compile: every API the compiler sees is available at the declared minimum or guarded "
          f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
