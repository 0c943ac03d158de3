"""Reading Rust source without a Rust parser, for scripts/long-functions and
scripts/module-circles (docs/style.md: no function over 80 lines, no module
circle).

`code_of` blanks comments, strings and character literals (keeping every
newline, so line numbers hold); `test_spans` finds the `#[cfg(test)]` and
`#[test]` items of a file, whose code is not measured; `test_files` finds
the files declared as `#[cfg(test)] mod NAME;`.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent


def source_files():
    """Every non-test Rust file of the workspace's crates (`crates/*/src`)."""
    files = sorted(ROOT.glob("crates/*/src/**/*.rs"))
    skip = test_files(files)
    return [f for f in files if f not in skip]


def code_of(text):
    """`text` with comments, strings and char literals blanked to spaces."""
    out = []
    i, n = 0, len(text)

    def blank(s):
        return "".join("\n" if c == "\n" else " " for c in s)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif (m := re.compile(r'(?:b|c)?r(#*)"').match(text, i)) and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            end = '"' + m.group(1)
            j = text.find(end, m.end())
            j = n if j < 0 else j + len(end)
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c in "bc" and text.startswith('"', i + 1)
                          and not (i and (text[i - 1].isalnum() or text[i - 1] == "_"))):
            j = i + (2 if c != '"' else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(blank(text[i:j]))
            i = j
        elif c == "'":
            # A char literal ('x', '\n', '\u{1F600}', '{'), or a lifetime ('a).
            if text.startswith("\\", i + 1):
                j = text.find("'", i + 3 if text.startswith("'", i + 2) else i + 2)
                j = n if j < 0 else j + 1
                out.append(blank(text[i:j]))
                i = j
            elif i + 2 < n and text[i + 2] == "'":
                out.append("   ")
                i += 3
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(code, open_at):
    """The index of the `}` closing the `{` at `open_at` (or len(code))."""
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code)


TEST_ATTRIBUTE = re.compile(r"#\[(?:cfg\(([^\]]*)\)|test)\]")


def is_test_attribute(m):
    cfg = m.group(1)
    if cfg is None:
        return True
    return re.search(r"\btest\b", cfg) is not None and "not(test" not in cfg


def test_spans(code):
    """(start, end) offsets of the items under a test attribute."""
    spans = []
    for m in TEST_ATTRIBUTE.finditer(code):
        if not is_test_attribute(m):
            continue
        # The item the attribute is on: up to its `;` or its braced body.
        k = m.end()
        while k < len(code) and code[k] not in "{;":
            k += 1
        end = matching_brace(code, k) if k < len(code) and code[k] == "{" else k
        spans.append((m.start(), end))
    return spans


def in_spans(offset, spans):
    return any(a <= offset <= b for a, b in spans)


def test_files(files):
    """The files declared as `#[cfg(test)] mod NAME;` (test modules)."""
    skip = set()
    for f in files:
        code = code_of(f.read_text())
        for m in re.finditer(r"#\[cfg\(([^\]]*)\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code):
            if not re.search(r"\btest\b", m.group(1)) or "not(test" in m.group(1):
                continue
            here = f.parent if f.name in ("mod.rs", "lib.rs", "main.rs") else f.parent / f.stem
            for candidate in (here / f"{m.group(2)}.rs", here / m.group(2) / "mod.rs"):
                skip.add(candidate)
    return skip


def line_of(code, offset):
    return code.count("\n", 0, offset) + 1
