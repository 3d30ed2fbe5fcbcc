#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Decode the CM REJs and SIDR_REPs in a capture, independently of rocect.

Prints one JSON object per REJ or SIDR_REP (a CM MAD to QP1) in the pcap
given: addresses, UDP ports, P_Key, Q_Key and source QP, the MAD's class,
method, transaction ID and attribute, the REJ's or SIDR_REP's fields as
IBTA lays them out, and whether the ICRC (scapy's for IPv4, roce_pkt's
from the spec for IPv6) and the IPv6 UDP checksum are right.

    cm_reply_check.py FILE.pcap
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import roce_pkt  # noqa: E402
from cnp_check import icrc_ok, udp6_csum_ok  # noqa: E402
from scapy.layers.inet import IP, UDP  # noqa: E402
from scapy.layers.inet6 import IPv6  # noqa: E402
from scapy.utils import rdpcap  # noqa: E402

REJ, SIDR_REP = 0x12, 0x18


def decode(pkt, payload):
    ip = pkt[IP] if IP in pkt else pkt[IPv6]
    bth, deth, mad = payload[:12], payload[12:20], payload[20:276]
    data = mad[24:]
    attr = struct.unpack('>H', mad[16:18])[0]
    out = {
        'family': 4 if IP in pkt else 6,
        'src': ip.src, 'dst': ip.dst,
        'sport': ip[UDP].sport, 'dport': ip[UDP].dport,
        'opcode': bth[0], 'pkey': struct.unpack('>H', bth[2:4])[0],
        'dqpn': struct.unpack('>I', bth[4:8])[0] & 0xffffff,
        'qkey': struct.unpack('>I', deth[:4])[0],
        'sqpn': struct.unpack('>I', deth[4:8])[0] & 0xffffff,
        'class': mad[1], 'class_version': mad[2], 'method': mad[3],
        'tid': struct.unpack('>Q', mad[8:16])[0],
        'attr': {REJ: 'rej', SIDR_REP: 'sidr_rep'}[attr],
        'len': len(bytes(ip)),
        'icrc_ok': icrc_ok(ip),
        'udp_csum_ok': True if IP in pkt else udp6_csum_ok(ip),
    }
    if attr == REJ:
        out.update(local_comm_id=struct.unpack('>I', data[:4])[0],
                   remote_comm_id=struct.unpack('>I', data[4:8])[0],
                   msg_target=data[8] >> 6,
                   reason=struct.unpack('>H', data[10:12])[0])
    else:
        out.update(request_id=struct.unpack('>I', data[:4])[0],
                   status=data[4],
                   qpn=struct.unpack('>I', data[8:12])[0] >> 8,
                   service_id=struct.unpack('>Q', data[12:20])[0])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    for pkt in rdpcap(sys.argv[1]):
        if UDP not in pkt or pkt[UDP].dport != roce_pkt.ROCE_PORT:
            continue
        payload = bytes(pkt[UDP].payload)
        if len(payload) < 276 + 4 or payload[0] != 0x64 or payload[20 + 1] != 7:
            continue
        if struct.unpack('>H', payload[20 + 16:20 + 18])[0] in (REJ, SIDR_REP):
            print(json.dumps(decode(pkt, payload)))


if __name__ == '__main__':
    main()
