#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn `make bench` measurements into a table (stdout) and JSON (a file).

    report.py OUT.json INSTR.json [WIRE.json] [KVER=GUEST.jsonl ...]

Figures are medians of the runs with their spread (min-max). Ratios are
paired: each run is divided by its own round's baseline (measured
seconds apart), and the median and spread of those quotients are shown,
so that the emulator's drift over minutes does not pass for a cost.
"""
import json
import os
import statistics
import sys
import time

# name, numerator, denominator, target, sense ('>=' or '<=')
RATIOS = [
    ('helper / conntrack', 'helper-1k', 'conntrack', 0.95),
    ('strict / conntrack', 'strict', 'conntrack', 0.95),
    ('learn on, unknown QPs / conntrack', 'learn-unknown', 'conntrack', 0.93),
    ('learn off, unknown QPs / conntrack', 'unknown', 'conntrack', None),
    ('learn on / learn off, unknown QPs', 'learn-unknown', 'unknown', None),
    ('helper / conntrack, 100k QPs', 'helper-100k', 'conntrack-100k', None),
    ('helper / conntrack, 1M QPs', 'helper-1M', 'conntrack-1M', None),
    # The offload stage: one pair's data on one 5-tuple.
    ('one pair: helper / conntrack', 'helper', 'conntrack', 0.95),
    ('one pair: offload / conntrack', 'offload', 'conntrack', 1.25),
    ('one pair: offload-guarded / conntrack', 'offload-guarded', 'conntrack',
     1.20),
]


def spread(values):
    return {'median': statistics.median(values), 'min': min(values),
            'max': max(values), 'runs': len(values)}


def paired(runs, num, den, f):
    """f(num_run, den_run) for every round both variants have and in which
    the baseline forwarded anything (its pps, or a handshake run's rate)."""
    dens = {r['round']: r for r in runs.get(den, [])}
    return [f(r, dens[r['round']]) for r in runs.get(num, [])
            if r['round'] in dens and
            dens[r['round']].get('pps', dens[r['round']].get('rate', 0)) > 0]


def bracketed(runs, den):
    """The baseline's runs, each with the mean pps of its round's run at the
    start and, where the round has one, its run at the end (DEN-end): the
    variants measured between them are divided by what the baseline did
    around them, not only seconds before the first."""
    ends = {r['round']: r for r in runs.get(den + '-end', [])}
    out = []
    for r in runs.get(den, []):
        e = ends.get(r['round'])
        out.append(dict(r, pps=(r['pps'] + e['pps']) / 2) if e else r)
    return out


def steady(run):
    """The run with its pps replaced by the 90th percentile of its
    quarter-second send rates: a busy host slows a wall-clock run in
    stretches, and this discounts one that covers part of a run (not one
    that covers all of it). Runs without 4 slices keep their pps."""
    slices = run.get('slice_pps') or []
    if len(slices) < 4 or not run.get('sent'):
        return run
    # The slices count packets sent; a run that lost some after the
    # sender is credited only with its share received.
    top = statistics.quantiles(slices, n=10, method='inclusive')[-1]
    return dict(run, pps=top * run['received'] / run['sent'])


def verdict(value, target, sense='>='):
    if target is None:
        return ''
    ok = value >= target if sense == '>=' else value <= target
    return '(target %s %g) %s' % (sense, target, 'PASS' if ok else 'MISS')


def ratio_line(k, label, values, target, sense='>='):
    s = spread(values)
    v = verdict(s['median'], target, sense)
    print('  %-36s %7.3f  (%.3f-%.3f) %s'
          % (label, s['median'], s['min'], s['max'], v))
    k['ratios'].append(dict(s, name=label, target=target, sense=sense,
                            verdict=v.split()[-1] if v else None))


def data_path(k, runs, wall):
    print('  %-20s %9s %19s %9s %11s %9s' %
          ('variant', 'pps', 'spread', 'steady', 'inspected', 'cnps'))
    steadied = {name: [steady(r) for r in recs]
                 for name, recs in runs.items()}
    for name, recs in runs.items():
        if 'pps' not in recs[0]:
            continue
        s = spread([r['pps'] for r in recs])
        k['variants'][name] = dict(
            s, steady_median=statistics.median(r['pps']
                                               for r in steadied[name]),
            inspected=sum(r['inspected'] for r in recs),
            received=sum(r['received'] for r in recs),
            cnps=sum(r['cnps'] for r in recs))
        print('  %-20s %9.0f %9.0f-%-9.0f %9.0f %11d %9d' %
              (name, s['median'], s['min'], s['max'],
               k['variants'][name]['steady_median'],
               k['variants'][name]['inspected'], k['variants'][name]['cnps']))
    sliced = [len(r.get('slice_pps') or []) >= 4
              for recs in runs.values() for r in recs if 'pps' in r]
    steady_rates = wall and all(sliced)
    if steady_rates:
        # On the wall clock, each run counts by its steady rate; only if
        # every run has one, so that no ratio mixes the two kinds.
        runs = steadied
    print('  paired ratios (median of per-round quotients, spread%s):'
          % ('; each run by its steady rate' if steady_rates else
             '; whole-run rates: not every run has 4 slices'
             if wall and any(sliced) else ''))
    quotients = {}
    runs = dict(runs)
    for den in ('conntrack', 'conntrack-100k', 'conntrack-1M'):
        if den + '-end' not in runs:
            continue
        ratio_line(k, '%s at round end / start' % den,
                   paired(runs, den + '-end', den,
                          lambda e, s: e['pps'] / s['pps']), None)
        runs[den] = bracketed(runs, den)
    for label, num, den, target in RATIOS:
        values = paired(runs, num, den, lambda n, d: n['pps'] / d['pps'])
        if values:
            quotients[num] = values
            ratio_line(k, label, values, target)
    if 'helper-1M' in quotients and quotients.get('helper-1k'):
        # Each table size against its own conntrack baseline, then 1M
        # against 1k. The stages run minutes apart, so their rounds do
        # not pair: every 1M quotient against every 1k one. Under icount
        # a cache miss costs one instruction: only the wall clock judges.
        values = [m / o for m in quotients['helper-1M']
                  for o in quotients['helper-1k'] if o > 0]
        if values:
            ratio_line(k, '1M QPs / 1k QPs' + ('' if wall else
                                                ', instructions'),
                       values, 0.90 if wall else None)
    # Every packet made a CNP: 1/pps_cnp = t_forward + t_cnp.
    values = paired(runs, 'helper-1k', 'cnp',
                    lambda h, c: h['pps'] / c['pps'] - 1)
    if values:
        ratio_line(k, 'CNP cost / forwarding cost', values, 2, '<=')


def offload_path(k, runs):
    """Did every offload run go through the flowtable, and did the guard
    check every packet of a guarded run and refuse none? False if not:
    the figure would be another path's."""
    ok = True
    for variant in ('offload', 'offload-guarded'):
        recs = runs.get(variant, [])
        if not recs:
            continue
        bad = [r['round'] for r in recs
               if not r.get('offloaded') or r.get('forwarded', 0) > 10]
        unguarded = [r['round'] for r in recs if variant == 'offload-guarded'
                     and (r.get('inspected', 0) < 0.99 * r['received']
                          or r.get('refused', 0))]
        k.setdefault('offload_path', {})[variant] = dict(
            runs=len(recs), not_offloaded=bad, unguarded=unguarded,
            forwarded=[r.get('forwarded') for r in recs],
            inspected=[r.get('inspected') for r in recs])
        print('  %s runs through the flowtable: %d of %d%s (forward hook '
              'saw %s packets)%s' % (
                  variant, len(recs) - len(bad), len(recs),
                  '' if not bad else ' FAIL, rounds %s' % bad,
                  '/'.join(str(r.get('forwarded')) for r in recs),
                  '' if variant == 'offload' else
                  '; the guard inspected %s of %s packets%s' % (
                      '/'.join(str(r.get('inspected')) for r in recs),
                      '/'.join(str(r['received']) for r in recs),
                      '' if not unguarded else
                      ' FAIL, rounds %s' % unguarded)))
        ok = ok and not bad and not unguarded
    return ok


def handshakes(k, runs):
    if 'cm-helper' not in runs:
        return
    for name in ('cm-conntrack', 'cm-helper'):
        recs = runs[name]
        s = spread([r['rate'] for r in recs])
        k['variants'][name] = dict(
            s, tracked=[r['tracked'] for r in recs],
            packets=recs[0]['packets'], handshakes=recs[0]['handshakes'])
    h, c = k['variants']['cm-helper'], k['variants']['cm-conntrack']
    print('  CM: %d handshakes (%d packets) per run' %
          (h['handshakes'], h['packets']))
    print('    helper tracked %s established, %.0f handshakes/s (%.0f-%.0f)'
          % ('/'.join(map(str, h['tracked'])), h['median'], h['min'], h['max']))
    print('    plain conntrack created %s flows, %.0f new flows/s (%.0f-%.0f)'
          % ('/'.join(map(str, c['tracked'])), c['median'], c['min'], c['max']))
    # Packets of tracked handshakes against new flows, per round.
    values = paired(runs, 'cm-helper', 'cm-conntrack',
                    lambda n, d: 3 * n['rate'] / d['rate'])
    ratio_line(k, 'CM packets / new-flow packets', values, 0.8)
    if 'cm-policy' in runs:
        recs = runs['cm-policy']
        s = spread([r['rate'] for r in recs])
        k['variants']['cm-policy'] = dict(
            s, tracked=[r['tracked'] for r in recs])
        print('    with a 1000-rule service policy: tracked %s, %.0f '
              'handshakes/s (%.0f-%.0f)'
              % ('/'.join(map(str, k['variants']['cm-policy']['tracked'])),
                 s['median'], s['min'], s['max']))
        helper = {r['round']: r for r in runs['cm-helper']}
        ratio_line(k, 'CM, 1000 policy rules / none',
                   [r['rate'] / helper[r['round']]['rate'] for r in recs
                    if r['round'] in helper and helper[r['round']]['rate']],
                   0.9)
    failed = runs['cm-helper'][-1]['expect_failed']
    print('    expectations failed: %d' % failed)
    # Counted by the helper, so as exact as the instruction counts: the
    # expectation table's work per handshake between the same two hosts.
    last = runs['cm-helper'][-1]
    if 'expect_created' in last:
        per = last['expect_created'] / last['handshakes']
        k['expectations_per_handshake'] = dict(
            created=last['expect_created'], kept=last['expect_kept'],
            handshakes=last['handshakes'], per_handshake=per)
        print('    expectations set up: %d for %d handshakes (%.4f each), '
              '%d kept as they were'
              % (last['expect_created'], last['handshakes'], per,
                 last['expect_kept']))


def cnp_interval(k, rec):
    limit = int(rec['seconds'] * 1e6 // rec['interval_us']) + 1
    low, high = min(rec['cnps']), max(rec['cnps'])
    ok = high <= limit and low >= 0.95 * limit
    k['cnp_interval'] = dict(rec, limit=limit,
                             verdict='PASS' if ok else 'MISS')
    print('  CNP interval %d us, sustained CE for %.2f s to %d QPs: '
          '%d-%d CNPs per QP, at most %d allowed (target: <= %d and '
          '>= 95%% of it) %s'
          % (rec['interval_us'], rec['seconds'], len(rec['cnps']), low, high,
             limit, limit, 'PASS' if ok else 'MISS'))


def memory(k, rec):
    n = rec['entries']
    slab = rec['slab_bytes'] / n
    buckets = rec['vmalloc_delta_kb'] * 1024 / n
    per = slab + buckets
    memfree = rec['memfree_delta_kb'] * 1024 / n
    v = 'PASS' if per <= 128 else 'MISS'
    k['memory'] = dict(rec, bytes_per_entry=per, memfree_bytes_per_entry=memfree,
                       target=128, verdict=v)
    print('  memory at %d entries: %.1f bytes each (slabs %.1f: %d-byte '
          'objects; hash buckets %.1f), target <= 128 %s; MemFree fell by '
          '%.1f bytes each; adding them took %d s'
          % (n, per, slab, rec['slab_objsize'], buckets, v, memfree,
             rec['add_seconds']))


def cli(k, rec):
    target = 50 * 1024
    k['cli'] = dict(rec, target_kb=target)
    for mode in ('text', 'json'):
        kb = rec[mode + '_rss_kb']
        print('  rocect %sqp show over %d entries: peak RSS %.1f MB in %d s, '
              'target < 50 MB %s' % ('-j ' if mode == 'json' else '',
                                     rec['entries'], kb / 1024,
                                     rec[mode + '_seconds'],
                                     'PASS' if 0 < kb < target else 'MISS'))


def top_refresh(k, rec):
    """One refresh of rocect top over 1M entries, 1000 busy (issue 45)."""
    share = rec['refresh_us'] / rec['full_us'] if rec['full_us'] > 0 else 1
    k['top'] = dict(rec, refresh_share=share, target_share=0.05)
    print('  rocect top over %d entries, %d busy: a refresh %.2f s, '
          'top -b -n 1 %.2f s (two refreshes), a whole qp show -j %.2f s: '
          'a refresh is %.1f%% of it, target <= 5%% %s'
          % (rec['entries'], rec['active'], rec['refresh_us'] / 1e6,
             rec['top_us'] / 1e6, rec['full_us'] / 1e6, 100 * share,
             'PASS' if share <= 0.05 else 'MISS'))


# operation, label, libconntrack-cm's figure (issue 16), target (<=)
INSTRUCTIONS = [
    ('data-parse', 'parse + classify RC SEND/WRITE', 52, 60),
    ('cm-parse', 'parse + classify CM REQ', 71, None),
    ('cm-step', 'CM REQ parse + state step', None, None),
    ('cm-icrc', 'ICRC check of a CM MAD (320 B)', None, None),
    ('crc-64', 'crc32_le over 64 bytes', 80, None),
    ('icrc-64', 'ICRC of a 64-byte packet', None, None),
    ('icrc-1k', 'ICRC of a 1 KiB packet', None, None),
    ('cnp-v4', 'build an IPv4 CNP incl. ICRC', 140, 140),
    ('cnp-v6', 'build an IPv6 CNP incl. ICRC', None, None),
    ('learn-request', 'learn on: a request, 8 QPs busy', None, None),
    ('psn-window', 'check-psn: the PSN window of a packet', None, 15),
]


def instructions(report, path):
    with open(path) as f:
        rec = json.load(f)
    rows = []
    print('instructions per call (callgrind, gcc -O2, the kernel\'s '
          'slice-by-8 crc32_le; anchor: libconntrack-cm):')
    print('  %-34s %8s %8s' % ('operation', 'rocect', 'anchor'))
    for op, label, anchor, target in INSTRUCTIONS:
        n = rec['per_call'][op]
        v = verdict(n, target, '<=')
        print('  %-34s %8.0f %8s %s' % (label, n, anchor or '-', v))
        rows.append({'op': op, 'label': label, 'instructions': n,
                     'anchor': anchor, 'target': target,
                     'verdict': v.split()[-1] if v else None})
    report['instructions'] = {'calls': rec['calls'], 'ops': rows}


def main():
    out, instr_file = sys.argv[1], sys.argv[2]
    wire_file = sys.argv[3] if len(sys.argv) > 3 and '=' not in sys.argv[3] \
        else None
    guests = [a for a in sys.argv[3:] if '=' in a]
    icount = os.environ.get('BENCH_ICOUNT', '')
    # The guests' clock: with QEMU's icount a guest second is a fixed
    # number of guest instructions, whatever else the host runs.
    clock = ('instructions: QEMU icount, %d ns each' % (1 << int(icount))
             if icount else 'wall clock')
    report = {'date': time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
              'commit': os.environ.get('BENCH_COMMIT', ''),
              'guest_clock': clock, 'kernels': {}}
    instructions(report, instr_file)
    if not wire_file:
        with open(out, 'w') as f:
            json.dump(report, f, indent=2)
        return
    with open(wire_file) as f:
        wire = json.load(f)
    report['wire'] = wire
    print('wire library on the host (%s): parse+classify %.1f ns/packet '
          '(%.1f-%.1f), ICRC %.1f ns/packet (%.1f-%.1f), mean %s bytes'
          % (wire['cpu'], wire['parse_ns']['median'], wire['parse_ns']['min'],
             wire['parse_ns']['max'], wire['icrc_ns']['median'],
             wire['icrc_ns']['min'], wire['icrc_ns']['max'],
             wire['mean_bytes']))
    ok = True
    for arg in guests:
        kver, path = arg.split('=', 1)
        runs, single = {}, {}
        with open(path) as f:
            for line in f:
                if not line.startswith('{'):
                    continue
                rec = json.loads(line)
                if 'round' in rec:
                    runs.setdefault(rec['variant'], []).append(rec)
                else:
                    single[rec['variant']] = rec
        k = {'variants': {}, 'ratios': []}
        print('\nkernel %s (guest under TCG, its clock %s: ratios matter, '
              'not absolutes)' % (kver, clock))
        data_path(k, runs, not icount)
        ok = offload_path(k, runs) and ok
        handshakes(k, runs)
        if 'cnp-interval' in single:
            cnp_interval(k, single['cnp-interval'])
        profiles = {v[len('profile-'):]: r['children_pct']
                    for v, r in single.items() if v.startswith('profile-')}
        if profiles:
            k['profile_children_pct'] = profiles
            print('  perf in the guest, share of CPU time with callees:')
            for name, pct in profiles.items():
                print('    %-10s %s' % (name, ', '.join(
                    '%s %s%%' % kv for kv in sorted(pct.items(),
                                                     key=lambda kv: -kv[1]))))
        if 'memory-1M' in single:
            memory(k, single['memory-1M'])
        if 'cli-1M' in single:
            cli(k, single['cli-1M'])
        if 'top-1M' in single:
            top_refresh(k, single['top-1M'])
        report['kernels'][kver] = k
    with open(out, 'w') as f:
        json.dump(report, f, indent=2)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
