#!/usr/bin/env python3
"""Counts the tests that wait for real time, in total and per file.

A test waits for real time when its body calls one of the waits (`waitFor…`, `waitUntil(`, `usleep`, `Task.sleep`,
`Thread.sleep`) or starts the daemon or a bar (`DaemonUnderTest(`, `SpawnedProcess(`, `HeadlessSway(`,
`VirtualDisplay(`, or `widgetd run` started by hand), directly or through a helper function of the same test target
whose body does one of these. A helper is matched by its name: one whose name is declared twice in its target is not
followed, and a name inside a string literal is no call. Running the CLI (`runWidgetd`), waiting for a program's end
(`Process.waitForExit`, `waitForExitOrThrow`, whose deadline only keeps a stuck program from holding up the run) or
waiting on a descriptor (`Poller.waitUntilReadable`) is not counted: it returns when the command ends or the
descriptor is ready, with no real-time deadline of the test's own; nor is `pollMilliseconds`, which the tests call
only as the pure conversion of a duration to poll's timeout.

The Swift files under Tests/ are read as text, not parsed. A function (test or helper) is its declaration line
and the lines up to the first line that closes it: a `}` at the declaration's indentation or less (the end of the
type), or the next `@Test` at that indentation or less; a declaration whose braces close on its own line is that
line. swift-format writes every body that way, so this finds the bodies of the formatted tree; a parameterized test
counts once, like any `@Test` function.

Usage: scripts/count-real-time-tests.py [--list] [TESTS_DIRECTORY]
"""

import re
import sys
from collections import defaultdict
from pathlib import Path

WAITS = re.compile(
    r"\bwaitFor(?!Exit)\w*\s*\(|\bwaitUntil\s*\(|\busleep\s*\(|\bTask\.sleep\b|\bThread\.sleep\b"
)
PROCESSES = re.compile(
    r"\bDaemonUnderTest\s*\(|\bSpawnedProcess\s*\(|\bHeadlessSway\s*\(|\bVirtualDisplay\s*\("
    r"|widgetdBinary\.path,\s*\"run\"|runWidgetd\(\s*\[\s*\"run\"|arguments\s*=\s*\[\s*\"run\""
)
DECLARATION = re.compile(
    r"^(\s*)(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:private|fileprivate|static|mutating|nonisolated)\s+)*func\s+(\w+)"
)
TEST_ATTRIBUTE = re.compile(r"^(\s*)@Test\b")


def functions(lines):
    """Yields (name, is_test, first_line, body_text) for each function declared in a file."""
    index = 0
    while index < len(lines):
        line = lines[index]
        test = TEST_ATTRIBUTE.match(line)
        declaration = DECLARATION.match(line)
        if not test and not declaration:
            index += 1
            continue
        indent = (test or declaration).group(1)
        start = index
        # The function's name is on the first `func` line from the attribute on.
        name = None
        probe = index
        while probe < len(lines) and name is None:
            found = DECLARATION.match(lines[probe]) or re.search(r"\bfunc\s+(\w+)", lines[probe])
            if found:
                name = found.group(found.lastindex)
            probe += 1
        end = probe - 1
        declared_on = lines[end]
        if not (declared_on.count("{") and declared_on.count("{") == declared_on.count("}")):
            end = probe
            while end < len(lines):
                text = lines[end]
                depth = len(text) - len(text.lstrip())
                if text.strip() == "}" and depth <= len(indent):
                    break
                attribute = TEST_ATTRIBUTE.match(text)
                if attribute and len(attribute.group(1)) <= len(indent):
                    end -= 1
                    break
                end += 1
        body = "\n".join(lines[start : end + 1])
        yield name or "?", bool(test), start + 1, body
        index = max(end, start) + 1


def code_only(body):
    """The body without its string literals, where a helper's name may stand in a message (`missing (`)."""
    body = re.sub(r'"""[\s\S]*?"""', '""', body)
    return re.sub(r'#?"(?:[^"\\\n]|\\.)*"#?', '""', body)


def main():
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    listing = "--list" in sys.argv
    root = Path(arguments[0] if arguments else Path(__file__).resolve().parent.parent / "Tests")
    per_target = defaultdict(list)
    for path in sorted(root.rglob("*.swift")):
        target = path.relative_to(root).parts[0]
        lines = path.read_text(encoding="utf-8").split("\n")
        for name, is_test, line, body in functions(lines):
            per_target[target].append((path, name, is_test, line, body))

    waiting = []
    total_tests = 0
    for target, found in per_target.items():
        # Helpers that wait, found to a fixed point: a helper calling a waiting helper waits too.
        # A helper is known by its name alone, so a name declared twice in the target (`stop`, `start`) is left
        # out rather than guessed at.
        declared = defaultdict(int)
        for _, name, is_test, _, _ in found:
            if not is_test:
                declared[name] += 1
        helpers = {name: body for _, name, is_test, _, body in found if not is_test and declared[name] == 1}
        marked = {name for name, body in helpers.items() if WAITS.search(body) or PROCESSES.search(body)}
        while True:
            calls = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(marked))) + r")\s*\(") if marked else None
            more = {
                name for name, body in helpers.items() if name not in marked and calls and calls.search(code_only(body))
            }
            if not more:
                break
            marked |= more
        calls = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(marked))) + r")\s*\(") if marked else None
        for path, name, is_test, line, body in found:
            if not is_test:
                continue
            total_tests += 1
            # The test's own declaration line names it, so a call is looked for after it.
            rest = body.split("\n", 2)[-1] if "\n" in body else ""
            if WAITS.search(body) or PROCESSES.search(body) or (calls and calls.search(code_only(rest))):
                waiting.append((path, name, line))

    per_file = defaultdict(int)
    for path, name, line in waiting:
        per_file[path.relative_to(root.parent)] += 1
    for file, count in sorted(per_file.items(), key=lambda item: (-item[1], str(item[0]))):
        print(f"{count:4d}  {file}")
    if listing:
        print()
        for path, name, line in waiting:
            print(f"{path.relative_to(root.parent)}:{line}: {name}")
    print(f"{len(waiting)} of {total_tests} @Test functions wait for real time, in {len(per_file)} files")


if __name__ == "__main__":
    main()
