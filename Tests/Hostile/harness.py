#!/usr/bin/env python3
"""Amplification harness: feeds hostile inputs to every command and measures what each costs.

Usage:  Tests/Hostile/harness.py [--tool PATH] [--seconds N] [--seed N] [--report FILE]

For each input (the fixtures, inputs generated for each class of attack found so far, and
mutations of both) it runs every command and records wall time, peak memory (the child's
ru_maxrss) and bytes written to standard output. A run fails on:
  - death by a signal, or a run past --time-limit seconds (5);
  - peak memory over --memory-limit MiB (1024);
  - more output than the documented bound: --max-output-size, whose default is 256 MiB;
  - an exit status other than 0, 1 or 2;
  - output on standard output together with status 2 for a single-file command;
  - a line on standard error that is not `restoration-tool: WHAT: error|note: …` or that holds a
    control character;
  - for a full disk (/dev/full as standard output, or build's -o): any status but 74.
`build` runs on the document `dump --json` wrote for each input, and on documents made to
attack it (nesting, width, repeated keys, findings, nested archives).
It prints one line per failure and, last, the figures per command: runs, worst seconds, worst
MiB and worst output bytes per input KiB. Exit status: 0 no failure, 1 failures.

Python 3 standard library only; the inputs are made with Fixtures/generate.py's writers.
"""

import argparse
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Fixtures"))
sys.dont_write_bytecode = True   # no __pycache__ in Fixtures/
import generate as g  # noqa: E402  (the fixture writers)
import saved_state as ss  # noqa: E402  (scene and macOS writers)

MAX_INPUT = 1 << 20
OUTPUT_BOUND = 256 << 20
STDERR_LINE = re.compile(r"^restoration-tool: .+?: (error|warning|note): [^\x00-\x1f\x7f-\x9f]*$")
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")

COMMANDS = {   # name -> arguments before/around the input; INPUT is replaced
    "dump": ["dump", "INPUT"],
    "dump --json": ["dump", "--json", "INPUT"],
    "validate": ["validate", "INPUT"],
    "validate --json": ["validate", "--json", "INPUT"],
    "tree": ["tree", "INPUT"],
    "tree --json": ["tree", "--json", "INPUT"],
    "tree --format dot": ["tree", "--format", "dot", "INPUT"],
    "tree --format mermaid": ["tree", "--format", "mermaid", "INPUT"],
    "diff": ["diff", "CLEAN", "INPUT"],
    "diff --json": ["diff", "--json", "INPUT", "CLEAN"],
    "scan": ["scan", "DIRECTORY"],
    "scan --format csv": ["scan", "--format", "csv", "DIRECTORY"],
    "scan --timeline --format jsonl": ["scan", "--timeline", "--format", "jsonl", "DIRECTORY"],
    "scan --format json": ["scan", "--format", "json", "DIRECTORY"],
    # Several files a run: each document or graph held before the whole one is written.
    "dump --json x3": ["dump", "--json", "INPUT", "INPUT", "INPUT"],
    "validate --json x3": ["validate", "--json", "INPUT", "INPUT", "INPUT"],
    "tree --json x3": ["tree", "--json", "INPUT", "INPUT", "INPUT"],
    "tree --format dot x3": ["tree", "--format", "dot", "INPUT", "INPUT", "INPUT"],
    "tree --format mermaid x3": ["tree", "--format", "mermaid", "INPUT", "INPUT", "INPUT"],
}
SINGLE_FILE = {"dump", "dump --json", "validate", "validate --json", "tree", "tree --json"}


# --- inputs for each class of attack ----------------------------------------------------------

def restoration(saved, **extra):
    return g.binary(g.restoration_archive(saved, class_map=extra.pop("class_map", None), **g.STATEDEMO_METADATA, **extra))


def class_inputs():
    """name -> bytes, at most 1 MiB each: one or more per class of the second round."""
    inputs = {}
    # 1. Demangling blow-up: substitutions that double, at several depths.
    for levels in (16, 20, 24, 26):
        name = g.demangling_bomb_name(levels)
        inputs["demangle-%d" % levels] = restoration(
            [("Root", g.view_controller_state(model=g.Obj(name, fields={"v": 1})))], class_map={"Root": name})
    # 2. Padding: one long key among many short ones.
    state = {"k%05d" % i: i for i in range(20000)}
    state["K" * 100_000] = 1
    inputs["padding-long-key"] = restoration([("Root", state)])
    # 3. Escaping multiplies: one string of control characters referenced many times.
    objects = ["$null", {"$class": g.UID(3), "NS.objects": [g.UID(2)] * 4000}, "\x1b" * 60_000, g.NSARRAY_CLASS]
    inputs["escape-bomb"] = g.binary(g.keyed_tree({"root": g.UID(1)}, objects))
    objects = ["$null", {"$class": g.UID(3), "NS.objects": [g.UID(2)] * 200}, "\x01\"\\" * 20_000, g.NSARRAY_CLASS]
    nested = g.binary(g.keyed_tree({"root": g.UID(1)}, objects))
    inputs["escape-in-state"] = restoration([("Root", nested)])
    # Indentation: a shared array of numbers referenced from deep inside nested arrays.
    deep = ["$null", g.NSARRAY_CLASS]
    leaf_uid = 2
    deep.append({"$class": g.UID(1), "NS.objects": [g.UID(3 + i) for i in range(2000)]})
    deep += list(range(2000))
    top_uid = leaf_uid
    for _ in range(400):
        deep.append({"$class": g.UID(1), "NS.objects": [g.UID(top_uid)] * 2})
        top_uid = len(deep) - 1
    inputs["deep-shared"] = g.binary(g.keyed_tree({"root": g.UID(top_uid)}, deep))
    # 5. Escape sequences where messages quote the input.
    inputs["archiver-escape"] = g.binary({"$archiver": "\x1b[2J\nrestoration-tool: x: error: forged", "$version": 100000,
                                          "$top": {}, "$objects": ["$null"]})
    inputs["version-escape"] = b"bplist0\x1b\nrestoration-tool: forged"
    # 8. XML: entities, depth, size.
    inputs["xml-entities"] = (g.XML_HEADER + b"<string>" + b"&amp;&#x41;" * 90_000 + b"</string></plist>\n")
    inputs["xml-deep"] = g.XML_HEADER + b"<array>" * 600 + b"</array>" * 600 + b"</plist>\n"
    # 9. Repeated $top keys.
    tree = g.archive_from_parts(g.clean_archive_parts())
    pairs = list(tree["$top"].items())
    pairs += [(key, value) for key, value in pairs] * 3
    tree["$top"] = g.Pairs(pairs)
    inputs["repeated-keys"] = g.write_bplist(g.flatten(tree))
    # 10. One nested archive that thousands of $top entries refer to, decoded ahead on all
    # processors (once: see ArchiveTapeTests.testANestedArchiveSharedByManyEntriesIsDecodedOnceAhead).
    objects = ["$null", {"$class": g.UID(2), "NS.objects": [g.UID(3 + i) for i in range(3000)]}, g.NSARRAY_CLASS] + list(range(3000))
    shared = g.binary(g.keyed_tree({"root": g.UID(1)}, objects))
    inputs["shared-nested-archive"] = g.binary(g.keyed_tree({"k%d" % i: g.UID(1) for i in range(4000)}, ["$null", shared]))
    # A chain of 90 000 $objects entries, each the UID of the next: it nests nothing, so no
    # depth limit bounds it, and the decoder follows it on a stack of its own. Once as a keyed
    # archive, once as a saved object's state, which every command reads.
    chain = g.binary(g.keyed_tree({"first": g.UID(1), "middle": g.UID(45000)}, ["$null"] + [g.UID(i + 2) for i in range(90000)] + ["end"]))
    inputs["uid-chain"] = chain
    inputs["uid-chain-state"] = g.binary(g.keyed_tree({"Root": g.UID(1), "kRootRestorationIdentifiersKey": g.UID(2), "kUIStateRestorationArchiveMajorVersionKey": 2},
                                                      ["$null", chain, {"$class": g.UID(3), "NS.objects": [g.UID(4)]}, g.NSARRAY_CLASS, "Root"]))
    # Output nested past --max-depth: each of 70 entries is an array nested 250 levels deep
    # around the one before, each decoded first from $top within the limit, then written
    # wherever it is referred to (17 500 levels); the writers keep stacks of their own.
    state = ["$null", g.NSARRAY_CLASS]
    entries = []
    for entry in range(70):
        inner = entries[-1] if entries else None
        for _ in range(250):
            state.append({"$class": g.UID(1), "NS.objects": [g.UID(inner)] if inner else []})
            inner = len(state) - 1
        entries.append(inner)
    state = g.binary(g.keyed_tree({"e%03d" % i: g.UID(uid) for i, uid in enumerate(entries)}, state))
    inputs["shared-past-depth"] = g.binary(g.keyed_tree({"Root": g.UID(1), "kRootRestorationIdentifiersKey": g.UID(2), "kUIStateRestorationArchiveMajorVersionKey": 2},
                                                        ["$null", state, {"$class": g.UID(3), "NS.objects": [g.UID(4)]}, g.NSARRAY_CLASS, "Root"]))
    # Children that repeat one path many times after many others: each repeat names the first
    # child with its path, found without a search through the children before it.
    paths = ["Root/:[%d]:/C" % i for i in range(20000)]
    inputs["repeated-children"] = restoration([("Root", {"kUIViewControllerChildrenKey": paths + [paths[-1]] * 60000})])
    # One children list of 300 000 repeats of a path no object was saved under: a finding per
    # child, which tree draws none of, so it reads them without making their messages.
    inputs["long-children-list"] = restoration([("Root", {"kUIViewControllerChildrenKey": ["Root/:[0]:/Gone"] * 300000})])
    # One state with a thousand dangling children, the entry of 4 000 listed paths: the findings
    # repeat per object, and validate and tree stop gathering them once no output could hold them.
    gone = ["Gone/:[%d]:/X" % i for i in range(1000)]
    state = g.binary(g.keyed_tree({"kUIViewControllerChildrenKey": g.UID(1)},
                                  ["$null", {"$class": g.UID(2), "NS.objects": [g.UID(3 + i) for i in range(1000)]}, g.NSARRAY_CLASS] + gone))
    listed = ["P%d" % i for i in range(4000)]
    top = {path: g.UID(1) for path in listed}
    top.update({"kRootRestorationIdentifiersKey": g.UID(2), "kUIStateRestorationArchiveMajorVersionKey": 2})
    inputs["shared-dangling-state"] = g.binary(g.keyed_tree(top, ["$null", state, {"$class": g.UID(3), "NS.objects": [g.UID(4 + i) for i in range(4000)]}, g.NSARRAY_CLASS] + listed))
    # Round 3, rows 2 to 4: owners that share one state whose dangling children are named with
    # characters every graph language escapes, so that what is written outgrows what is read.
    for owners, label in ((450, "shared-braces-450"), (300, "shared-braces-300")):
        braces = ["Gone/%s/%d" % ("{" * 180, i) for i in range(1000)]
        state = g.binary(g.keyed_tree({"kUIViewControllerChildrenKey": g.UID(1)},
                                      ["$null", {"$class": g.UID(2), "NS.objects": [g.UID(3 + i) for i in range(1000)]}, g.NSARRAY_CLASS] + braces))
        listed = ["P%d" % i for i in range(owners)]
        top = {path: g.UID(1) for path in listed}
        top.update({"kRootRestorationIdentifiersKey": g.UID(2), "kUIStateRestorationArchiveMajorVersionKey": 2})
        inputs[label] = g.binary(g.keyed_tree(top, ["$null", state, {"$class": g.UID(3), "NS.objects": [g.UID(4 + i) for i in range(owners)]}, g.NSARRAY_CLASS] + listed))
    return {name: data for name, data in inputs.items() if len(data) <= MAX_INPUT}


def saved_state_inputs():
    """name -> (bytes, {file beside it: bytes}): macOS window records with the windows.plist
    that holds their keys, and scene activities, made for each way the new readers can be
    attacked (at most 1 MiB each)."""
    keys = ss.windows_plist([(i, "w%d" % i) for i in range(1, 17)])
    beside = {"windows.plist": keys}
    header = lambda wid, length: b"NSCR1000" + g.struct.pack(">II", wid, length)
    inputs = {}
    for length in (0, 15, 16, 17, 1 << 31):
        inputs["records-length-%d" % length] = (header(1, length) + b"\0" * 64, beside)
    # The most records 1 MiB holds, each decrypted into garbage under its window's key.
    inputs["records-many-tiny"] = (b"".join(header(1 + i % 16, 32) + bytes(16) for i in range(MAX_INPUT // 32)), beside)
    # Envelopes whose lengths point past the record: the name, then the archive.
    name_past = g.struct.pack(">II", 0, 1 << 30) + b"_NSWindow" + b"rchv" + g.struct.pack(">I", 8) + b"bplist00"
    archive_past = g.struct.pack(">II", 0, 9) + b"_NSWindow" + b"rchv" + g.struct.pack(">I", 0xFFFFFFFF) + b"bplist00"
    for label, plaintext in (("name", name_past), ("archive", archive_past)):
        padded = plaintext + b"\0" * (-len(plaintext) % 16)
        inputs["records-%s-past-end" % label] = (ss.record(1, padded, ss.key(1)), beside)
    # A structure bomb inside a correctly encrypted record: the archive's limits apply.
    deep = g.binary(g.keyed_tree({"root": g.UID(1)}, ["$null"] + [{"$class": g.UID(2), "NS.objects": [g.UID(3)] * 2}] + [g.NSARRAY_CLASS, 1]))
    inputs["records-window-archive"] = (ss.record(1, ss.envelope(deep), ss.key(1)) * 2000, beside)
    # Keys of the wrong size and type, and a windows.plist bomb: 20 000 entries.
    wrong = [{"NSWindowID": 1, "NSDataKey": b"short"}, {"NSWindowID": 2, "NSDataKey": "a string"}, {"NSWindowID": 3}]
    inputs["records-wrong-keys"] = (b"".join(ss.record(i, ss.envelope(deep), ss.key(i)) for i in (1, 2, 3)),
                                    {"windows.plist": g.plistlib.dumps(wrong, fmt=g.plistlib.FMT_BINARY)})
    many = [{"NSWindowID": i, "NSDataKey": bytes(16), "NSTitle": "\x1b[2J" * 2} for i in range(20000)]
    inputs["records-windows-plist-bomb"] = (ss.record(1, ss.envelope(deep), ss.key(1)),
                                            {"windows.plist": g.plistlib.dumps(many, fmt=g.plistlib.FMT_BINARY)})
    # Round 4, row 2: 300 000 entries that are one shared dictionary (a byte each), and 20 000
    # records of windows none of them has: matching each record to its key was a search of the
    # entries (entries x records).
    shared_entry = [g.ArrayNode([1] * 300_000), g.DictNode([2, 3], [4, 5]), g.Leaf(g.enc_ascii(b"NSWindowID")),
                    g.Leaf(g.enc_ascii(b"NSDataKey")), g.Leaf(g.enc_int(1)), g.Leaf(g.enc_data(bytes(16)))]
    keyless = b"".join(header(2 + i, 32) + bytes(16) for i in range(20000))
    inputs["records-keyless-shared-windows-plist"] = (keyless, {"windows.plist": g.write_bplist(shared_entry)})
    # Round 4, row 9: two entries with one NSWindowID, the first with the right key.
    twice = [{"NSWindowID": 1, "NSDataKey": ss.key(1)}, {"NSWindowID": 1, "NSDataKey": ss.key(2)}]
    inputs["records-repeated-window-id"] = (ss.record(1, ss.envelope(deep), ss.key(1)),
                                            {"windows.plist": g.plistlib.dumps(twice, fmt=g.plistlib.FMT_BINARY)})
    # Round 4, row 10: a torn record, then a valid one 240 bytes on.
    for length in (0, 16, 1 << 31):
        inputs["records-torn-then-valid-%d" % length] = (header(1, length) + bytes(224) + ss.record(1, ss.envelope(deep), ss.key(1)), beside)
    # Scene activities: a user-info archive of shared arrays, an escape-laden type.
    shared = list(range(200))
    activity = {"CanvasRestorationUserActivityTypeKey": "\x1b]0;forged\x07" * 1000,
                "CanvasRestorationUserActivityUserInfoDataKey": g.keyed_archive_bytes({"CanvasRestorationUserActivityUserInfoKey": [shared] * 2000})}
    inputs["scene-shared-user-info"] = (g.plistlib.dumps(activity, fmt=g.plistlib.FMT_BINARY), {})
    return {name: value for name, value in inputs.items() if len(value[0]) <= MAX_INPUT and all(len(b) <= MAX_INPUT for b in value[1].values())}


def folder_inputs():
    """name -> {path below the folder: bytes}: many small files, each within one file's limits,
    that together would make a run do their sum (round 4, rows 1 and 5; under 1 MB each)."""
    activity = g.shared_user_info_activity()
    folders = {
        "folder-300-shared-user-infos": {"app.savedState/S%03d/data.data" % i: activity for i in range(300)},
        "folder-shared-user-infos-two-down": {"Library/Saved Application State/app%d.savedState/data.data" % i: activity for i in range(40)},
    }
    return {name: files for name, files in folders.items() if sum(map(len, files.values())) <= MAX_INPUT}


FOLDER_COMMANDS = {
    "folder dump": ["dump", "FOLDER"],
    "folder dump --json": ["dump", "--json", "FOLDER"],
    "folder validate --json": ["validate", "--json", "FOLDER"],
    "folder tree": ["tree", "FOLDER"],
    "folder scan --format json": ["scan", "--format", "json", "FOLDER"],
    # The two folders differ in every file's leaf: both sides are decoded whole.
    "folder diff": ["diff", "FOLDER", "OTHER"],
}


def diff_pairs():
    """name -> (A, B) for diff (class 6): many changes under one long key; a large set whose
    elements are alike; shared subtrees that differ only at their leaves; a deep dictionary
    that differs only at its bottom."""
    long_key = "L" * 50_000
    pairs = {
        "diff-long-key": (restoration([("Root", {long_key: {"v%d" % i: i for i in range(10000)}})]),
                          restoration([("Root", {long_key: {"v%d" % i: i + 1 for i in range(10000)}})])),
        "diff-alike-set": (restoration([("Root", {"set": g.NSSet([{"k": "v", "n": i} for i in range(16000)])})]),
                           restoration([("Root", {"set": g.NSSet([{"k": "v", "n": i + 1} for i in range(16000)])})])),
    }
    # A value shared at every level, 2**20 leaves (round 3, row 1: 36 s before), within
    # --max-nodes: the two files differ in the leaf alone.
    for leaf in ("a", "b"):
        objects = ["$null", g.NSARRAY_CLASS, leaf]
        top = 2
        for _ in range(20):
            objects.append({"$class": g.UID(1), "NS.objects": [g.UID(top), g.UID(top)]})
            top = len(objects) - 1
        state = g.binary(g.keyed_tree({"kViewControllerViewWasLoadedKey": True, "model": g.UID(top)}, objects))
        pairs.setdefault("diff-shared-subtrees", []).append(restoration([("Root", state)]))
    # A dictionary nested 200 levels deep, the two files differing at its bottom alone (round 3:
    # each level compared its entry in order and again as a multiset member, 2**200 steps).
    for leaf in (1, 2):
        deep = leaf
        for _ in range(200):
            deep = {"k": deep}
        pairs.setdefault("diff-deep-unequal", []).append(restoration([("Root", {"deep": deep})]))
    return pairs


def build_inputs():
    """name -> a JSON document for build, at most 1 MiB each."""
    def keyed(app_state):
        return ('{"kind": "keyedArchive", "appState": %s}' % app_state).encode()
    inputs = {}
    # Nesting past every limit, in arrays and in tagged values.
    inputs["build-deep-arrays"] = keyed('{"a": ' + "[" * 200_000 + "]" * 200_000 + "}")
    inputs["build-deep-sets"] = keyed('{"a": ' + '{"$set": [' * 50_000 + "]}" * 50_000 + "}")
    inputs["build-deep-archives"] = keyed('{"a": ' + '{"$archive": {"a": ' * 5_000 + "1" + "}}" * 5_000 + "}")
    # Width: many values, many keys, one long string of escapes.
    inputs["build-wide-array"] = keyed('{"a": [' + ",".join(["1"] * 300_000) + "]}")
    inputs["build-repeated-keys"] = keyed("{" + ",".join(['"k": 1'] * 100_000) + "}")
    inputs["build-escapes"] = keyed('{"s": "' + "\\u001b\\n" * 60_000 + '"}')
    inputs["build-big-integers"] = keyed("{" + ",".join('"k%d": {"$integer": "%d"}' % (i, -(1 << 127)) for i in range(10_000)) + "}")
    # A restoration archive whose every object refers to a path nobody saved: findings flood.
    objects = ",".join('{"identifierPath": "R%d", "state": {"kPresentedViewControllerKey": {"$ref": "Gone%d"}}, "views": {}}' % (i, i)
                       for i in range(10_000))
    paths = ",".join('"R%d"' % i for i in range(10_000))
    inputs["build-dangling-flood"] = ('{"kind": "restorationArchive", "archive": {"majorVersion": 2, "minorVersion": 1}, '
                                      '"bundleVersion": null, "systemVersion": null, "timestamp": null, "userInterfaceIdiom": null, '
                                      '"restorationClassMap": {}, "identifierPaths": [%s], "objects": [%s], "appState": {}, "notes": []}'
                                      % (paths, objects)).encode()
    inputs["build-not-json"] = b"\xff\xfe{" + b"\x00" * 1000
    return inputs


def fixture_inputs():
    inputs = {}
    for directory, _, files in os.walk(os.path.join(ROOT, "Fixtures")):
        for name in sorted(files):
            path = os.path.join(directory, name)
            if name.endswith((".py", ".md")) or os.path.getsize(path) > MAX_INPUT:
                continue
            with open(path, "rb") as f:
                inputs[os.path.relpath(path, ROOT)] = f.read()
    return inputs


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        if not data:
            break
        kind = rng.randrange(5)
        position = rng.randrange(len(data))
        if kind == 0:
            data[position] ^= 1 << rng.randrange(8)
        elif kind == 1:
            data[position] = rng.choice([0x00, 0xFF, 0x7F, 0x80, 0x0F, 0x1B])
        elif kind == 2:
            del data[position:position + rng.randrange(1, 64)]
        elif kind == 3:
            chunk = data[position:position + rng.randrange(1, 256)]
            data[position:position] = chunk * rng.randrange(1, 16)
        else:
            data = data[:position]
    return bytes(data[:MAX_INPUT])


# --- running ------------------------------------------------------------------------------------

class Runner:
    def __init__(self, tool, workspace, time_limit, memory_limit):
        self.tool = tool
        self.workspace = workspace
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self.clean = os.path.join(ROOT, "Fixtures", "validate", "clean.data")
        self.failures = []
        self.figures = {}   # command -> [runs, worst seconds, worst MiB, worst bytes per KiB, slowest input]

    def run(self, label, data, beside=None):
        """Runs every command on `data`, with the files of `beside` (name -> bytes) next to it,
        as a macOS data.data has its windows.plist."""
        path = os.path.join(self.workspace, "input")
        with open(path, "wb") as f:
            f.write(data)
        for name in ("windows.plist",):
            if os.path.exists(os.path.join(self.workspace, name)):
                os.remove(os.path.join(self.workspace, name))
        directory = os.path.join(self.workspace, "tree")
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(os.path.join(directory, "app.savedState"))
        shutil.copyfile(path, os.path.join(directory, "app.savedState", "data.data"))
        for name, content in (beside or {}).items():
            for folder in (self.workspace, os.path.join(directory, "app.savedState")):
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(content)
        for command, template in COMMANDS.items():
            arguments = [{"INPUT": path, "CLEAN": self.clean, "DIRECTORY": directory}.get(a, a) for a in template]
            self.measure(label, command, arguments, len(data))
        # A full disk: every write is checked.
        status, _, _, _, _ = self.execute(["dump", "--json", path], stdout_path="/dev/full")
        if status not in (74, 2):
            self.fail(label, "dump --json > /dev/full", "status %s, not 74" % status)
        # build, on the document of what was read.
        document = os.path.join(self.workspace, "document.json")
        status, _, _, _, _ = self.execute(["dump", "--json", path], stdout_path=document)
        if status == 0 and os.path.getsize(document) <= MAX_INPUT * 16:
            with open(document, "rb") as f:
                self.run_build(label, f.read())

    def run_build(self, label, document):
        """Runs build on `document`, to a file and to a full disk."""
        path = os.path.join(self.workspace, "document.json")
        with open(path, "wb") as f:
            f.write(document)
        self.measure(label, "build", ["build", path, "-o", os.path.join(self.workspace, "built.data")], len(document))
        status, _, _, _, _ = self.execute(["build", path, "-o", "/dev/full"])
        if status not in (74, 2):
            self.fail(label, "build -o /dev/full", "status %s, not 74" % status)
        return 2

    def run_folder(self, label, files):
        """Runs the folder commands on a folder of `files` (path -> bytes), and diff on it and
        a copy whose files differ in one byte each."""
        folders = []
        for name in ("folder", "other"):
            folder = os.path.join(self.workspace, name)
            shutil.rmtree(folder, ignore_errors=True)
            for path, data in files.items():
                target = os.path.join(folder, path)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(data if name == "folder" else data.replace(b"\x51a", b"\x51b"))
            folders.append(folder)
        size = sum(map(len, files.values()))
        for command, template in FOLDER_COMMANDS.items():
            arguments = [{"FOLDER": folders[0], "OTHER": folders[1]}.get(a, a) for a in template]
            self.measure(label, command, arguments, size * (2 if "OTHER" in template else 1))
        return len(FOLDER_COMMANDS)

    def run_pair(self, label, a, b):
        paths = []
        for name, data in (("a", a), ("b", b)):
            paths.append(os.path.join(self.workspace, name))
            with open(paths[-1], "wb") as f:
                f.write(data)
        for command in ("diff", "diff --json"):
            arguments = command.split() + paths
            self.measure(label, command, arguments, len(a) + len(b))
        return 2

    def execute(self, arguments, stdout_path=None):
        """(status or None on a timeout or -signal, seconds, peak MiB, bytes written, stderr)."""
        output = os.path.join(self.workspace, "stdout")
        errors = os.path.join(self.workspace, "stderr")
        with open(stdout_path or output, "wb") as stdout, open(errors, "wb") as stderr:
            start = time.monotonic()
            process = subprocess.Popen([self.tool] + arguments, stdout=stdout, stderr=stderr,
                                       stdin=subprocess.DEVNULL, preexec_fn=self.limits)
            status = None
            while True:
                pid, wait_status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() - start > self.time_limit:
                    process.kill()
                    _, wait_status, usage = os.wait4(process.pid, 0)
                    break
                time.sleep(0.005)
            seconds = time.monotonic() - start
            process.returncode = 0   # reaped here, not by Popen
        if seconds <= self.time_limit:
            status = -os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else os.WEXITSTATUS(wait_status)
        written = 0 if stdout_path else os.path.getsize(output)
        with open(errors, "rb") as f:
            text = f.read(1 << 20)
        return status, seconds, usage.ru_maxrss / 1024, written, text

    def limits(self):
        # The memory bound is measured, not enforced (address space is far larger than what is
        # touched); this limit only keeps a runaway from taking the machine.
        resource.setrlimit(resource.RLIMIT_AS, (16 << 30, resource.RLIM_INFINITY))
        resource.setrlimit(resource.RLIMIT_FSIZE, (4 << 30, resource.RLIM_INFINITY))

    def measure(self, label, command, arguments, input_size):
        status, seconds, mebibytes, written, stderr = self.execute(arguments)
        figures = self.figures.setdefault(command, [0, 0.0, 0.0, 0.0, ""])
        figures[0] += 1
        if seconds > figures[1]:
            figures[4] = label
        figures[1] = max(figures[1], seconds)
        figures[2] = max(figures[2], mebibytes)
        figures[3] = max(figures[3], written / max(input_size / 1024, 1))
        if status is None:
            self.fail(label, command, "still running after %.0f s" % self.time_limit)
            return
        if status < 0:
            self.fail(label, command, "killed by signal %d" % -status)
        elif status not in (0, 1, 2):
            self.fail(label, command, "exit status %d" % status)
        if mebibytes > self.memory_limit:
            self.fail(label, command, "peak memory %.0f MiB" % mebibytes)
        if written > OUTPUT_BOUND:
            self.fail(label, command, "wrote %d bytes" % written)
        if status == 2 and written and command in SINGLE_FILE:
            self.fail(label, command, "wrote %d bytes and exited with 2" % written)
        for line in stderr.decode("utf-8", "replace").splitlines():
            if not STDERR_LINE.match(line) or CONTROL.search(line):
                self.fail(label, command, "stderr line %r" % line[:200])
                break

    def fail(self, label, command, what):
        self.failures.append((label, command, what))
        print("FAIL %s: %s: %s" % (label, command, what), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "restoration-tool"))
    parser.add_argument("--seconds", type=float, default=60, help="how long to run mutations after the seeds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--memory-limit", type=float, default=1024, help="MiB")
    options = parser.parse_args()
    if not os.access(options.tool, os.X_OK):
        parser.error("no tool at %s (swift build -c release)" % options.tool)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    seeds = dict(fixture_inputs())
    seeds.update(class_inputs())
    rng = random.Random(options.seed)
    executions = 0
    with tempfile.TemporaryDirectory(prefix="hostile-") as workspace:
        runner = Runner(options.tool, workspace, options.time_limit, options.memory_limit)
        for label, data in sorted(seeds.items()):
            runner.run(label, data)
            executions += len(COMMANDS)
        saved_states = saved_state_inputs()
        for label, (data, beside) in sorted(saved_states.items()):
            runner.run(label, data, beside)
            executions += len(COMMANDS)
        for label, files in sorted(folder_inputs().items()):
            executions += runner.run_folder(label, files)
        for label, (a, b) in sorted(diff_pairs().items()):
            executions += runner.run_pair(label, a, b)
        for label, document in sorted(build_inputs().items()):
            executions += runner.run_build(label, document)
        deadline = time.monotonic() + options.seconds
        names = sorted(seeds)
        saved_names = sorted(saved_states)
        while time.monotonic() < deadline:
            if rng.random() < 0.2:
                name = rng.choice(saved_names)
                data, beside = saved_states[name]
                runner.run("mutated " + name, mutate(rng, data), beside)
            else:
                name = rng.choice(names)
                runner.run("mutated " + name, mutate(rng, seeds[name]))
            executions += len(COMMANDS)
    print("\n%d inputs' runs, %d executions, %d failures" % (executions // len(COMMANDS), executions, len(runner.failures)))
    print("%-16s %6s %10s %10s %16s  %s" % ("command", "runs", "worst s", "worst MiB", "worst B/KiB in", "slowest input"))
    for command, (runs, seconds, mebibytes, ratio, slowest) in runner.figures.items():
        print("%-16s %6d %10.2f %10.0f %16.0f  %s" % (command, runs, seconds, mebibytes, ratio, slowest))
    print("%d passed, %d failed" % (executions - len(runner.failures), len(runner.failures)))
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
