#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""CM oracle test: the rocect wire library against Wireshark's dissector.

Builds CM MADs of every attribute (REQ, MRA, REJ, REP, RTU, DREQ, DREP,
SIDR_REQ, SIDR_REP, LAP, APR) over IPv4 and IPv6 with roce_pkt, every CM
field set to a distinctive random value, writes them to a pcap, and compares
packet by packet what tshark dissects with what roce-wiredump prints. One
TAP line per message kind and family.

tshark 4.0 dissects REQ, REP, RTU, REJ, DREQ and DREP field by field. For
MRA, SIDR_REQ, SIDR_REP, LAP and APR it only dissects the MAD header; their
CM fields are then read at the IBTA offsets from the MAD data bytes tshark
delimits. In every case the BTH, DETH, MAD header, addresses, ports and the
stored ICRC come from tshark, and the ICRC must verify.

Run with /usr/bin/python3 (Debian's python3-scapy). Exit status 1 on a
mismatch; TAP "skip" if tshark is missing.
"""

import argparse
import ipaddress
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True     # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import roce_pkt as rp  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.utils import wrpcap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get('BUILD', os.path.join(HERE, '..', '..', 'build'))

KINDS = ['req', 'rep', 'rtu', 'rej', 'dreq', 'drep', 'mra', 'sidr_req',
         'sidr_rep', 'lap', 'apr']

# (wiredump key, tshark field, how to compare) for every CM packet.
# 'num': integers in any base; 'addr': IP addresses; 'icrc': tshark shows
# the ICRC wire bytes big-endian, wiredump little-endian.
COMMON = [
    ('sport', 'udp.srcport', 'num'), ('dport', 'udp.dstport', 'num'),
    ('opcode', 'infiniband.bth.opcode', 'num'),
    ('se', 'infiniband.bth.se', 'num'), ('migreq', 'infiniband.bth.m', 'num'),
    ('padcnt', 'infiniband.bth.padcnt', 'num'),
    ('tver', 'infiniband.bth.tver', 'num'),
    ('pkey', 'infiniband.bth.p_key', 'num'),
    ('dqpn', 'infiniband.bth.destqp', 'num'),
    ('ackreq', 'infiniband.bth.a', 'num'),
    ('psn', 'infiniband.bth.psn', 'num'),
    ('deth_qkey', 'infiniband.deth.q_key', 'num'),
    ('deth_sqpn', 'infiniband.deth.srcqp', 'num'),
    ('method', 'infiniband.mad.method', 'num'),
    ('status', 'infiniband.mad.status', 'num'),
    ('tid', 'infiniband.mad.transactionid', 'num'),
    ('cm_attr', 'infiniband.mad.attributeid', 'num'),
    ('icrc', 'infiniband.invariant.crc', 'icrc'),
]
ADDRS = {
    4: [('src', 'ip.src', 'addr'), ('dst', 'ip.dst', 'addr')],
    6: [('src', 'ipv6.src', 'addr'), ('dst', 'ipv6.dst', 'addr')],
}
_REQ_CMA = {
    4: [('cma_src', 'infiniband.cm.req.ip_cm.sip4', 'addr'),
        ('cma_dst', 'infiniband.cm.req.ip_cm.dip4', 'addr')],
    6: [('cma_src', 'infiniband.cm.req.ip_cm.sip6', 'addr'),
        ('cma_dst', 'infiniband.cm.req.ip_cm.dip6', 'addr')],
}
_REQ_GIDS = {
    4: [('local_gid', 'infiniband.cm.req.prim_localgid_ipv4', 'addr'),
        ('remote_gid', 'infiniband.cm.req.prim_remotegid_ipv4', 'addr')],
    6: [('local_gid', 'infiniband.cm.req.prim_localgid', 'addr'),
        ('remote_gid', 'infiniband.cm.req.prim_remotegid', 'addr')],
}

# CM fields of the attributes tshark dissects.
DISSECTED = {
    'req': [
        ('local_comm_id', 'infiniband.cm.req', 'num'),
        ('service_id', 'infiniband.cm.req.serviceid', 'num'),
        ('qkey', 'infiniband.cm.req.localqkey', 'num'),
        ('qpn', 'infiniband.cm.req.localqpn', 'num'),
        ('starting_psn', 'infiniband.cm.req.startpsn', 'num'),
        ('pkey_cm', 'infiniband.cm.req.pkey', 'num'),
        ('transport', 'infiniband.cm.req.transpsvctype', 'num'),
        ('cma_ipver', 'infiniband.cm.req.ip_cm.ipv', 'num'),
        ('cma_sport', 'infiniband.cm.req.ip_cm.sport', 'num'),
    ],
    'rep': [
        ('local_comm_id', 'infiniband.cm.rep', 'num'),
        ('remote_comm_id', 'infiniband.cm.rep.remotecommid', 'num'),
        ('qkey', 'infiniband.cm.rep.localqkey', 'num'),
        ('qpn', 'infiniband.cm.rep.localqpn', 'num'),
        ('starting_psn', 'infiniband.cm.rep.startpsn', 'num'),
    ],
    'rtu': [
        ('local_comm_id', 'infiniband.cm.rtu.localcommid', 'num'),
        ('remote_comm_id', 'infiniband.cm.rtu.remotecommid', 'num'),
    ],
    'rej': [
        ('local_comm_id', 'infiniband.cm.rej.localcommid', 'num'),
        ('remote_comm_id', 'infiniband.cm.rej.remotecommid', 'num'),
        ('msg_target', 'infiniband.cm.rej.msgrej', 'num'),
        ('reject_reason', 'infiniband.cm.rej.reason', 'num'),
    ],
    'dreq': [
        ('local_comm_id', 'infiniband.cm.dreq.localcommid', 'num'),
        ('remote_comm_id', 'infiniband.cm.dreq.remotecommid', 'num'),
        # tshark 4.0 files DREQ's remote QPN under "req".
        ('qpn', 'infiniband.cm.req.remoteqpneecn', 'num'),
    ],
    'drep': [
        ('local_comm_id', 'infiniband.cm.drsp.localcommid', 'num'),
        ('remote_comm_id', 'infiniband.cm.drsp.remotecommid', 'num'),
    ],
}

# CM fields of the others: wiredump key -> roce_pkt.CM_FIELDS name, read
# from tshark's MAD data. SIDR_REQ's RDMA CM header is decoded separately.
UNDISSECTED = {
    'mra': {'local_comm_id': 'local_comm_id',
            'remote_comm_id': 'remote_comm_id', 'msg_target': 'msg_target'},
    'sidr_req': {'local_comm_id': 'local_comm_id', 'pkey_cm': 'pkey',
                 'service_id': 'service_id'},
    'sidr_rep': {'local_comm_id': 'local_comm_id',
                 'sidr_status': 'sidr_status', 'qpn': 'qpn',
                 'service_id': 'service_id', 'qkey': 'qkey'},
    'lap': {'local_comm_id': 'local_comm_id',
            'remote_comm_id': 'remote_comm_id', 'qpn': 'qpn'},
    'apr': {'local_comm_id': 'local_comm_id',
            'remote_comm_id': 'remote_comm_id', 'ap_status': 'ap_status'},
}

MAD_DATA = 'infiniband.mad.data'


def tshark_fields():
    """Every tshark field this test reads."""
    names = {f for _, f, _ in COMMON}
    for table in (ADDRS, _REQ_CMA, _REQ_GIDS):
        names |= {f for rows in table.values() for _, f, _ in rows}
    names |= {f for rows in DISSECTED.values() for _, f, _ in rows}
    return sorted(names | {MAD_DATA})


def random_fields(rng, kind, family, ip_service):
    """Random values for every CM field of @kind, and cm_packet() extras.

    A service ID is an RDMA CM (IP) one if @ip_service, else random.
    """
    fields = {name: rng.getrandbits(bits)
              for name, (_, bits, _) in rp.CM_FIELDS[kind].items()}
    for name in ('local_gid', 'remote_gid', 'alt_local_gid',
                 'alt_remote_gid'):
        if name in fields:
            fields[name] = rp.random_addr(rng, family)
    if 'service_id' in fields and ip_service:
        fields['service_id'] = rp.rdma_cm_service_id(
            rng.randrange(1 << 16), rng.choice([rp.PS_TCP, rp.PS_UDP]))
    fields.update(
        sport=rng.randrange(0xc000, 1 << 16), tid=rng.getrandbits(64),
        method=rng.choice([0x03, 0x01, 0x81]), status=rng.getrandbits(16),
        bth_pkey=rng.getrandbits(16), bth_psn=rng.getrandbits(24),
        cma_src=rp.random_addr(rng, family),
        cma_dst=rp.random_addr(rng, family), cma_sport=rng.getrandbits(16))
    room = rp.CM_DATA_LEN - rp.CM_PRIVATE_DATA[kind]
    if kind not in ('req', 'sidr_req'):
        fields['private_data'] = rng.randbytes(room)
    elif fields['service_id'] >> 24 != 1:
        # A well-formed RDMA CM header that must be ignored: not an IP
        # service ID.
        hdr = rp.cma_header(fields['cma_src'], fields['cma_dst'],
                            fields['cma_sport'])
        fields['private_data'] = hdr + rng.randbytes(room - len(hdr))
    return fields


def cm_value(data, kind, name):
    """CM field @name of @kind from the 232 bytes of CM data @data."""
    off, bits, shift = rp.CM_FIELDS[kind][name]
    span = (shift + bits + 7) // 8
    word = int.from_bytes(data[off:off + span], 'big')
    return word >> (span * 8 - shift - bits) & ((1 << bits) - 1)


def cma_values(data, off):
    """wiredump's cma_* keys, decoded from an RDMA CM header at @off."""
    hdr = data[off:off + 36]
    ipver = hdr[1] >> 4
    if hdr[0] != 0 or ipver not in (4, 6):
        return {'cma_valid': 0}
    start = 12 if ipver == 4 else 0
    return {'cma_valid': 1, 'cma_ipver': ipver,
            'cma_sport': int.from_bytes(hdr[2:4], 'big'),
            'cma_src': ipaddress.ip_address(hdr[4 + start:20]),
            'cma_dst': ipaddress.ip_address(hdr[20 + start:36])}


def num(text):
    return int(text, 16) if text.lower().startswith('0x') else int(text)


def norm(how, text):
    """A tshark or wiredump value in comparable form (None if absent)."""
    if text is None or text == '':
        return None
    if how == 'addr':
        addr = ipaddress.ip_address(text)
        if addr.version == 6 and addr.ipv4_mapped:
            addr = addr.ipv4_mapped
        return addr
    return num(text)


def compare(kind, family, ts, wd):
    """Compare tshark's fields @ts with wiredump's @wd for one packet.

    Returns the mismatches and the number of values compared.
    """
    rows = COMMON + ADDRS[family]
    want = {}
    if kind in DISSECTED:
        rows = rows + DISSECTED[kind]
        if kind == 'req':
            rows = rows + _REQ_GIDS[family] + _REQ_CMA[family]
            # RDMA CM header present for tshark iff valid for wiredump.
            want['cma_valid'] = int(bool(ts.get(
                'infiniband.cm.req.ip_cm.ipv')))
    else:
        data = bytes.fromhex(ts.get(MAD_DATA, ''))
        if len(data) != rp.CM_DATA_LEN:
            return ['tshark MAD data is %d bytes' % len(data)], 0
        for key, name in UNDISSECTED[kind].items():
            want[key] = cm_value(data, kind, name)
        if kind == 'sidr_req':
            want.update(cma_values(data, rp.CM_PRIVATE_DATA['sidr_req'])
                        if want['service_id'] >> 24 == 1
                        else {'cma_valid': 0})
    for key, field, how in rows:
        val = norm(how, ts.get(field))
        if how == 'icrc' and val is not None:
            val = int.from_bytes(val.to_bytes(4, 'big'), 'little')
        want[key] = val
    bad = []
    for key, val in want.items():
        if val is None:
            got = wd.get(key)
        else:
            got = norm('num' if isinstance(val, int) else 'addr', wd.get(key))
        if got != val:
            bad.append('%s: wiredump %s, tshark %s'
                       % (key, wd.get(key),
                          hex(val) if isinstance(val, int) else val))
    return bad, sum(v is not None for v in want.values())


def run_tshark(pcap, fields):
    """tshark's values of @fields for each packet of @pcap, as dicts."""
    cmd = ['tshark', '-n', '-r', pcap, '-d', 'udp.port==%d,infiniband'
           % rp.ROCE_PORT, '-T', 'fields', '-E', 'occurrence=f']
    for f in fields:
        cmd += ['-e', f]
    with tempfile.TemporaryDirectory() as conf:
        env = dict(os.environ, WIRESHARK_CONFIG_DIR=conf)
        res = subprocess.run(cmd, capture_output=True, text=True, env=env,
                             check=False)
    if res.returncode != 0:
        raise RuntimeError('tshark failed (%d): %s'
                           % (res.returncode, res.stderr.strip()))
    return [dict(zip(fields, line.split('\t')))
            for line in res.stdout.splitlines()]


def run_wiredump(path, packets):
    text = ''.join(bytes(p).hex() + '\n' for p in packets)
    res = subprocess.run([path], input=text, capture_output=True, text=True,
                         check=False)
    if res.returncode != 0:
        raise RuntimeError('%s failed (%d): %s'
                           % (path, res.returncode, res.stderr.strip()))
    return [dict(f.split('=', 1) for f in line.split())
            for line in res.stdout.splitlines()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=4791)
    ap.add_argument('--count', type=int, default=4,
                    help='packets per message kind and family (default 4)')
    ap.add_argument('--wiredump',
                    default=os.path.join(BUILD, 'bin', 'roce-wiredump'))
    ap.add_argument('--keep-pcap', metavar='FILE',
                    help='also write the packets to FILE')
    args = ap.parse_args()

    if not shutil.which('tshark'):
        print('1..0 # SKIP tshark is not installed')
        return 0

    rng = random.Random(args.seed)
    groups, packets = [], []
    for family in (4, 6):
        for kind in KINDS:
            first = len(packets)
            for i in range(args.count):
                src = rp.random_addr(rng, family)
                dst = rp.random_addr(rng, family)
                # The first of each kind has a service ID that is not IP.
                fields = random_fields(rng, kind, family, i > 0)
                packets.append(rp.cm_packet(family, src, dst, kind,
                                            **fields))
            groups.append((family, kind, first))

    frames = [Ether(src='02:00:00:00:00:01', dst='02:00:00:00:00:02') / p
              for p in packets]
    with tempfile.TemporaryDirectory() as tmp:
        pcap = args.keep_pcap or os.path.join(tmp, 'cm.pcap')
        wrpcap(pcap, frames)
        try:
            ts = run_tshark(pcap, tshark_fields())
        except (OSError, RuntimeError) as err:
            print('Bail out! %s' % err)
            return 1
    try:
        wd = run_wiredump(args.wiredump, packets)
    except (OSError, RuntimeError) as err:
        print('Bail out! %s' % err)
        return 1
    if len(ts) != len(packets) or len(wd) != len(packets):
        print('Bail out! %d packets, tshark printed %d lines, wiredump %d'
              % (len(packets), len(ts), len(wd)))
        return 1

    print('1..%d' % len(groups))
    print('# seed %d, %d packets, %s' % (args.seed, len(packets),
                                         args.wiredump))
    failed = 0
    for n, (family, kind, first) in enumerate(groups, 1):
        problems, checked = [], 0
        for i in range(first, first + args.count):
            bad, compared = compare(kind, family, ts[i], wd[i])
            checked += compared
            for key, val in (('class', 'cm'), ('malformed', 'none'),
                             ('cm_kind', kind.replace('_', '-')),
                             ('icrc_ok', '1')):
                if wd[i].get(key) != val:
                    bad.append('%s: wiredump %s, want %s'
                               % (key, wd[i].get(key), val))
            problems += ['packet %d: %s' % (i + 1, b) for b in bad]
        how = ('' if kind in DISSECTED else
               ', CM fields from tshark\'s MAD bytes')
        desc = ('IPv%d %s: %d packets, %d values compared with tshark%s'
                % (family, kind.upper(), args.count, checked, how))
        if problems:
            desc += ' (%d mismatches)' % len(problems)
        print('%s %d - %s' % ('not ok' if problems else 'ok', n, desc))
        for p in problems[:8]:
            print('#   ' + p)
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
