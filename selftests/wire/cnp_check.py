#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Decode the RoCEv2 CNPs in a capture, independently of rocect's C code.

Prints one JSON object per CNP (opcode 0x81) in the pcap given: addresses,
UDP ports, DSCP, ECN, TTL, BECN, P_Key, destination QP, and whether the
ICRC is right (scapy computes the IPv4 ICRC; the IPv6 one comes from
roce_pkt.icrc_ipv6, written from the spec) and the UDP checksum valid.

    cnp_check.py FILE.pcap
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import roce_pkt  # noqa: E402
from scapy.layers.inet import IP, UDP  # noqa: E402
from scapy.layers.inet6 import IPv6  # noqa: E402
from scapy.contrib.roce import BTH  # noqa: E402
from scapy.utils import checksum, rdpcap  # noqa: E402


def icrc_ok(ip):
    """Whether the ICRC stored at the end of @ip (an IP layer) is right."""
    raw = bytes(ip)
    if IP in ip:
        rebuilt = ip.copy()
        rebuilt[BTH].icrc = None
        return bytes(rebuilt)[-4:] == raw[-4:]
    return roce_pkt.icrc_ipv6(raw) == roce_pkt.stored_icrc(raw)


def udp6_csum_ok(ip6):
    """The UDP checksum of @ip6 (IPv6): pseudo-header sum is 0xffff."""
    raw = bytes(ip6[UDP])
    pseudo = bytes(ip6)[8:40] + struct.pack('>IxxxB', len(raw), 17)
    return checksum(pseudo + raw) == 0


def decode(pkt):
    ip = pkt[IP] if IP in pkt else pkt[IPv6]
    tos = ip.tos if IP in pkt else ip.tc
    bth = BTH(bytes(ip[UDP].payload))
    return {
        'family': 4 if IP in pkt else 6,
        'src': ip.src, 'dst': ip.dst,
        'sport': ip[UDP].sport, 'dport': ip[UDP].dport,
        'dscp': tos >> 2, 'ecn': tos & 3,
        'ttl': ip.ttl if IP in pkt else ip.hlim,
        'opcode': bth.opcode, 'becn': bth.becn, 'pkey': bth.pkey,
        'dqpn': bth.dqpn, 'psn': bth.psn,
        'len': len(bytes(ip)),
        'icrc_ok': icrc_ok(ip),
        'udp_csum_ok': True if IP in pkt else udp6_csum_ok(ip),
    }


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    for pkt in rdpcap(sys.argv[1]):
        if UDP not in pkt or pkt[UDP].dport != roce_pkt.ROCE_PORT:
            continue
        payload = bytes(pkt[UDP].payload)
        if payload and payload[0] == 0x81:
            print(json.dumps(decode(pkt)))


if __name__ == '__main__':
    main()
