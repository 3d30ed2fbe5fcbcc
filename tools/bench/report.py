#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn `make bench` measurements into a table (stdout) and JSON (a file).

    report.py OUT.json WIRE.json KVER=GUEST.jsonl [KVER=GUEST.jsonl ...]

Each figure is the median of its runs with their spread (min-max); ratios
are of medians, compared with the targets of issue 7.
"""
import json
import statistics
import sys

TARGETS = [
    # name, numerator, denominator, target ratio (at least)
    ('helper / conntrack', 'helper-1k', 'conntrack', 0.95),
    ('strict / conntrack', 'strict', 'conntrack', 0.93),
    ('1M QPs / 1k QPs', 'helper-1M', 'helper-1k', 0.90),
]


def summarise(lines):
    runs, memory = {}, None
    for line in lines:
        rec = json.loads(line)
        if rec['variant'] == 'memory-1M':
            memory = rec
        else:
            runs.setdefault(rec['variant'], []).append(rec)
    variants = {}
    for name, recs in runs.items():
        pps = [r['pps'] for r in recs]
        variants[name] = {
            'pps_median': statistics.median(pps), 'pps_min': min(pps),
            'pps_max': max(pps), 'runs': len(pps),
            'inspected': sum(r['inspected'] for r in recs),
            'received': sum(r['received'] for r in recs),
            'cnps': sum(r['cnps'] for r in recs),
        }
    return variants, memory


def main():
    out, wire_file, guests = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(wire_file) as f:
        wire = json.load(f)
    report = {'wire': wire, 'kernels': {}}
    print('wire library on the host (%s): parse+classify %.1f ns/packet '
          '(%.1f-%.1f), ICRC %.1f ns/packet (%.1f-%.1f), mean %s bytes'
          % (wire['cpu'], wire['parse_ns']['median'], wire['parse_ns']['min'],
             wire['parse_ns']['max'], wire['icrc_ns']['median'],
             wire['icrc_ns']['min'], wire['icrc_ns']['max'],
             wire['mean_bytes']))
    for arg in guests:
        kver, path = arg.split('=', 1)
        with open(path) as f:
            variants, memory = summarise(l for l in f if l.startswith('{'))
        k = {'variants': variants, 'memory': memory, 'targets': []}
        print('\nkernel %s (guest under TCG: ratios matter, not absolutes)'
              % kver)
        print('  %-14s %10s %19s %11s %8s' %
              ('variant', 'pps', 'spread', 'inspected', 'cnps'))
        for name, v in variants.items():
            print('  %-14s %10.0f %9.0f-%-9.0f %11d %8d' %
                  (name, v['pps_median'], v['pps_min'], v['pps_max'],
                   v['inspected'], v['cnps']))
        for label, num, den, target in TARGETS:
            if num in variants and den in variants:
                ratio = variants[num]['pps_median'] / variants[den]['pps_median']
                verdict = 'PASS' if ratio >= target else 'MISS'
                k['targets'].append({'name': label, 'ratio': ratio,
                                     'target': target, 'verdict': verdict})
                print('  %-22s %.3f (target >= %.2f) %s'
                      % (label, ratio, target, verdict))
        if 'cnp' in variants and 'helper-1k' in variants:
            # Every packet made a CNP: 1/pps_cnp = t_fwd + t_cnp.
            cost = (variants['helper-1k']['pps_median'] /
                    variants['cnp']['pps_median'] - 1)
            verdict = 'PASS' if cost <= 2 else 'MISS'
            k['targets'].append({'name': 'CNP cost / forwarding cost',
                                 'ratio': cost, 'target': 2,
                                 'verdict': verdict})
            print('  %-22s %.3f (target <= 2) %s'
                  % ('CNP / forwarding cost', cost, verdict))
        if memory:
            per = memory['memfree_delta_kb'] * 1024 / memory['entries']
            slab = memory['slab_objsize']
            verdict = 'PASS' if per <= 128 else 'MISS'
            k['targets'].append({'name': 'bytes per QP entry at 1M',
                                 'ratio': per, 'target': 128,
                                 'verdict': verdict})
            print('  memory at 1M entries: %.1f bytes each in all (slab '
                  'object %d bytes + hash buckets), target <= 128 %s; '
                  '1M adds took %d s'
                  % (per, slab, verdict, memory['add_seconds']))
        report['kernels'][kver] = k
    with open(out, 'w') as f:
        json.dump(report, f, indent=2)


if __name__ == '__main__':
    main()
