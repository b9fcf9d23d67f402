#!/usr/bin/env python3
"""One home per topic: fails when README.md grows past its limit, or when the same text is written in two places.

The places are README.md, every DocC article (Sources/*/*.docc/*.md), ARCHITECTURE.md, BENCHMARKS.md and SECURITY.md.
Their prose is compared after dropping what is meant to repeat — fenced code blocks, the `## Topics` lists of a
DocC page, link targets, headings — and normalising the rest (markdown markup, case, white space). Any run of
WINDOW or more consecutive words found in two places is reported with both places and the shared text: keep it in
one of them and link to it from the other.

Usage: python3 scripts/docs-check.py   (exit status 1 when a check fails)
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
README_LIMIT = 15_000  # bytes
WINDOW = 25  # words


def places():
    names = ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "SECURITY.md"]
    files = [root / name for name in names if (root / name).exists()]
    return files + sorted(root.glob("Sources/*/*.docc/*.md"))


def prose_lines(path):
    """(line number, text) of the lines that count: no code blocks, no DocC Topics lists, no headings."""
    lines, fenced, in_topics = [], False, False
    for number, line in enumerate(path.read_text().split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if re.match(r"^##\s+Topics\s*$", stripped):
            in_topics = True
            continue
        if in_topics and re.match(r"^##\s", stripped) and not stripped.startswith("###"):
            in_topics = False
        if in_topics or stripped.startswith("#"):
            continue
        lines.append((number, line))
    return lines


def words(text):
    """The words of a line of markdown, markup removed and lower-cased."""
    text = re.sub(r"\]\([^)]*\)", "]", text)  # [text](target) -> [text]
    text = re.sub(r"<doc:[^>]*>", " ", text)
    text = re.sub(r"[`*_\[\]|>]", " ", text)
    return re.findall(r"[\w'’.,:;()/%+=-]+", text.lower())


def main():
    failures = 0
    readme = root / "README.md"
    size = readme.stat().st_size
    print(f"README.md: {size} bytes (limit {README_LIMIT})")
    if size > README_LIMIT:
        print(f"FAIL: README.md is {size - README_LIMIT} bytes over its limit; move the topic to its DocC article")
        failures += 1

    # Every window of WINDOW consecutive words, with where it starts.
    streams = {}
    seen = {}
    for path in places():
        name = str(path.relative_to(root))
        stream = []
        for number, line in prose_lines(path):
            stream.extend((word, number) for word in words(line))
        streams[name] = stream
        for index in range(len(stream) - WINDOW + 1):
            key = " ".join(word for word, _ in stream[index : index + WINDOW])
            seen.setdefault(key, {}).setdefault(name, index)

    # Shared windows, joined into runs: one report per pair of places and stretch of text.
    reported = set()
    runs = []
    for key, where in seen.items():
        if len(where) < 2:
            continue
        names = sorted(where)
        first, second = names[0], names[1]
        start_a, start_b = where[first], where[second]
        if (first, start_a) in reported:
            continue
        a, b = streams[first], streams[second]
        length = WINDOW
        while start_a + length < len(a) and start_b + length < len(b) and a[start_a + length][0] == b[start_b + length][0]:
            length += 1
        for offset in range(length - WINDOW + 1):
            reported.add((first, start_a + offset))
        text = " ".join(word for word, _ in a[start_a : start_a + length])
        runs.append((first, a[start_a][1], second, b[start_b][1], length, text))

    for first, line_a, second, line_b, length, text in sorted(runs):
        print(f"FAIL: {length} words written twice, {first}:{line_a} and {second}:{line_b}:")
        print(f"    {text[:300]}{'…' if len(text) > 300 else ''}")
        failures += 1

    count = sum(1 for _ in places())
    if failures:
        print(f"docs-check: {failures} failure(s) in {count} files")
        return 1
    print(f"docs-check: README within {README_LIMIT} bytes; no run of {WINDOW} words in two of {count} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
