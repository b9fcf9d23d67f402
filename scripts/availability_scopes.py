"""The scope walk both availability checks share (availability-check.py, availability-compile.py): whether a line of
Swift lies in a scope whose `#available` / `@available` covers what it uses. The code is formatted by swift-format,
so indentation shows the scopes."""


def indentation(line):
    return len(line) - len(line.lstrip(" "))


def _attributes_cover(lines, index, covers):
    """The attribute (and doc comment) lines just above `lines[index]` include one that `covers`."""
    attribute = index - 1
    while attribute >= 0 and lines[attribute].lstrip().startswith(("@", "///")):
        if covers(lines[attribute]):
            return True
        attribute -= 1
    return False


def scope_covers(lines, index, covers):
    """`covers(line)` holds for the use's own line, an attribute on it or just above it, an `if #available` or a
    declaration of smaller indentation above the use (or its attributes), or a `guard #available` before it in its
    scope; the walk stops at the top level."""
    if covers(lines[index]) or _attributes_cover(lines, index, covers):
        return True
    level = indentation(lines[index])
    for previous in range(index - 1, -1, -1):
        line = lines[previous]
        if not line.strip():
            continue
        if line.lstrip().startswith("guard #available") and indentation(line) <= level and covers(line):
            return True
        if indentation(line) < level:
            level = indentation(line)
            if covers(line) or _attributes_cover(lines, previous, covers):
                return True
            if level == 0:
                break
    return False
