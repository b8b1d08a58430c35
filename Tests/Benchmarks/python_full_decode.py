#!/usr/bin/env python3
"""The Python peer of `restoration-tool dump --json`: plistlib plus a keyed-archive walk that
resolves every UID and decodes every nested archive (object states and views), then writes JSON.
Usage: python_full_decode.py FILE...  (writes each file's JSON to standard output, a line each)."""
import base64
import datetime
import json
import plistlib
import sys

sys.setrecursionlimit(100_000)


def decode_archive(data):
    root = plistlib.loads(data)
    objects = root["$objects"]
    memo = {}

    def resolve(value):
        if isinstance(value, plistlib.UID):
            index = value.data
            if index not in memo:
                memo[index] = None          # a cycle resolves to null
                memo[index] = convert(objects[index], index == 0)
            return memo[index]
        return convert(value, False)

    def convert(value, is_null):
        if is_null:
            return None
        if isinstance(value, dict):
            if "$class" in value:
                name = objects[value["$class"].data]["$classname"]
                fields = {key: resolve(field) for key, field in value.items() if key != "$class"}
                if name in ("NSArray", "NSMutableArray", "NSSet", "NSMutableSet"):
                    return fields.get("NS.objects")
                if name in ("NSDictionary", "NSMutableDictionary"):
                    return {str(k): v for k, v in zip(fields.get("NS.keys", []), fields.get("NS.objects", []))}
                if name == "NSDate":
                    return {"$date": fields.get("NS.time")}
                return {"$class": name, **fields}
            return {key: resolve(field) for key, field in value.items()}
        if isinstance(value, list):
            return [resolve(element) for element in value]
        if isinstance(value, bytes):
            if value.startswith(b"bplist00"):
                try:
                    return {"$archive": decode_archive(value)}
                except Exception:
                    pass
            return {"$data": base64.b64encode(value).decode()}
        if isinstance(value, datetime.datetime):
            return value.isoformat()
        return value

    return {key: resolve(value) for key, value in root["$top"].items()}


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            json.dump(decode_archive(f.read()), sys.stdout)
        sys.stdout.write("\n")
