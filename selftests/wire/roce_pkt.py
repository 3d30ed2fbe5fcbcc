#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Build RoCEv2 packets from the specification, independently of rocect's C.

Packet layouts come from IBTA vol. 1 (BTH and extension headers in chapter 9,
CM MADs in chapter 12, annex A17 for RoCEv2) as summarised in the project's
roce-wire notes; scapy (Debian python3-scapy, run with /usr/bin/python3)
provides IP, UDP, BTH and the IPv4 ICRC. scapy 2.5 cannot compute the ICRC
over IPv6, so icrc_ipv6() does, from the annex A17 rules.

Every builder returns a scapy packet from the IP layer up; bytes(packet) is
what the C parser takes.

Command line:
  roce_pkt.py hex <kind> --src A --dst B [--family 4|6] [key=value ...]
      print one packet in hex; <kind> is a CM attribute (req, rep, ...),
      "data" or "cnp"; key=value sets builder arguments (integers in any
      Python base, addresses as text, private_data, ext and payload in
      hex; ip.<name>=value sets roce_packet() arguments such as ip.ttl).
  roce_pkt.py cm-exchange --src A --dst B --send req,rtu|rep [--iface IF]
      send this host's part of a REQ (A->B), REP (B->A), RTU (A->B) exchange
      at layer 3; run it inside the sending network namespace. Both sides
      must be given the same --src/--dst and exchange options.
"""

import argparse
import ipaddress
import struct
import sys
import zlib

from scapy.contrib.roce import BTH
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

ROCE_PORT = 4791
GSI_QPN = 1
GSI_QKEY = 0x80010000
UD_SEND_ONLY = 0x64
CNP_OPCODE = 0x81
CNP_PAYLOAD_LEN = 16
MAD_LEN = 256
MAD_HDR_LEN = 24
CM_DATA_LEN = MAD_LEN - MAD_HDR_LEN
CM_MGMT_CLASS = 0x07
CM_CLASS_VERSION = 2
MAD_METHOD_SEND = 0x03

# RDMA CM port spaces (high byte of the low 24 bits of the service ID).
PS_TCP = 0x06
PS_UDP = 0x11
PS_IB = 0x3f

CM_ATTRS = {
    'req': 0x10, 'mra': 0x11, 'rej': 0x12, 'rep': 0x13, 'rtu': 0x14,
    'dreq': 0x15, 'drep': 0x16, 'sidr_req': 0x17, 'sidr_rep': 0x18,
    'lap': 0x19, 'apr': 0x1a,
}


def _f(offset, bits, shift=0):
    """A CM field: byte offset in the CM data, width, first bit (MSB = 0)."""
    return (offset, bits, shift)


_COMM_IDS = {'local_comm_id': _f(0, 32), 'remote_comm_id': _f(4, 32)}

# IBTA vol. 1 section 12.6: offsets from the start of the CM data (MAD + 24).
CM_FIELDS = {
    'req': {
        'local_comm_id': _f(0, 32), 'service_id': _f(8, 64),
        'local_ca_guid': _f(16, 64), 'qkey': _f(28, 32), 'qpn': _f(32, 24),
        'responder_resources': _f(35, 8), 'local_eecn': _f(36, 24),
        'initiator_depth': _f(39, 8), 'remote_eecn': _f(40, 24),
        'remote_cm_response_timeout': _f(43, 5), 'transport': _f(43, 2, 5),
        'e2e_flow_control': _f(43, 1, 7), 'starting_psn': _f(44, 24),
        'local_cm_response_timeout': _f(47, 5), 'retry_count': _f(47, 3, 5),
        'pkey': _f(48, 16), 'path_mtu': _f(50, 4), 'rdc_exists': _f(50, 1, 4),
        'rnr_retry_count': _f(50, 3, 5), 'max_cm_retries': _f(51, 4),
        'srq': _f(51, 1, 4), 'local_lid': _f(52, 16),
        'remote_lid': _f(54, 16), 'local_gid': _f(56, 128),
        'remote_gid': _f(72, 128), 'flow_label': _f(88, 20),
        'packet_rate': _f(91, 6, 2), 'traffic_class': _f(92, 8),
        'hop_limit': _f(93, 8), 'sl': _f(94, 4), 'subnet_local': _f(94, 1, 4),
        'local_ack_timeout': _f(95, 5),
    },
    'rep': dict(_COMM_IDS, **{
        'qkey': _f(8, 32), 'qpn': _f(12, 24), 'local_eecn': _f(16, 24),
        'starting_psn': _f(20, 24), 'responder_resources': _f(24, 8),
        'initiator_depth': _f(25, 8), 'target_ack_delay': _f(26, 5),
        'failover_accepted': _f(26, 2, 5), 'e2e_flow_control': _f(26, 1, 7),
        'rnr_retry_count': _f(27, 3), 'srq': _f(27, 1, 3),
        'local_ca_guid': _f(28, 64),
    }),
    'rtu': dict(_COMM_IDS),
    'rej': dict(_COMM_IDS, **{
        'msg_target': _f(8, 2), 'reject_info_len': _f(9, 7),
        'reject_reason': _f(10, 16),
    }),
    'mra': dict(_COMM_IDS, **{
        'msg_target': _f(8, 2), 'service_timeout': _f(9, 5),
    }),
    'dreq': dict(_COMM_IDS, qpn=_f(8, 24)),
    'drep': dict(_COMM_IDS),
    'sidr_req': {
        'local_comm_id': _f(0, 32), 'pkey': _f(4, 16),
        'service_id': _f(8, 64),
    },
    'sidr_rep': {
        'local_comm_id': _f(0, 32), 'sidr_status': _f(4, 8),
        'add_info_len': _f(5, 8), 'qpn': _f(8, 24), 'service_id': _f(12, 64),
        'qkey': _f(20, 32),
    },
    'lap': dict(_COMM_IDS, **{
        'qpn': _f(12, 24), 'remote_cm_response_timeout': _f(15, 5),
        'alt_local_lid': _f(20, 16), 'alt_remote_lid': _f(22, 16),
        'alt_local_gid': _f(24, 128), 'alt_remote_gid': _f(40, 128),
    }),
    'apr': dict(_COMM_IDS, **{
        'add_info_len': _f(8, 8), 'ap_status': _f(9, 8),
    }),
}

# Where each message's private data starts, and its length to the end.
CM_PRIVATE_DATA = {
    'req': 140, 'rep': 36, 'rtu': 8, 'rej': 84, 'mra': 10, 'dreq': 12,
    'drep': 8, 'sidr_req': 16, 'sidr_rep': 96, 'lap': 64, 'apr': 84,
}

# Extension headers (IBTA vol. 1 table 38) and their sizes.
EXT_LEN = {'RDETH': 4, 'DETH': 8, 'XRCETH': 4, 'FETH': 4, 'RETH': 16,
           'AtomicETH': 28, 'AETH': 4, 'AtomicAckETH': 8, 'ImmDt': 4,
           'IETH': 4}

# Headers of each operation (low five opcode bits) after the transport's
# own: RDETH (RD), DETH (RD and UD requests), XRCETH (XRC requests).
_OPS = {
    0x00: (), 0x01: (), 0x02: (), 0x03: ('ImmDt',), 0x04: (),
    0x05: ('ImmDt',), 0x06: ('RETH',), 0x07: (), 0x08: (),
    0x09: ('ImmDt',), 0x0a: ('RETH',), 0x0b: ('RETH', 'ImmDt'),
    0x0c: ('RETH',), 0x0d: ('AETH',), 0x0e: (), 0x0f: ('AETH',),
    0x10: ('AETH',), 0x11: ('AETH',), 0x12: ('AETH', 'AtomicAckETH'),
    0x13: ('AtomicETH',), 0x14: ('AtomicETH',), 0x16: ('IETH',),
    0x17: ('IETH',),
}
# Responder-to-requester operations: read responses and acknowledgements.
_RESPONSES = range(0x0d, 0x13)

# Transports: the top three opcode bits.
RC, UC, RD, UD, CNP, XRC = 0x00, 0x20, 0x40, 0x60, 0x80, 0xa0

# The opcodes this module builds, with their extension headers in order.
OPCODE_HEADERS = {CNP_OPCODE: ()}
for _op, _hdrs in _OPS.items():
    OPCODE_HEADERS[RC | _op] = _hdrs
    if _op <= 0x14:
        OPCODE_HEADERS[RD | _op] = (('RDETH',) if _op in _RESPONSES else
                                    ('RDETH', 'DETH')) + _hdrs
    OPCODE_HEADERS[XRC | _op] = (() if _op in _RESPONSES else
                                 ('XRCETH',)) + _hdrs
# FLUSH and ATOMIC WRITE (IBTA 1.5), RC only as in Linux rxe.
OPCODE_HEADERS.update({RC | 0x1c: ('FETH', 'RETH'), RC | 0x1d: ('RETH',)})
for _op in range(0x0c):
    OPCODE_HEADERS[UC | _op] = _OPS[_op]
for _op in (0x04, 0x05):
    OPCODE_HEADERS[UD | _op] = ('DETH',) + _OPS[_op]


def ext_headers(opcode):
    """Extension headers that follow the BTH for @opcode, in order."""
    try:
        return OPCODE_HEADERS[opcode]
    except KeyError:
        raise ValueError('opcode 0x%02x is not built here' % opcode) from None


def ext_len(opcode):
    """Bytes of extension headers between the BTH and the payload."""
    return sum(EXT_LEN[h] for h in ext_headers(opcode))


def deth_offset(opcode):
    """Offset of the DETH in the extension headers, None if there is none."""
    hdrs = ext_headers(opcode)
    if 'DETH' not in hdrs:
        return None
    return sum(EXT_LEN[h] for h in hdrs[:hdrs.index('DETH')])


def transport(opcode):
    """The packet class the parser should report for @opcode."""
    return {RC: 'rc', UC: 'uc', RD: 'rd', UD: 'ud', CNP: 'cnp',
            XRC: 'xrc'}[opcode & 0xe0]


def family_of(addr):
    """4 or 6, from an address in text form."""
    return ipaddress.ip_address(addr).version


def random_addr(rng, family):
    """A random unicast address in text form: IPv4 below 224/4, IPv6 fd/8.

    @rng is a random.Random, so that tests can reproduce their packets.
    """
    if family == 4:
        return str(ipaddress.IPv4Address(rng.randrange(1 << 24, 0xe0 << 24)))
    return str(ipaddress.IPv6Address(0xfd << 120 | rng.getrandbits(120)))


def gid(addr):
    """The 16-byte GID of an IP address (IPv4-mapped for IPv4) as an int."""
    ip = ipaddress.ip_address(addr)
    if ip.version == 4:
        ip = ipaddress.IPv6Address('::ffff:' + str(ip))
    return int(ip)


def fence_packet(src, dst):
    """A MAD of another class (performance management) from @src to @dst
    (IPv4), which every policy passes: the tests' fence behind the packets
    under test."""
    return roce_packet(4, src, dst, BTH(opcode=0x64, pkey=0xffff, dqpn=1),
                       struct.pack('>II', GSI_QKEY, 1) +
                       mad('rtu', 7, bytes(232), mgmt_class=0x04), sport=0xc0fe)


def udp_sport(flow_label, lqpn, rqpn):
    """The UDP source port of an RC/UC QP pair, as Linux's
    rdma_get_udp_sport() computes it (include/rdma/ib_verbs.h)."""
    fl = flow_label & 0xfffff
    if not fl:
        v = lqpn * rqpn
        v ^= v >> 20
        v ^= v >> 40
        fl = v & 0xfffff
    return ((fl & 0x3fff) ^ (fl >> 14)) | 0xc000


def rdma_cm_service_id(port, ps=PS_TCP):
    """RDMA CM service ID 0x00000000_01PP_pppp for a port space and port."""
    return 0x01000000 | ps << 16 | port


def icrc_ipv6(raw):
    """ICRC of an IPv6 RoCEv2 packet (IPv6 header, UDP right after it).

    @raw is the packet from the IPv6 header through the ICRC field, whose
    value is ignored. Per annex A17: CRC-32 over eight 0xff bytes, the IPv6
    header with traffic class, flow label and hop limit set to ones, the UDP
    header with its checksum set to ones, the BTH with byte 4 (FECN, BECN,
    reserved) set to ones, and the rest up to the ICRC.

    Returns the CRC as an int; its little-endian encoding is the wire bytes.
    """
    raw = bytearray(raw)
    if raw[0] >> 4 != 6 or raw[6] != 17 or len(raw) < 40 + 8 + 12 + 4:
        raise ValueError('not an IPv6/UDP/BTH packet without ext headers')
    raw[0] |= 0x0f                  # traffic class (high nibble) ...
    raw[1:4] = b'\xff\xff\xff'      # ... its low nibble, the flow label
    raw[7] = 0xff                   # hop limit
    raw[46:48] = b'\xff\xff'        # UDP checksum
    raw[52] = 0xff                  # BTH byte 4
    return zlib.crc32(b'\xff' * 8 + bytes(raw[:-4]))


def icrc_field(value):
    """scapy's BTH.icrc for an ICRC value (scapy reads the wire bytes BE)."""
    return struct.unpack('>I', struct.pack('<I', value))[0]


def stored_icrc(raw):
    """The ICRC stored at the end of a packet, as an int (wire bytes LE)."""
    return struct.unpack('<I', bytes(raw)[-4:])[0]


def icrc_ipv4(raw):
    """ICRC of an IPv4 RoCEv2 packet, as icrc_ipv6() computes IPv6's.

    The masked fields are IPv4's: type of service, TTL and header checksum
    set to ones; the UDP checksum and BTH byte 4 as for IPv6.
    """
    raw = bytearray(raw)
    ihl = (raw[0] & 0x0f) * 4
    if raw[0] >> 4 != 4 or raw[9] != 17 or len(raw) < ihl + 8 + 12 + 4:
        raise ValueError('not an IPv4/UDP/BTH packet')
    raw[1] = 0xff                   # type of service
    raw[8] = 0xff                   # TTL
    raw[10:12] = b'\xff\xff'        # header checksum
    raw[ihl + 6:ihl + 8] = b'\xff\xff'
    raw[ihl + 8 + 4] = 0xff
    return zlib.crc32(b'\xff' * 8 + bytes(raw[:-4]))


def with_psn(raw, psn):
    """An IPv4 packet's bytes with another PSN and the ICRC to match.

    The same packet as data_packet() makes with @psn, without scapy: a
    guest's python builds thousands of these in the time scapy takes for
    a few hundred. Its UDP checksum must be zero (as data_packet() leaves
    it over IPv4).
    """
    raw = bytearray(raw)
    bth = (raw[0] & 0x0f) * 4 + 8
    if raw[0] >> 4 != 4 or raw[bth - 2:bth] != b'\0\0':
        raise ValueError('not an IPv4 packet with a zero UDP checksum')
    raw[bth + 9:bth + 12] = (psn & 0xffffff).to_bytes(3, 'big')
    raw[-4:] = struct.pack('<I', icrc_ipv4(raw))
    return bytes(raw)


def _ip(family, src, dst, tos, ttl, flow_label, ip_id, df, ip_options):
    if family == 4:
        return IP(src=src, dst=dst, tos=tos, ttl=ttl, id=ip_id,
                  flags='DF' if df else 0, options=ip_options or [])
    if ip_options:
        raise ValueError('IP options are IPv4 only')
    return IPv6(src=src, dst=dst, tc=tos, fl=flow_label, hlim=ttl)


def roce_packet(family, src, dst, bth, payload, sport=0xc000, tos=0, ttl=64,
                flow_label=0, ip_id=1, df=True, ip_options=None,
                udp_zero_csum=None):
    """IP / UDP to 4791 / @bth / @payload (bytes after the BTH) / ICRC.

    The UDP checksum is zero over IPv4 (as RoCEv2 allows) and computed over
    IPv6 unless @udp_zero_csum says otherwise. The ICRC is scapy's over
    IPv4, icrc_ipv6()'s over IPv6.
    """
    if udp_zero_csum is None:
        udp_zero_csum = family == 4
    udp = UDP(sport=sport, dport=ROCE_PORT)
    if udp_zero_csum:
        udp.chksum = 0
    pkt = (_ip(family, src, dst, tos, ttl, flow_label, ip_id, df, ip_options)
           / udp / bth / Raw(payload))
    if family == 6:
        pkt[BTH].icrc = 0
        pkt[BTH].icrc = icrc_field(icrc_ipv6(bytes(pkt)))
    return pkt


def data_packet(family, src, dst, opcode, dqpn, psn, payload_len=0,
                pad=None, payload=None, ext=None, pkey=0xffff, se=0,
                migreq=0, fecn=0, becn=0, ackreq=0, deth_qkey=0x11111111,
                deth_sqpn=0x12, ip_args=None):
    """A data, acknowledgement or CNP packet.

    The extension headers of @opcode come from @ext (bytes) or are zero,
    except a DETH, which carries @deth_qkey and @deth_sqpn. The payload is
    @payload or @payload_len zero bytes, followed by @pad zero bytes (by
    default what rounds the payload up to four bytes). A CNP gets its 16
    reserved bytes as payload. @ip_args (a dict) go to roce_packet().
    """
    if opcode == CNP_OPCODE and payload is None and not payload_len:
        payload_len = CNP_PAYLOAD_LEN
    if payload is None:
        payload = bytes(payload_len)
    if pad is None:
        pad = -len(payload) % 4
    deth = deth_offset(opcode)
    if ext is None:
        ext = bytearray(ext_len(opcode))
        if deth is not None:
            ext[deth:deth + 8] = struct.pack('>II', deth_qkey,
                                             deth_sqpn & 0xffffff)
    elif len(ext) != ext_len(opcode):
        raise ValueError('opcode 0x%02x needs %d bytes of ext headers'
                         % (opcode, ext_len(opcode)))
    bth = BTH(opcode=opcode, solicited=se, migreq=migreq, padcount=pad,
              pkey=pkey, fecn=fecn, becn=becn, dqpn=dqpn, ackreq=ackreq,
              psn=psn)
    return roce_packet(family, src, dst, bth,
                       bytes(ext) + bytes(payload) + bytes(pad),
                       **(ip_args or {}))


def cnp_packet(family, src, dst, dqpn, pkey=0xffff, ip_args=None):
    """A congestion notification packet to @dqpn (BECN set, PSN 0)."""
    return data_packet(family, src, dst, CNP_OPCODE, dqpn, 0, pkey=pkey,
                       becn=1, ip_args=ip_args)


def _put(buf, field, value):
    """Store @value in the big-endian bit field @field of @buf."""
    off, bits, shift = field
    span = (shift + bits + 7) // 8
    low = span * 8 - shift - bits
    if not 0 <= value < 1 << bits:
        raise ValueError('value 0x%x does not fit %d bits' % (value, bits))
    word = int.from_bytes(buf[off:off + span], 'big')
    word &= ~(((1 << bits) - 1) << low)
    word |= value << low
    buf[off:off + span] = word.to_bytes(span, 'big')


def cma_header(src, dst, sport, ip_version=None, version=0):
    """The 36-byte RDMA CM header that opens REQ and SIDR_REQ private data.

    cma_version, ip_version << 4, source port, then source and destination
    addresses in 16 bytes each (an IPv4 address in the last four).
    """
    if ip_version is None:
        ip_version = family_of(src)
    addrs = b''
    for addr in (src, dst):
        ip = ipaddress.ip_address(addr)
        addrs += bytes(12 if ip.version == 4 else 0) + ip.packed
    return struct.pack('>BBH', version, ip_version << 4, sport) + addrs


def cm_data(attr, private_data=b'', **fields):
    """The 232-byte CM data of @attr with @fields set and the rest zero.

    Field names are the keys of CM_FIELDS[@attr]; GIDs may be given as
    addresses in text form.
    """
    layout = CM_FIELDS[attr]
    data = bytearray(CM_DATA_LEN)
    for name, value in fields.items():
        if name not in layout:
            raise TypeError('%s has no field %r (known: %s)'
                            % (attr, name, ', '.join(sorted(layout))))
        if isinstance(value, str):
            value = gid(value)
        _put(data, layout[name], value)
    off = CM_PRIVATE_DATA[attr]
    if len(private_data) > CM_DATA_LEN - off:
        raise ValueError('%s private data is at most %d bytes'
                         % (attr, CM_DATA_LEN - off))
    data[off:off + len(private_data)] = private_data
    return bytes(data)


def mad(attr, tid, cm, method=MAD_METHOD_SEND, status=0, attr_mod=0,
        base_version=1, mgmt_class=CM_MGMT_CLASS,
        class_version=CM_CLASS_VERSION):
    """A 256-byte MAD: the 24-byte common header, then @cm (232 bytes)."""
    hdr = struct.pack('>BBBBHHQHHI', base_version, mgmt_class, class_version,
                      method, status, 0, tid, CM_ATTRS[attr], 0, attr_mod)
    return hdr + cm


def cm_packet(family, src, dst, attr, sport=0xc000, tid=0x0000000100000001,
              method=MAD_METHOD_SEND, status=0, attr_mod=0, bth_pkey=0xffff,
              bth_psn=0, deth_qkey=GSI_QKEY, deth_sqpn=GSI_QPN,
              cma_src=None, cma_dst=None, cma_sport=0xb0c1, cma_ipver=None,
              cma_version=0, private_data=None, ip_args=None, **fields):
    """A CM MAD from @src to @dst: UD SEND_ONLY to QP1, DETH, MAD, ICRC.

    @fields are the CM fields of @attr (see CM_FIELDS: local_comm_id, qpn,
    starting_psn, service_id, qkey, pkey, reject_reason, ...). REQ and
    SIDR_REQ with an RDMA CM service ID get an RDMA CM header as private
    data (the cma_* arguments, defaulting to @src, @dst); REQ gets GIDs
    from @src and @dst unless given. @private_data (bytes) replaces the
    default private data. @ip_args (a dict) go to roce_packet().
    """
    if family != family_of(src):
        raise ValueError('%s is not an IPv%d address' % (src, family))
    if attr == 'req':
        fields.setdefault('local_gid', src)
        fields.setdefault('remote_gid', dst)
    if attr in ('req', 'sidr_req'):
        fields.setdefault('pkey', 0xffff)
    if private_data is None:
        private_data = b''
        if (attr in ('req', 'sidr_req') and
                fields.get('service_id', 0) >> 24 == 0x01):
            private_data = cma_header(cma_src or src, cma_dst or dst,
                                      cma_sport, cma_ipver, cma_version)
    payload = (struct.pack('>II', deth_qkey, deth_sqpn) +
               mad(attr, tid, cm_data(attr, private_data, **fields),
                   method=method, status=status, attr_mod=attr_mod))
    bth = BTH(opcode=UD_SEND_ONLY, pkey=bth_pkey, dqpn=GSI_QPN, psn=bth_psn)
    return roce_packet(family, src, dst, bth, payload, sport=sport,
                       **(ip_args or {}))


def cm_exchange(a, b, port=18515, ps=PS_TCP, sport=0xc000,
                comm_ids=(0x1a2b3c4d, 0x5e6f7a8b), qpns=(0x000011, 0x000012),
                psns=(0, 0), tid=0x0000000100000001,
                cma_sport=0xb0c1):
    """The packets of an RDMA CM connection setup between @a and @b.

    Returns {'req': A->B, 'rep': B->A, 'rtu': A->B}, consistent with each
    other: @comm_ids and @qpns are (A's, B's), @psns the REQ's and the
    REP's starting PSNs: as Linux's CM sets the QPs up, B's requests start
    at the REQ's and A's at the REP's. They are 0 by default, as NCCL and
    UCX start: data packets crafted at small PSNs then fall within the PSN
    window they start.
    """
    family = family_of(a)
    service_id = rdma_cm_service_id(port, ps)
    req = cm_packet(family, a, b, 'req', sport=sport, tid=tid,
                    local_comm_id=comm_ids[0], service_id=service_id,
                    qpn=qpns[0], starting_psn=psns[0], pkey=0xffff,
                    responder_resources=1, initiator_depth=1,
                    remote_cm_response_timeout=20,
                    local_cm_response_timeout=20, retry_count=7,
                    rnr_retry_count=7, max_cm_retries=15, path_mtu=3,
                    hop_limit=64, local_ack_timeout=14, cma_sport=cma_sport)
    rep = cm_packet(family, b, a, 'rep', sport=sport, tid=tid + 1,
                    local_comm_id=comm_ids[1], remote_comm_id=comm_ids[0],
                    qpn=qpns[1], starting_psn=psns[1], responder_resources=1,
                    initiator_depth=1, target_ack_delay=15,
                    rnr_retry_count=7)
    rtu = cm_packet(family, a, b, 'rtu', sport=sport, tid=tid + 2,
                    local_comm_id=comm_ids[0], remote_comm_id=comm_ids[1])
    return {'req': req, 'rep': rep, 'rtu': rtu}


def send_packets(pkts, iface=None, via_stack=False, interval=0.0):
    """Send IP packets with scapy's send().

    By default scapy's layer-3 packet socket is used, which bypasses the
    sending host's own netfilter hooks; @via_stack sends through a raw IP
    socket instead, so that OUTPUT and POSTROUTING see the packets.
    """
    from scapy.layers.inet6 import L3RawSocket6
    from scapy.sendrecv import send
    from scapy.supersocket import L3RawSocket

    kw = {'verbose': False, 'inter': interval}
    if via_stack:
        kw['socket'] = (L3RawSocket6() if IPv6 in pkts[0]
                        else L3RawSocket())
    if iface:
        kw['iface'] = iface
    send(pkts, **kw)


def send_cm_exchange(a, b, messages, iface=None, via_stack=False,
                     interval=0.0, **exchange_args):
    """Send this host's @messages of cm_exchange(@a, @b, **@exchange_args).

    @messages is a list of 'req', 'rep', 'rtu': on the active side A
    ['req', 'rtu'], on the passive side B ['rep']. Run it in the sender's
    network namespace. Returns the packets sent.
    """
    pkts = cm_exchange(a, b, **exchange_args)
    unknown = set(messages) - set(pkts)
    if unknown:
        raise ValueError('no such message: %s' % ', '.join(sorted(unknown)))
    sent = [pkts[m] for m in messages]
    send_packets(sent, iface=iface, via_stack=via_stack, interval=interval)
    return sent


def _value(key, text):
    """A key=value argument: bytes for private_data/ext, int if it parses."""
    if key in ('private_data', 'ext', 'payload'):
        return bytes.fromhex(text)
    try:
        return int(text, 0)
    except ValueError:
        return text


def _cmd_hex(args):
    kw, ip_args = {}, {}
    for item in args.settings:
        key, sep, text = item.partition('=')
        if not sep or key.startswith('-'):
            sys.exit('roce_pkt.py: expected key=value, got %r' % item)
        if key.startswith('ip.'):
            ip_args[key[3:]] = _value(key, text)
        else:
            kw[key] = _value(key, text)
    kw['ip_args'] = ip_args
    family = args.family or family_of(args.src)
    try:
        if args.kind == 'data':
            pkt = data_packet(family, args.src, args.dst, **kw)
        elif args.kind == 'cnp':
            pkt = cnp_packet(family, args.src, args.dst, **kw)
        else:
            pkt = cm_packet(family, args.src, args.dst, args.kind, **kw)
    except (TypeError, ValueError) as err:
        sys.exit('roce_pkt.py: %s' % err)
    print(bytes(pkt).hex())


def _pair(text):
    first, _, second = text.partition(',')
    return (int(first, 0), int(second, 0))


def _cmd_cm_exchange(args):
    family = args.family or family_of(args.src)
    if family_of(args.src) != family or family_of(args.dst) != family:
        sys.exit('roce_pkt.py: --src and --dst must be IPv%d' % family)
    exchange = {'port': args.port, 'sport': args.sport,
                'comm_ids': args.comm_ids, 'qpns': args.qpns,
                'psns': args.psns}
    kinds = [k for k in args.send.split(',') if k]
    if not kinds or set(kinds) - {'req', 'rep', 'rtu'}:
        sys.exit('roce_pkt.py: --send takes req, rep, rtu')
    if args.dry_run:
        pkts = cm_exchange(args.src, args.dst, **exchange)
        for kind in kinds:
            print('# %s\n%s' % (kind, bytes(pkts[kind]).hex()))
        return
    send_cm_exchange(args.src, args.dst, kinds, iface=args.iface,
                     via_stack=args.via_stack, interval=args.interval,
                     **exchange)


def main(argv=None):
    """Command-line entry point; see the module docstring."""
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)

    h = sub.add_parser('hex', help='print a packet in hex (from IP)')
    h.add_argument('kind', choices=sorted(CM_ATTRS) + ['cnp', 'data'])
    h.add_argument('--src', required=True)
    h.add_argument('--dst', required=True)
    h.add_argument('--family', type=int, choices=(4, 6))
    h.set_defaults(func=_cmd_hex)

    x = sub.add_parser('cm-exchange',
                       help='send REQ/RTU (A->B) or REP (B->A)')
    x.add_argument('--src', required=True, help='active side A')
    x.add_argument('--dst', required=True, help='passive side B')
    x.add_argument('--family', type=int, choices=(4, 6))
    x.add_argument('--send', required=True,
                   help='messages this host sends: req,rtu on A, rep on B')
    x.add_argument('--iface', help='interface to send on')
    x.add_argument('--port', type=int, default=18515,
                   help='RDMA CM port in the service ID (default 18515)')
    x.add_argument('--sport', type=lambda s: int(s, 0), default=0xc000,
                   help='UDP source port (default 0xc000)')
    x.add_argument('--comm-ids', type=_pair, default=(0x1a2b3c4d, 0x5e6f7a8b),
                   help="A's,B's communication IDs")
    x.add_argument('--qpns', type=_pair, default=(0x11, 0x12),
                   help="A's,B's QPNs")
    x.add_argument('--psns', type=_pair, default=(0, 0),
                   help="the REQ's,REP's starting PSNs (B's,A's first PSN)")
    x.add_argument('--interval', type=float, default=0.0,
                   help='seconds between packets')
    x.add_argument('--via-stack', action='store_true',
                   help='send through a raw IP socket (local netfilter '
                        'hooks see the packets)')
    x.add_argument('--dry-run', action='store_true',
                   help='print the packets in hex instead of sending')
    x.set_defaults(func=_cmd_cm_exchange)

    # key=value settings of "hex" may come before or after the options.
    args, args.settings = ap.parse_known_args(argv)
    if args.settings and args.cmd != 'hex':
        ap.error('unrecognized arguments: %s' % ' '.join(args.settings))
    args.func(args)


if __name__ == '__main__':
    main()
