#!/usr/bin/env python3
"""The Python peer of `restoration-tool dump --json` on a macOS data.data, doing what mac_apt's
savedstate.py does and more: read windows.plist beside the file, walk the NSCR1000 records,
decrypt each with its window's key (the `cryptography` package, AES-128-CBC, zero IV, no
padding removed), cut the envelope, then decode each window's keyed archive at every level
(python_full_decode.decode_archive) and write JSON.
Usage: python_macos_savedstate.py FOLDER/data.data"""
import json
import os
import plistlib
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_full_decode import decode_archive  # noqa: E402


def main(path):
    with open(os.path.join(os.path.dirname(path), "windows.plist"), "rb") as f:
        keys = {entry["NSWindowID"]: entry["NSDataKey"] for entry in plistlib.load(f) if "NSDataKey" in entry and "NSWindowID" in entry}
    with open(path, "rb") as f:
        data = f.read()
    windows = []
    offset = 0
    while len(data) - offset >= 16 and data[offset:offset + 8] == b"NSCR1000":
        window_id, length = struct.unpack(">II", data[offset + 8:offset + 16])
        if length <= 16 or offset + length > len(data):
            break
        ciphertext = data[offset + 16:offset + length]
        offset += length
        key = keys.get(window_id)
        if key is None or len(ciphertext) % 16:
            windows.append({"window": window_id, "status": "no key"})
            continue
        decryptor = Cipher(algorithms.AES(key), modes.CBC(b"\0" * 16)).decryptor()
        plain = decryptor.update(ciphertext) + decryptor.finalize()
        _, name_length = struct.unpack(">II", plain[:8])
        name = plain[8:8 + name_length]
        position = 8 + name_length
        if plain[position:position + 4] != b"rchv":
            windows.append({"window": window_id, "status": "wrong key"})
            continue
        (archive_length,) = struct.unpack(">I", plain[position + 4:position + 8])
        archive = plain[position + 8:position + 8 + archive_length]
        windows.append({"window": window_id, "name": name.decode(errors="replace"), "state": decode_archive(archive)})
    json.dump(windows, sys.stdout)
    sys.stdout.write("\n")


main(sys.argv[1])
