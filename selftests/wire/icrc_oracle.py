#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ICRC and BTH oracle test of the rocect wire library.

Builds random RoCEv2 packets (every RC, UC, RD, UD and XRC opcode and CNPs;
0-1500 byte payloads, random pad counts; IPv4 with and without options, IPv6)
with scapy, its IPv4 ICRC and roce_pkt.icrc_ipv6(), runs them through
roce-wiredump and checks, printing TAP:

  - the parser reports what scapy built (class, BTH fields, DETH, lengths);
  - every packet verifies and the C ICRC equals the oracle's;
  - flipping one byte the ICRC covers breaks it, and the C computes the
    same ICRC for the damaged packet as the oracle;
  - rewriting what routers may change (TOS/traffic class, TTL/hop limit,
    flow label, checksums, BTH FECN/BECN byte) keeps it valid;
  - the two reference packets in the project notes verify.

Run with /usr/bin/python3 (Debian's python3-scapy). Exit status 1 if a check
failed. The same --seed gives the same packets.
"""

import argparse
import os
import random
import struct
import subprocess
import sys

sys.dont_write_bytecode = True     # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import roce_pkt as rp  # noqa: E402
from scapy.contrib.roce import BTH  # noqa: E402
from scapy.layers.inet import IP, IPOption_NOP  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get('BUILD', os.path.join(HERE, '..', '..', 'build'))

# Reference packets from the project notes, with their ICRC (wire bytes LE).
VECTORS = [
    ('UC SEND_ONLY (scapy test vector)',
     '45010040047840004011b4d5c0a80007c0a80007c00012b7002caca22460ffff'
     '000000d300cf17104630818be28935d90e9a95505401be885e50000078f353f3',
     0xf353f378),
    ('CNP (ConnectX-4 Lx capture)',
     '45c2003c718c400040119161 0a001101 0a001201 000012b700280000 '
     '8100ffff40000118 00000000 00000000000000000000000000000000 82fd002a',
     0x2a00fd82),
]

# Payload sizes worth having besides uniformly random ones.
EDGE_SIZES = [0, 1, 2, 3, 4, 5, 255, 256, 1023, 1024, 1499, 1500]

# Diagnostic lines printed per failed check.
MAX_DIAG = 5


class Case:
    """One generated packet: its bytes and what the parser should report."""

    def __init__(self, family, raw, expect):
        self.family = family
        self.raw = raw
        self.expect = expect

    @property
    def l4_off(self):
        return (self.raw[0] & 0xf) * 4 if self.family == 4 else 40


def rand_payload_len(rng):
    if rng.random() < 0.25:
        return rng.choice(EDGE_SIZES)
    return rng.randrange(1501)


def make_case(rng, family):
    """A random packet of @family and the fields the parser must report."""
    opcode = rng.choice(sorted(rp.OPCODE_HEADERS))
    cnp = opcode == rp.CNP_OPCODE
    payload_len = rp.CNP_PAYLOAD_LEN if cnp else rand_payload_len(rng)
    pad = 0 if cnp else rng.randrange(4)
    bth = {
        'dqpn': rng.randrange(2, 1 << 24), 'psn': rng.randrange(1 << 24),
        'pkey': rng.randrange(1 << 16), 'se': rng.randrange(2),
        'migreq': rng.randrange(2), 'fecn': rng.randrange(2),
        'becn': 1 if cnp else rng.randrange(2), 'ackreq': rng.randrange(2),
    }
    deth = None
    ext = bytearray(rng.randbytes(rp.ext_len(opcode)))
    off = rp.deth_offset(opcode)
    if off is not None:
        deth = (rng.randrange(1 << 32), rng.randrange(1 << 24))
        ext[off:off + 8] = struct.pack('>IBBH', deth[0], 0, deth[1] >> 16,
                                       deth[1] & 0xffff)
    ip_args = {
        'sport': rng.choice([0, 0xc000, rng.randrange(1 << 16)]),
        'tos': rng.randrange(256), 'ttl': rng.randrange(1, 256),
        'ip_id': rng.randrange(1 << 16), 'df': rng.randrange(2),
        'udp_zero_csum': family == 4 and rng.random() < 0.8,
    }
    if family == 6:
        ip_args['flow_label'] = rng.randrange(1 << 20)
    elif rng.random() < 0.1:
        ip_args['ip_options'] = [IPOption_NOP()] * (4 * rng.randrange(1, 11))
    src, dst = rp.random_addr(rng, family), rp.random_addr(rng, family)
    payload = bytes(payload_len) if cnp else rng.randbytes(payload_len)
    pkt = rp.data_packet(family, src, dst, opcode, payload=payload,
                         pad=pad, ext=bytes(ext), ip_args=ip_args, **bth)
    raw = bytes(pkt)
    expect = {
        'class': rp.transport(opcode), 'malformed': 'none',
        'family': str(family), 'src': src, 'dst': dst,
        'len': str(len(raw)), 'sport': str(ip_args['sport']),
        'dport': str(rp.ROCE_PORT),
        'tos': '0x%02x' % ip_args['tos'], 'ttl': str(ip_args['ttl']),
        'opcode': '0x%02x' % opcode, 'padcnt': str(pad),
        'payload_len': str(payload_len), 'pkey': '0x%04x' % bth['pkey'],
        'dqpn': '0x%06x' % bth['dqpn'], 'psn': '0x%06x' % bth['psn'],
        'se': str(bth['se']), 'migreq': str(bth['migreq']),
        'fecn': str(bth['fecn']), 'becn': str(bth['becn']),
        'ackreq': str(bth['ackreq']), 'tver': '0',
        'icrc': '0x%08x' % rp.stored_icrc(raw),
    }
    if family == 6:
        expect['flow'] = '0x%05x' % ip_args['flow_label']
    if deth:
        expect['deth_qkey'] = '0x%08x' % deth[0]
        expect['deth_sqpn'] = '0x%06x' % deth[1]
    return Case(family, raw, expect)


def oracle_icrc(raw):
    """The oracle's ICRC of @raw: scapy's for IPv4, icrc_ipv6() for IPv6.

    None if scapy cannot dissect and rebuild the IPv4 packet byte for byte
    (a damaged IP option can do that).
    """
    if raw[0] >> 4 == 6:
        return rp.icrc_ipv6(raw)
    pkt = IP(raw)
    if BTH not in pkt:      # a flipped UDP port hides the BTH from scapy
        udp_payload = pkt.payload.payload
        pkt.payload.remove_payload()
        pkt.payload.add_payload(BTH(bytes(udp_payload)))
    pkt[BTH].icrc = None
    rebuilt = bytes(pkt)
    if rebuilt[:-4] != raw[:-4]:
        return None
    return rp.stored_icrc(rebuilt)


def flip_positions(case):
    """Offsets of ICRC-covered bytes whose change keeps the packet well
    formed (not lengths, versions, protocol, opcode, pad count)."""
    raw, l4 = case.raw, case.l4_off
    if case.family == 4:
        pos = [4, 5] + list(range(12, l4))      # ID, addresses, options
    else:
        pos = list(range(8, 40))                # addresses
    pos += [l4, l4 + 1, l4 + 2, l4 + 3]         # UDP ports
    bth = l4 + 8
    pos += [bth + 2, bth + 3] + list(range(bth + 5, bth + 12))
    pos += range(bth + 12, len(raw))            # ext, payload, pad, ICRC
    return pos


def flip(rng, case):
    """@case with one covered byte changed; the new packet's expectations."""
    bth = case.l4_off + 8
    while True:
        raw = bytearray(case.raw)
        # Half the flips go to the headers, which are only a few bytes.
        pos = flip_positions(case)
        if rng.random() < 0.5:
            pos = [p for p in pos if p < bth + 12]
        off = rng.choice(pos)
        raw[off] ^= rng.randrange(1, 256)
        # A UD packet to QP1 would have to be a MAD: keep it a data packet.
        dqpn = int.from_bytes(raw[bth + 5:bth + 8], 'big')
        if not (case.expect['class'] == 'ud' and dqpn == rp.GSI_QPN):
            break
    raw = bytes(raw)
    expect = {'class': case.expect['class'], 'icrc_ok': '0'}
    icrc = oracle_icrc(raw)
    if icrc is not None:
        expect['icrc_calc'] = '0x%08x' % icrc
    return raw, expect, off


def ip_csum(hdr):
    s = sum(struct.unpack('>%dH' % (len(hdr) // 2), hdr))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def reroute(rng, case):
    """@case as a router may leave it: new TOS/TTL (and flow label), new
    checksums, new BTH byte 4. Returns the bytes and what to expect."""
    raw = bytearray(case.raw)
    l4, bth = case.l4_off, case.l4_off + 8
    tos, ttl = rng.randrange(256), rng.randrange(256)
    expect = {'class': case.expect['class'], 'icrc_ok': '1',
              'icrc': case.expect['icrc'], 'tos': '0x%02x' % tos,
              'ttl': str(ttl)}
    if case.family == 4:
        raw[1], raw[8] = tos, ttl
        raw[10:12] = b'\0\0'
        raw[10:12] = struct.pack('>H', ip_csum(bytes(raw[:l4])))
    else:
        flow = rng.randrange(1 << 20)
        raw[0:4] = struct.pack('>I', 6 << 28 | tos << 20 | flow)
        raw[7] = ttl
        expect['flow'] = '0x%05x' % flow
    raw[l4 + 6:l4 + 8] = rng.randbytes(2)
    raw[bth + 4] = rng.randrange(256)
    expect['fecn'] = str(raw[bth + 4] >> 7)
    expect['becn'] = str(raw[bth + 4] >> 6 & 1)
    return bytes(raw), expect


def wiredump(path, packets):
    """roce-wiredump -c's fields for each of @packets (bytes)."""
    text = ''.join(p.hex() + '\n' for p in packets)
    res = subprocess.run([path, '-c'], input=text, capture_output=True,
                         text=True, check=False)
    if res.returncode != 0:
        raise RuntimeError('%s failed (%d): %s'
                           % (path, res.returncode, res.stderr.strip()))
    lines = res.stdout.splitlines()
    if len(lines) != len(packets):
        raise RuntimeError('%s printed %d lines for %d packets'
                           % (path, len(lines), len(packets)))
    return [dict(f.split('=', 1) for f in line.split()) for line in lines]


class Tap:
    """TAP output with aggregated checks and a few diagnostics each."""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, desc, results):
        """@results: (packet bytes, expected dict, got dict, note) tuples."""
        bad = [r for r in results
               if any(r[2].get(k) != v for k, v in r[1].items())]
        self.n += 1
        if bad:
            self.failed += 1
        print('%s %d - %s (%d/%d passed)'
              % ('not ok' if bad else 'ok', self.n, desc,
                 len(results) - len(bad), len(results)))
        for raw, want, got, note in bad[:MAX_DIAG]:
            diff = ', '.join('%s=%s (want %s)' % (k, got.get(k), v)
                             for k, v in want.items() if got.get(k) != v)
            print('#   %s%s\n#     %s' % (note + ': ' if note else '', diff,
                                         raw.hex()))
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=4791)
    ap.add_argument('--count4', type=int, default=1000,
                    help='random IPv4 packets (default 1000)')
    ap.add_argument('--count6', type=int, default=250,
                    help='random IPv6 packets (default 250)')
    ap.add_argument('--wiredump',
                    default=os.path.join(BUILD, 'bin', 'roce-wiredump'))
    args = ap.parse_args()

    rng = random.Random(args.seed)
    cases = [make_case(rng, 4) for _ in range(args.count4)]
    cases += [make_case(rng, 6) for _ in range(args.count6)]
    flipped = [flip(rng, c) for c in cases]
    rerouted = [reroute(rng, c) for c in cases]
    vectors = [bytes.fromhex(v[1].replace(' ', '')) for v in VECTORS]
    # The selftests' fast path (roce_pkt.with_psn): another PSN, an ICRC
    # that the C code must verify.
    patchable = [c for c in cases if c.family == 4 and
                 c.raw[(c.raw[0] & 0x0f) * 4 + 6:][:2] == b'\0\0']
    repsn = [(rp.with_psn(c.raw, p), p) for c, p in
             zip(patchable, [rng.randrange(1 << 24) for _ in patchable])]
    for raw, vec in zip(vectors, VECTORS):
        if oracle_icrc(raw) != vec[2]:
            print('Bail out! the oracle does not reproduce ' + vec[0])
            return 1

    packets = ([c.raw for c in cases] + [f[0] for f in flipped] +
               [r[0] for r in rerouted] + vectors + [r[0] for r in repsn])
    print('1..10')
    print('# seed %d, %d IPv4 + %d IPv6 packets, %s'
          % (args.seed, args.count4, args.count6, args.wiredump))
    print('# ICRC of %d of the %d flipped packets recomputed by the oracle'
          % (sum('icrc_calc' in f[1] for f in flipped), len(flipped)))
    try:
        out = iter(wiredump(args.wiredump, packets))
    except (OSError, RuntimeError) as err:
        print('Bail out! %s' % err)
        return 1
    got = [next(out) for _ in cases]
    got_flip = [next(out) for _ in cases]
    got_reroute = [next(out) for _ in cases]
    got_vec = [next(out) for _ in vectors]
    got_repsn = [next(out) for _ in repsn]

    tap = Tap()
    for fam in (4, 6):
        idx = [i for i, c in enumerate(cases) if c.family == fam]
        ops = len({cases[i].expect['opcode'] for i in idx})
        tap.check('IPv%d: parser agrees with scapy on class, BTH, DETH and '
                  'lengths of %d packets, %d opcodes' % (fam, len(idx), ops),
                  [(cases[i].raw, cases[i].expect, got[i], '') for i in idx])
        oracle = "scapy's" if fam == 4 else 'Python (annex A17)'
        tap.check('IPv%d: ICRC verifies and C ICRC equals %s' % (fam, oracle),
                  [(cases[i].raw,
                    {'icrc_ok': '1', 'icrc_calc': cases[i].expect['icrc']},
                    got[i], '') for i in idx])
        tap.check('IPv%d: one covered byte flipped: ICRC fails, C ICRC of '
                  'the damaged packet equals the oracle\'s' % fam,
                  [(flipped[i][0], flipped[i][1], got_flip[i],
                    'byte %d flipped' % flipped[i][2]) for i in idx])
        what = ('TOS, TTL, IP and UDP checksums' if fam == 4 else
                'traffic class, flow label, hop limit, UDP checksum')
        tap.check('IPv%d: %s and BTH FECN/BECN rewritten: ICRC still '
                  'verifies' % (fam, what),
                  [(rerouted[i][0], rerouted[i][1], got_reroute[i], '')
                   for i in idx])
    tap.check('reference packets from the notes verify with their ICRC',
              [(raw, {'malformed': 'none', 'icrc_ok': '1',
                      'icrc': '0x%08x' % v[2], 'icrc_calc': '0x%08x' % v[2]},
                g, v[0]) for raw, v, g in zip(vectors, VECTORS, got_vec)])
    tap.check('IPv4: %d packets with another PSN by roce_pkt.with_psn(): '
              'the PSN read back, the ICRC verifies' % len(repsn),
              [(raw, {'icrc_ok': '1', 'psn': '0x%06x' % psn}, g, '')
               for (raw, psn), g in zip(repsn, got_repsn)])
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
