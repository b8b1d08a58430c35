"""Instruction counts of whole commands, with valgrind's callgrind.

A count is what the program executed, in every thread, from start to exit: the same for the same
binary, input and environment however busy the machine is, so it settles what wall-time ratios
on a loaded two-core machine cannot. Each distinct command is counted once per run of the
benchmark (its output discarded).
"""
import os
import subprocess
import tempfile

_counts = {}


def instruction_count(command):
    """Total instructions (callgrind's `Ir`) of one run of `command`. A program given by its path
    is counted as a stripped copy, as `make install` installs it: valgrind 3.19 cannot read the
    DWARF 5 a Swift release build carries (and the code run is the same)."""
    key = tuple(command)
    if key not in _counts:
        with tempfile.TemporaryDirectory() as folder:
            program = command[0]
            if os.sep in program:
                program = os.path.join(folder, os.path.basename(program))
                subprocess.run(["strip", "-o", program, command[0]], check=True)
            out = os.path.join(folder, "callgrind.out")
            result = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, program] + list(command[1:]),
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
            _counts[key] = _total(out, result.stderr.decode(errors="replace"))
    return _counts[key]


def _total(path, stderr):
    """The `totals:` (or `summary:`) line of a callgrind output file."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(("totals:", "summary:")):
                    return int(line.split()[1])
    except OSError:
        pass
    raise SystemExit("callgrind gave no count:\n" + stderr[-2000:])
