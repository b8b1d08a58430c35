#!/usr/bin/env python3
"""Validates every JSON document the tool writes against the schemas in schemas/.

Usage:  Tests/Schemas/check.py [--tool PATH]

It runs the tool on the fixtures (dump, dump --raw, validate, validate --list-rules, diff,
tree and scan, with --json), and validates each document, and every golden JSON file of the
tests, against its schema (JSON Schema draft 2020-12, with the `jsonschema` package). It
prints one line per failure and a closing count; exit status 1 when any document fails.
"""

import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

try:
    import jsonschema
    from referencing import Registry, Resource
except ImportError:
    sys.exit("Tests/Schemas/check.py needs the jsonschema package (4.18 or later): pip install jsonschema")


def load_schemas():
    schemas = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "schemas", "*.schema.json"))):
        with open(path) as f:
            schemas[os.path.basename(path)] = json.load(f)
    # The schemas have no $id: each refers to another by its file name, relative to its own
    # place (as a validator given the file resolves it), so they are registered by file name.
    registry = Registry().with_resources(
        (name, Resource.from_contents(schema)) for name, schema in schemas.items())
    validators = {}
    for name, schema in schemas.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[name] = jsonschema.Draft202012Validator({"$ref": name}, registry=registry)
        # A definition inside a schema (one line of JSON Lines): "name#/$defs/what".
        for definition in schema.get("$defs", {}):
            validators[name + "#/$defs/" + definition] = jsonschema.Draft202012Validator(
                {"$ref": name + "#/$defs/" + definition}, registry=registry)
    return validators


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "debug", "restoration-tool"))
    options = parser.parse_args()
    validators = load_schemas()
    checked, failures = 0, []

    def check(schema, label, text):
        nonlocal checked
        checked += 1
        try:
            document = json.loads(text)
        except ValueError as error:
            failures.append("%s: not JSON: %s" % (label, error))
            return
        errors = sorted(validators[schema].iter_errors(document), key=lambda e: list(e.absolute_path))
        if errors:
            error = errors[0]
            failures.append("%s: %s at %s" % (label, error.message[:300], "/".join(map(str, error.absolute_path))))

    def run(schema, *arguments):
        result = subprocess.run([options.tool] + list(arguments), cwd=ROOT, capture_output=True)
        if result.stdout:
            check(schema, "restoration-tool " + " ".join(arguments), result.stdout)

    fixtures = sorted(os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "Fixtures", "**", "*"), recursive=True)
                      if os.path.isfile(path) and not path.endswith((".py", ".md")) and os.path.getsize(path) <= 1 << 20)
    for fixture in fixtures:
        run("dump.schema.json", "dump", "--json", fixture)
        run("validate.schema.json", "validate", "--json", fixture)
        run("tree.schema.json", "tree", "--json", fixture)
    for fixture in ("Fixtures/values.data", "Fixtures/ios8-tabbar.data", "Fixtures/hostile/int16.data"):
        run("dump.schema.json", "dump", "--json", "--raw", fixture)
    for directory in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "validate", "*.savedState"))):
        run("validate.schema.json", "validate", "--json", os.path.relpath(directory, ROOT))
    run("dump.schema.json", "dump", "--json", "Fixtures/ios7-plain.data", "Fixtures/ios8-tabbar.data")
    # Foundation's own archives (NSValue structures among them), beside the checkout as CI lays them.
    apple = os.environ.get("APPLE_KEYED_ARCHIVES", os.path.join(ROOT, "..", "shared", "apple-keyed-archives"))
    for archive in sorted(glob.glob(os.path.join(apple, "*.plist")) + glob.glob(os.path.join(apple, "*.archive"))):
        run("dump.schema.json", "dump", "--json", archive)
    run("tree.schema.json", "tree", "--json", "Fixtures/ios7-plain.data", "Fixtures/ios8-tabbar.data")
    run("rules.schema.json", "validate", "--list-rules", "--json")
    run("scan.schema.json", "scan", "--json", "Fixtures")
    run("scan.schema.json", "scan", "--format", "json", "Fixtures")
    run("scan-timeline.schema.json", "scan", "--timeline", "--format", "json", "Fixtures")
    for line in subprocess.run([options.tool, "scan", "--format", "jsonl", "Fixtures"], cwd=ROOT, capture_output=True).stdout.splitlines():
        check("scan.schema.json#/$defs/archive", "scan --format jsonl line", line)
    for line in subprocess.run([options.tool, "scan", "--timeline", "--format", "jsonl", "Fixtures"], cwd=ROOT, capture_output=True).stdout.splitlines():
        check("scan-timeline.schema.json#/$defs/event", "scan --timeline --format jsonl line", line)
    # Saved-state folders: dump of a folder, diff of two folders and of two of their files.
    terminal = ("Fixtures/macos/a/com.apple.Terminal.savedState", "Fixtures/macos/b/com.apple.Terminal.savedState")
    run("dump.schema.json", "dump", "--json", "Fixtures/scenes/com.example.notes.savedState")
    run("dump.schema.json", "dump", "--json", "--history", terminal[0] + "/data.data")
    run("diff.schema.json", "diff", "--json", terminal[0] + "/data.data", terminal[1] + "/data.data")
    # Every documented shape as a whole: the array of two folders' documents, a file and a
    # folder, a folder's validate and tree, several files, a scan that could read nothing.
    run("diff.schema.json", "diff", "--json", terminal[0], "Fixtures/scenes/com.example.notes.savedState")
    run("diff.schema.json", "diff", "--json", "Fixtures/macos/a", "Fixtures/macos/b")
    run("diff.schema.json", "diff", "--json", terminal[0] + "/data.data", terminal[1])
    run("validate.schema.json", "validate", "--json", "Fixtures/macos")
    run("validate.schema.json", "validate", "--json", "Fixtures/validate/clean.data", "Fixtures/validate/dangling-reference.data")
    run("tree.schema.json", "tree", "--json", "Fixtures/scenes")
    run("dump.schema.json", "dump", "--json", "Fixtures/macos")
    run("scan.schema.json", "scan", "--json", "Fixtures/no-such-directory")
    for a in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "diff", "*-a.data"))):
        run("diff.schema.json", "diff", "--json", os.path.relpath(a, ROOT), os.path.relpath(a, ROOT)[:-7] + "-b.data")

    golden = {"validate-": "validate.schema.json", "diff-": "diff.schema.json"}
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "RestorationToolTests", "Golden", "*.json"))):
        name = os.path.basename(path)
        schema = next((s for prefix, s in golden.items() if name.startswith(prefix)), "dump.schema.json")
        with open(path) as f:
            check(schema, name, f.read())

    # The schemas reject what the tool never writes: a stray member, a wrong type, an unknown tag.
    wrong = [
        ("dump.schema.json", {"schemaVersion": 1}),
        ("validate.schema.json", {"schemaVersion": 1, "file": "f", "valid": True, "errors": 0, "warnings": 0, "diagnostics": [], "extra": 1}),
        ("validate.schema.json", {"schemaVersion": 1, "file": "f", "valid": "yes", "errors": 0, "warnings": 0, "diagnostics": []}),
        ("diff.schema.json", {"schemaVersion": 2, "a": "a", "b": "b", "identical": True, "changes": []}),
        ("scan-timeline.schema.json#/$defs/event", {"datetime": "2024-06-03T09:41:00Z", "timestamp": 0, "timestamp_desc": "State Saved Time", "message": ""}),
        ("rules.schema.json", {"schemaVersion": 1, "rules": [{"rule": "no-such-rule", "severities": ["error"], "summary": "", "reads": ["k"], "predicts": ""}]}),
    ]
    with open(os.path.join(ROOT, "Tests", "RestorationToolTests", "Golden", "values.data.json")) as f:
        values = json.load(f)
    values["objects"][0]["state"]["bogus"] = {"$nosuchtag": 1}
    wrong.append(("dump.schema.json", values))
    values = json.loads(json.dumps(values))
    values["objects"][0]["state"]["bogus"] = {"$range": {"location": 1}}
    wrong.append(("dump.schema.json", values))
    for schema, document in wrong:
        checked += 1
        if validators[schema].is_valid(document):
            failures.append("%s accepts a document the tool never writes: %s" % (schema, json.dumps(document)[:120]))

    for failure in failures:
        print("FAIL " + failure)
    print("schemas: %d passed, %d failed" % (checked - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
