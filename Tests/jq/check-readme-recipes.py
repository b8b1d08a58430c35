#!/usr/bin/env python3
"""Runs every jq recipe shown in README.md and checks it prints what the README shows.

A recipe is a line `$ restoration-tool dump --json … | jq …` inside a fenced block; the lines
after it, up to the next `$ ` line or the end of the block, are its expected output. The README
and the tool's JSON therefore cannot drift apart. Run from the package root after a build;
TOOL names the executable (default .build/debug/restoration-tool).
"""
import os
import re
import subprocess
import sys

tool = os.environ.get("TOOL", ".build/debug/restoration-tool")
readme = open("README.md", encoding="utf-8").read()

recipes = []
for block in re.findall(r"^```[^\n]*\n(.*?)^```", readme, flags=re.S | re.M):
    lines = block.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not (line.startswith("$ restoration-tool ") and "| jq" in line):
            continue
        expected = []
        while index < len(lines) and not lines[index].startswith("$ "):
            expected.append(lines[index])
            index += 1
        recipes.append((line[2:], "\n".join(expected).strip("\n")))

passed = failed = 0
for command, expected in recipes:
    runnable = tool + command[len("restoration-tool"):]
    result = subprocess.run(["bash", "-o", "pipefail", "-c", runnable], capture_output=True, text=True)
    actual = result.stdout.strip("\n")
    if result.returncode == 0 and actual == expected:
        passed += 1
        print("ok:", command)
    else:
        failed += 1
        print("FAILED:", command)
        print("  status:", result.returncode, result.stderr.strip())
        print("  expected:\n" + expected)
        print("  actual:\n" + actual)

if not recipes:
    print("README.md shows no jq recipes")
    failed += 1
print(f"recipes: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
