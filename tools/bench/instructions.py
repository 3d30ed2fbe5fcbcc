#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per call of the wire library's operations, by callgrind.

    instructions.py WIRE_INSTR OUT.json [CALLS]

Runs `valgrind --tool=callgrind` on WIRE_INSTR once per operation, counting
only inside its op_*() function, and subtracts the baseline operation (the
same indexing and an empty call). The figures are deterministic: the same
binary gives the same counts on any x86-64 machine.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

OPS = ['baseline', 'data-parse', 'cm-parse', 'cm-step', 'cm-icrc', 'crc-64',
       'icrc-64', 'icrc-1k', 'cnp-v4', 'cnp-v6', 'learn-request',
       'psn-window']


def count(binary, op, calls, tmp):
    out = os.path.join(tmp, 'cg.' + op)
    subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out,
                    '--collect-atstart=no',
                    '--toggle-collect=op_' + op.replace('-', '_'),
                    binary, op, str(calls)],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(out) as f:
        for line in f:
            m = re.match(r'(summary|totals): (\d+)', line)
            if m:
                return int(m.group(2))
    raise RuntimeError('no totals in callgrind output for ' + op)


def main():
    binary, out = sys.argv[1], sys.argv[2]
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    with tempfile.TemporaryDirectory() as tmp:
        totals = {op: count(binary, op, calls, tmp) for op in OPS}
    base = totals.pop('baseline') / calls
    result = {'calls': calls, 'baseline': base,
              'per_call': {op: round(t / calls - base, 1)
                           for op, t in totals.items()}}
    with open(out, 'w') as f:
        json.dump(result, f, indent=2)


if __name__ == '__main__':
    main()
