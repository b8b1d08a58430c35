#!/usr/bin/env python3
"""Runs every example in README.md, CONTRIBUTING.md and docs/*.md and compares its output.

Usage:  Tests/Docs/check-examples.py [--tool PATH]

An example is a fenced block marked `console`. In it, a line beginning with `$ ` is a command
(a line ending in a backslash continues on the next, as in bash); the lines after it, up to the next `$ `
or the end of the block, are what it prints on standard output, exactly. A last line
`[exit status N]` gives the status the command must end with (0 unless given). Commands run
with bash -o pipefail from the package root, with the tool first on PATH, NO_COLOR set and
COLUMNS=100. A command of the tool that writes JSON (--json, --format json) and is not piped
has its output validated against its schema in schemas/ as well. Other fenced blocks
(installation steps, paths on a user's machine) are not run.

Prints one line per example and a count; exit status 1 when any example differs. With
--update, writes each command's real output and status into the file instead (review the diff).
"""

import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
STATUS = re.compile(r"^\[exit status (\d+)\]$")


def examples(path):
    """(line number, command, expected output, expected status) for each example in a file."""
    text = open(path, encoding="utf-8").read()
    found = []
    for match in re.finditer(r"^```console\n(.*?)^```", text, flags=re.S | re.M):
        first_line = text.count("\n", 0, match.start()) + 2
        lines = match.group(1).split("\n")[:-1]
        index = 0
        while index < len(lines):
            if not lines[index].startswith("$ "):
                raise SystemExit("%s:%d: a console block must begin with a command" % (path, first_line + index))
            start = index
            command = lines[index][2:]
            while command.endswith("\\"):
                index += 1
                # Kept as bash reads it: a backslash-newline continues the line.
                command = command + "\n" + lines[index]
            index += 1
            expected = []
            while index < len(lines) and not lines[index].startswith("$ "):
                expected.append(lines[index])
                index += 1
            status = 0
            if expected and STATUS.match(expected[-1]):
                status = int(STATUS.match(expected.pop()).group(1))
            found.append((first_line + start, command, "\n".join(expected), status))
    return found


def rewrite(path, updates):
    """Replaces each example's expected output and status with what the command did."""
    lines = open(path, encoding="utf-8").read().split("\n")
    # From the last example up, so that earlier line numbers stay right.
    for line, command, expected, status, actual, actual_status in reversed(updates):
        start = line - 1
        end = start + command.count("\n") + 1
        old = len(expected.split("\n")) if expected else 0
        old += 1 if status else 0
        new = (actual.split("\n") if actual else []) + (["[exit status %d]" % actual_status] if actual_status else [])
        lines[end:end + old] = new
    open(path, "w", encoding="utf-8").write("\n".join(lines))


def schema_for(command):
    """The schema a command's JSON output follows, or None (not JSON, or piped elsewhere)."""
    if "|" in command or ">" in command:
        return None
    words = shlex.split(command)
    if not words or words[0] != "restoration-tool" or len(words) < 2:
        return None
    json_output = "--json" in words or any(a == "--format" and b in ("json",) for a, b in zip(words, words[1:]))
    if not json_output:
        return None
    subcommand = words[1]
    if subcommand == "validate" and "--list-rules" in words:
        return "rules.schema.json"
    if subcommand == "scan" and "--timeline" in words:
        return "scan-timeline.schema.json"
    return subcommand + ".schema.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "debug", "restoration-tool"))
    parser.add_argument("--update", action="store_true", help="rewrite the expected outputs with the real ones")
    options = parser.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "Tests", "Schemas"))
    from check import load_schemas
    validators = load_schemas()

    bin_directory = os.path.join(ROOT, ".build", "docs-bin")
    os.makedirs(bin_directory, exist_ok=True)
    link = os.path.join(bin_directory, "restoration-tool")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.path.abspath(options.tool), link)
    environment = dict(os.environ, PATH=bin_directory + os.pathsep + os.environ.get("PATH", ""),
                       NO_COLOR="1", COLUMNS="100", LC_ALL="C.UTF-8")

    files = ["README.md", "CONTRIBUTING.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
    passed = failed = 0
    for name in files:
        if not os.path.exists(os.path.join(ROOT, name)):
            print("FAIL %s is missing" % name)
            failed += 1
            continue
        found = examples(os.path.join(ROOT, name))
        updates = []
        if name == "README.md" and not found:
            print("FAIL README.md shows no examples")
            failed += 1
        for line, command, expected, status in found:
            result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT, env=environment,
                                    capture_output=True, text=True)
            problems = []
            if result.returncode != status:
                problems.append("exit status %d, not %d: %s" % (result.returncode, status, result.stderr.strip()[:500]))
            if result.stdout.rstrip("\n") != expected:
                problems.append("output differs:\n--- expected\n%s\n--- actual\n%s" % (expected, result.stdout.rstrip("\n")))
            schema = schema_for(command)
            if schema and not problems:
                errors = list(validators[schema].iter_errors(json.loads(result.stdout)))
                if errors:
                    problems.append("does not follow %s: %s" % (schema, errors[0].message[:300]))
            label = "%s:%d: %s" % (name, line, command.split("\n")[0])
            if options.update:
                updates.append((line, command, expected, status, result.stdout.rstrip("\n"), result.returncode))
            if problems:
                failed += 1
                print("FAIL " + label)
                for problem in problems:
                    print("  " + problem.replace("\n", "\n  "))
            else:
                passed += 1
                print("ok   " + label)
        if options.update and updates:
            rewrite(os.path.join(ROOT, name), updates)
    print("examples: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
