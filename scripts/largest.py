#!/usr/bin/env python3
"""The largest file and the largest function of each Swift module and of the
web app's JS, in lines: a quick look at where the code is getting heavy.

    python3 scripts/largest.py [REV]

With REV (a commit), reads the tree as it was there (git show), not the
working tree. A function is measured from its `func`/`function` line to its
closing brace, by counting braces outside strings and comments (close
enough to rank them; not a parser).
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

REV = sys.argv[1] if len(sys.argv) > 1 else None


def files() -> list[str]:
    if REV:
        out = subprocess.run(["git", "ls-tree", "-r", "--name-only", REV], capture_output=True, text=True, check=True)
    else:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, text=True, check=True)
    return [f for f in out.stdout.splitlines()
            if (REV or os.path.exists(f))
            and ((f.startswith("Sources/") and f.endswith(".swift")) or (f.startswith("web/js/") and f.endswith(".js")))]


def text(path: str) -> str:
    if REV:
        return subprocess.run(["git", "show", f"{REV}:{path}"], capture_output=True, text=True, check=True).stdout
    with open(path, encoding="utf-8") as f:
        return f.read()


STRINGS = re.compile(r'"""[\s\S]*?"""|`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*[\s\S]*?\*/')
START = re.compile(r"^\s*(?:export\s+)?(?:[\w@()]+\s+)*?(?:func|function)\s+([\w<>=+\-*/]+)", re.M)


def functions(source: str) -> list[tuple[int, str]]:
    # Blank out strings and comments, keeping line breaks, so braces in them don't count.
    clean = STRINGS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)
    found = []
    for match in START.finditer(clean):
        open_at = clean.find("{", match.end())
        if open_at < 0:
            continue
        # A declaration without a body (a protocol's) reaches the next line's brace: skip it.
        if "\n" in clean[match.end():open_at] and clean[match.end():open_at].count("\n") > 6:
            continue
        depth, i = 0, open_at
        while i < len(clean):
            if clean[i] == "{":
                depth += 1
            elif clean[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        start_line = clean.count("\n", 0, match.start()) + 1
        end_line = clean.count("\n", 0, i) + 1
        found.append((end_line - start_line + 1, match.group(1)))
    return found


def module(path: str) -> str:
    return "web/js" if path.startswith("web/js/") else path.split("/")[1]


biggest_file: dict[str, tuple[int, str]] = defaultdict(lambda: (0, ""))
biggest_function: dict[str, tuple[int, str]] = defaultdict(lambda: (0, ""))
for path in files():
    source = text(path)
    name = module(path)
    lines = source.count("\n")
    if lines > biggest_file[name][0]:
        biggest_file[name] = (lines, path)
    for length, function in functions(source):
        if length > biggest_function[name][0]:
            biggest_function[name] = (length, f"{path.rsplit('/', 1)[-1]}: {function}")

print(f"{'module':<24} {'largest file':<62} {'largest function'}")
for name in sorted(biggest_file):
    lines, path = biggest_file[name]
    length, function = biggest_function[name]
    print(f"{name:<24} {lines:>5}  {path.split('/', 2)[-1] if name != 'web/js' else path[7:]:<55} {length:>5}  {function}")
