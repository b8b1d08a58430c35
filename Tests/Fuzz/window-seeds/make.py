#!/usr/bin/env python3
"""Writes the seeds of macOS window records for the decode fuzz target, beside this script.

The fuzz target reads records with the identity for a cipher (see ../CryptoStandIns.swift) and a
key for every window id up to 255, so each seed's "ciphertext" is a plaintext envelope: the
fuzzer mutates names, tags, lengths and archives directly. Deterministic; run it again after
changing Fixtures/saved_state.py.
"""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "Fixtures"))
sys.dont_write_bytecode = True
import saved_state as ss  # noqa: E402


def record(window_id, plaintext):
    return b"NSCR1000" + struct.pack(">II", window_id, 16 + len(plaintext)) + plaintext


def main():
    window = ss.window_archive("zsh", "{{0, 0}, {80, 24}}", TTWindowState=ss.terminal_state("file:///tmp/"))
    seeds = {
        "one-window.data": record(1, ss.envelope(window)),
        "history-and-tags.data": record(1, ss.envelope(window)) + record(2, ss.envelope(window, extra=[(b"kyds", b"\x01\x02")]))
                                 + record(1, ss.envelope(window, name=b"_NSApplication")),
    }
    for name, data in seeds.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
