/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 wire format: bounded parsing of IP/UDP/BTH/DETH and of the IB CM
 * MADs that RDMA CM sends on QP1, ICRC and the CNP layout.
 *
 * Pure protocol code: no kernel-only API (see wire_platform.h), so the same
 * files build into nf_conntrack_roce.ko and into the userspace unit tests,
 * fuzzers and benchmarks. Nothing here allocates, locks or sleeps.
 *
 * Addresses are 16 bytes; an IPv4 address occupies the first four (the
 * layout of the kernel's union nf_inet_addr) and the rest is zero.
 */
#ifndef _ROCECT_WIRE_H
#define _ROCECT_WIRE_H

#include "wire_platform.h"

enum roce_wire_const {
	ROCE_UDP_PORT		= 4791,
	ROCE_BTH_LEN		= 12,
	ROCE_DETH_LEN		= 8,
	ROCE_ICRC_LEN		= 4,
	ROCE_MAD_LEN		= 256,
	ROCE_MAD_HDR_LEN	= 24,
	ROCE_CM_DATA_LEN	= ROCE_MAD_LEN - ROCE_MAD_HDR_LEN,
	ROCE_GSI_QPN		= 1,
	ROCE_QPN_MASK		= 0xffffff,
	ROCE_CNP_PAYLOAD_LEN	= 16,
	ROCE_CNP_LEN_V4		= 20 + 8 + ROCE_BTH_LEN + ROCE_CNP_PAYLOAD_LEN +
				  ROCE_ICRC_LEN,
	ROCE_CNP_LEN_V6		= 40 + 8 + ROCE_BTH_LEN + ROCE_CNP_PAYLOAD_LEN +
				  ROCE_ICRC_LEN,
	/* IPv6 extension headers walked before giving up. */
	ROCE_IPV6_MAX_EXTHDRS	= 8,
};

/* BTH opcodes with a special meaning here. */
enum roce_opcode {
	ROCE_OP_RC_READ_REQUEST		= 0x0c,
	ROCE_OP_UD_SEND_ONLY		= 0x64,
	ROCE_OP_UD_SEND_ONLY_IMM	= 0x65,
	ROCE_OP_CNP			= 0x81,
};

/* Bits of the BTH's bytes 1 (flags), 4 (FECN, BECN) and 8 (AckReq). */
enum roce_bth_bits {
	ROCE_BTH_SE		= 0x80,
	ROCE_BTH_MIG_REQ	= 0x40,
	ROCE_BTH_PAD_MASK	= 0x30,
	ROCE_BTH_PAD_SHIFT	= 4,
	ROCE_BTH_TVER_MASK	= 0x0f,
	ROCE_BTH_FECN		= 0x80,
	ROCE_BTH_BECN		= 0x40,
	ROCE_BTH_ACK_REQ	= 0x80,
};

/* IP ECN codepoints (low two bits of TOS / traffic class). */
enum roce_ecn {
	ROCE_ECN_NOT_ECT = 0,
	ROCE_ECN_ECT1	 = 1,
	ROCE_ECN_ECT0	 = 2,
	ROCE_ECN_CE	 = 3,
};

/*
 * One list per protocol fact, in its own file with one line per member, as
 * counters.h: roce_classes.h (ROCE_CLASS), roce_malformed.h (ROCE_MAL) and
 * roce_cm_attrs.h (ROCE_CM_ATTR). Each is expanded into its enum here, its
 * names in wire.c and netlink.c's member-by-member checks of the uapi.
 */

/* What a RoCEv2 packet is; ROCE_CLASS_MAX counts them. */
enum roce_class {
#define ROCE_CLASS(name, str)	ROCE_CLASS_##name,
#include "roce_classes.h"
#undef ROCE_CLASS
	ROCE_CLASS_MAX
};

/* Why a packet is %ROCE_CLASS_MALFORMED; ROCE_MAL_MAX counts the reasons. */
enum roce_malformed {
#define ROCE_MAL(name, str)	ROCE_MAL_##name,
#include "roce_malformed.h"
#undef ROCE_MAL
	ROCE_MAL_MAX
};

/* CM attribute IDs (IBTA vol. 1, 12.6): the wire's values. */
enum roce_cm_attr {
	ROCE_CM_REQ		= 0x10,
	ROCE_CM_MRA		= 0x11,
	ROCE_CM_REJ		= 0x12,
	ROCE_CM_REP		= 0x13,
	ROCE_CM_RTU		= 0x14,
	ROCE_CM_DREQ		= 0x15,
	ROCE_CM_DREP		= 0x16,
	ROCE_CM_SIDR_REQ	= 0x17,
	ROCE_CM_SIDR_REP	= 0x18,
	ROCE_CM_LAP		= 0x19,
	ROCE_CM_APR		= 0x1a,
};

/*
 * A dense index of the CM attributes, for counters: the list's order, then
 * ROCE_CM_KIND_OTHER (any other attribute of the CM class); MAX counts them.
 */
enum roce_cm_kind {
#define ROCE_CM_ATTR(name, str)	ROCE_CM_KIND_##name,
#include "roce_cm_attrs.h"
#undef ROCE_CM_ATTR
	ROCE_CM_KIND_OTHER,
	ROCE_CM_KIND_MAX
};

/* RDMA CM service IDs: 0x00000000_01PP_pppp (port space PP, port pppp). */
enum roce_rdma_cm {
	ROCE_PS_TCP	= 0x06,
	ROCE_PS_UDP	= 0x11,
	ROCE_PS_IPOIB	= 0x02,
	ROCE_PS_IB	= 0x3f,
};

/**
 * struct roce_bth - a Base Transport Header, as it is on the wire
 * @opcode: opcode; the top three bits are the transport
 * @flags: SE, MigReq, pad count and transport header version
 * @pkey: partition key
 * @qpn: FECN, BECN, six reserved bits and the destination QP
 * @apsn: AckReq, seven reserved bits and the PSN
 *
 * Parsing copies it whole, in two loads, and the roce_bth_*() accessors
 * decode the field a caller asks for, as rxe_hdr.h's do: most packets need
 * only the destination QP.
 */
struct roce_bth {
	u8 opcode;
	u8 flags;
	__be16 pkey;
	__be32 qpn;
	__be32 apsn;
};

static inline u32 roce_bth_dest_qp(const struct roce_bth *bth)
{
	return be32_to_cpu(bth->qpn) & ROCE_QPN_MASK;
}

static inline u32 roce_bth_psn(const struct roce_bth *bth)
{
	return be32_to_cpu(bth->apsn) & ROCE_QPN_MASK;
}

static inline u16 roce_bth_pkey(const struct roce_bth *bth)
{
	return be16_to_cpu(bth->pkey);
}

static inline u8 roce_bth_pad_count(const struct roce_bth *bth)
{
	return (bth->flags & ROCE_BTH_PAD_MASK) >> ROCE_BTH_PAD_SHIFT;
}

static inline u8 roce_bth_tver(const struct roce_bth *bth)
{
	return bth->flags & ROCE_BTH_TVER_MASK;
}

static inline bool roce_bth_solicited(const struct roce_bth *bth)
{
	return bth->flags & ROCE_BTH_SE;
}

static inline bool roce_bth_mig_req(const struct roce_bth *bth)
{
	return bth->flags & ROCE_BTH_MIG_REQ;
}

static inline bool roce_bth_fecn(const struct roce_bth *bth)
{
	return be32_to_cpu(bth->qpn) >> 24 & ROCE_BTH_FECN;
}

static inline bool roce_bth_becn(const struct roce_bth *bth)
{
	return be32_to_cpu(bth->qpn) >> 24 & ROCE_BTH_BECN;
}

static inline bool roce_bth_ack_req(const struct roce_bth *bth)
{
	return be32_to_cpu(bth->apsn) >> 24 & ROCE_BTH_ACK_REQ;
}

/**
 * struct roce_cma_hdr - RDMA CM private-data header of REQ and SIDR_REQ
 * @valid: the service ID is an RDMA CM one and the header is well formed
 * @ip_version: 4 or 6
 * @src_port: the active side's port
 * @src: the active side's address
 * @dst: the passive side's address
 */
struct roce_cma_hdr {
	bool valid;
	u8 ip_version;
	u16 src_port;
	u8 src[16];
	u8 dst[16];
};

/**
 * struct roce_cm - the fields of a CM MAD this project uses
 * @attr_id: CM attribute ID (&enum roce_cm_attr)
 * @kind: dense index of @attr_id
 * @method: MAD method (3 = Send)
 * @status: MAD status
 * @tid: MAD transaction ID
 * @local_comm_id: sender's communication ID (SIDR: request ID)
 * @remote_comm_id: receiver's communication ID (0 in REQ and SIDR)
 * @service_id: REQ, SIDR_REQ, SIDR_REP
 * @qpn: REQ/REP local QPN, DREQ remote QPN, SIDR_REP QPN, LAP remote QPN
 * @starting_psn: REQ, REP
 * @qkey: REQ/REP local Q_Key, SIDR_REP Q_Key
 * @pkey: REQ, SIDR_REQ
 * @transport: REQ transport service type (0 RC, 1 UC, 3 XRC)
 * @path_mtu: REQ path MTU (IBTA code: 1 for 256 to 5 for 4096)
 * @msg_target: REJ MessageRejected / MRA MessageMRAed (0 REQ, 1 REP, 2 other)
 * @reject_reason: REJ reason
 * @sidr_status: SIDR_REP status
 * @ap_status: APR status
 * @flow_label: REQ primary flow label (20 bits; 0: none given)
 * @local_gid: REQ primary local port GID
 * @remote_gid: REQ primary remote port GID
 * @cma: RDMA CM header from REQ or SIDR_REQ private data
 */
struct roce_cm {
	u16 attr_id;
	u8 kind;
	u8 method;
	u16 status;
	u64 tid;
	u32 local_comm_id;
	u32 remote_comm_id;
	u64 service_id;
	u32 qpn;
	u32 starting_psn;
	u32 qkey;
	u16 pkey;
	u8 transport;
	u8 path_mtu;
	u8 msg_target;
	u16 reject_reason;
	u8 sidr_status;
	u8 ap_status;
	u32 flow_label;
	u8 local_gid[16];
	u8 remote_gid[16];
	struct roce_cma_hdr cma;
};

/* Where the fields rocect reads sit in the fixed IP headers. */
enum roce_ip_offsets {
	ROCE_IP4_TOS		= 1,
	ROCE_IP4_TTL		= 8,
	ROCE_IP4_SADDR		= 12,
	ROCE_IP4_DADDR		= 16,
	ROCE_IP4_HDR_LEN	= 20,
	ROCE_IP6_HOP_LIMIT	= 7,
	ROCE_IP6_SADDR		= 8,
	ROCE_IP6_DADDR		= 24,
	ROCE_IP6_HDR_LEN	= 40,
};

/**
 * struct roce_pkt - a parsed RoCEv2 packet
 * @family: 4 or 6
 * @has_deth: a DETH follows (UD, RD)
 * @l4_off: offset of the UDP header from the IP header
 * @len: IP packet length from the IP header (trailing link padding excluded)
 * @iph: the IP header's fixed part as it came: 20 bytes for IPv4 (options
 *	are not kept), 40 for IPv6; read through roce_pkt_tos() and the
 *	other accessors
 * @sport: UDP source port as it came; roce_pkt_sport() decodes it
 * @dport: UDP destination port as it came; roce_pkt_dport() decodes it
 * @bth: the BTH
 * @payload_off: offset of the payload (after all transport headers)
 * @payload_len: payload bytes, without pad and ICRC
 * @class: what the packet is
 * @malformed: why it is %ROCE_CLASS_MALFORMED (set only then)
 * @deth_qkey: DETH Q_Key (set only with @has_deth)
 * @deth_src_qp: DETH source QP (set only with @has_deth)
 * @cm: the CM message when @class is %ROCE_CLASS_CM
 *
 * The headers are kept as they came, not unpacked into fields: a data
 * packet needs few of them, and those few are read where they are used.
 * A copy, not a pointer into the packet, so that changing the packet (to
 * clear CE) cannot leave the parse pointing into freed memory.
 */
struct roce_pkt {
	u8 family;
	bool has_deth;
	u16 l4_off;
	u32 len;
	u8 iph[ROCE_IP6_HDR_LEN];
	__be16 sport;
	__be16 dport;
	struct roce_bth bth;
	u32 payload_off;
	u32 payload_len;
	enum roce_class class;
	enum roce_malformed malformed;
	u32 deth_qkey;
	u32 deth_src_qp;
	struct roce_cm cm;
};

/* IPv4 TOS or IPv6 traffic class: DSCP << 2 | ECN. */
static inline u8 roce_pkt_tos(const struct roce_pkt *pkt)
{
	if (pkt->family == 4)
		return pkt->iph[ROCE_IP4_TOS];
	return (get_unaligned_be16(pkt->iph) >> 4) & 0xff;
}

/* IPv4 TTL or IPv6 hop limit. */
static inline u8 roce_pkt_ttl(const struct roce_pkt *pkt)
{
	return pkt->iph[pkt->family == 4 ? ROCE_IP4_TTL : ROCE_IP6_HOP_LIMIT];
}

/* IPv6 flow label; 0 for IPv4. */
static inline u32 roce_pkt_flow_label(const struct roce_pkt *pkt)
{
	if (pkt->family == 4)
		return 0;
	return get_unaligned_be32(pkt->iph) & 0xfffff;
}

/* The source address: 4 bytes for IPv4, 16 for IPv6. */
static inline const u8 *roce_pkt_saddr(const struct roce_pkt *pkt)
{
	return pkt->iph + (pkt->family == 4 ? ROCE_IP4_SADDR : ROCE_IP6_SADDR);
}

/* The destination address: 4 bytes for IPv4, 16 for IPv6. */
static inline const u8 *roce_pkt_daddr(const struct roce_pkt *pkt)
{
	return pkt->iph + (pkt->family == 4 ? ROCE_IP4_DADDR : ROCE_IP6_DADDR);
}

/**
 * roce_read_len() - the DMA length an RC RDMA READ request asks for
 * @ip: the packet from its IP header, as roce_parse() was given it
 * @caplen: bytes at @ip
 * @pkt: its parse
 *
 * Return: the RETH's DMA length, or 0 for another packet or a RETH
 * beyond @caplen.
 */
static inline u32 roce_read_len(const u8 *ip, u32 caplen,
				const struct roce_pkt *pkt)
{
	if (pkt->bth.opcode != ROCE_OP_RC_READ_REQUEST ||
	    pkt->payload_off > caplen)
		return 0;
	/* The RETH ends the extension headers: its last word is the length. */
	return get_unaligned_be32(ip + pkt->payload_off - 4);
}

static inline u16 roce_pkt_sport(const struct roce_pkt *pkt)
{
	return be16_to_cpu(pkt->sport);
}

static inline u16 roce_pkt_dport(const struct roce_pkt *pkt)
{
	return be16_to_cpu(pkt->dport);
}

/**
 * roce_addr_widen() - an address as struct nf_inet_addr holds it
 * @dst: 16 bytes: an IPv4 address in the first four, the rest zero
 * @addr: roce_pkt_saddr() or roce_pkt_daddr()
 * @family: 4 or 6
 *
 * Always inline: twice per data packet, and gcc made it a call.
 */
static __always_inline void roce_addr_widen(void *dst, const u8 *addr,
					    u8 family)
{
	if (family == 4) {
		memcpy(dst, addr, 4);
		memset((u8 *)dst + 4, 0, 12);
	} else {
		memcpy(dst, addr, 16);
	}
}

enum roce_class roce_parse(const u8 *ip, u32 caplen, u32 pktlen,
			   struct roce_pkt *pkt);
enum roce_class roce_parse_general(const u8 *ip, u32 caplen, u32 pktlen,
				   struct roce_pkt *pkt);
enum roce_cm_kind roce_cm_kind(u16 attr_id);
u16 roce_udp_sport(u32 flow_label, u32 lqpn, u32 rqpn);
bool roce_service_id_is_rdma_cm(u64 service_id);

const char *roce_class_name(enum roce_class class);
const char *roce_malformed_name(enum roce_malformed reason);
const char *roce_cm_kind_name(enum roce_cm_kind kind);

/* ICRC (icrc.c), over a packet contiguous in memory */
u32 roce_icrc_calc(const u8 *ip, u32 l4_off, u32 len);
bool roce_icrc_verify(const u8 *ip, u32 l4_off, u32 len);

/**
 * struct roce_ip_udp - the IP and UDP headers of a RoCEv2 packet
 * @family: 4 or 6
 * @saddr: IP source (IPv4: the first 4 bytes)
 * @daddr: IP destination
 * @tos: DSCP << 2 | ECN
 * @ttl: TTL or hop limit
 * @sport: UDP source port
 * @dport: UDP destination port, 0 for %ROCE_UDP_PORT
 * @ip_id: IPv4 identification
 * @df: set IPv4 don't-fragment
 * @flow_label: IPv6 flow label
 */
struct roce_ip_udp {
	u8 family;
	u8 saddr[16];
	u8 daddr[16];
	u8 tos;
	u8 ttl;
	u16 sport;
	u16 dport;
	u16 ip_id;
	bool df;
	u32 flow_label;
};

/**
 * struct roce_cnp_params - what a CNP is built from
 * @ip: its IP and UDP headers: from the congested flow's destination to
 *	its sender, to the RoCEv2 port the flow uses
 * @pkey: BTH partition key
 * @dest_qp: the QP that must slow down
 */
struct roce_cnp_params {
	struct roce_ip_udp ip;
	u16 pkey;
	u32 dest_qp;
};

/*
 * A CNP's ICRC covers its masked headers and 16 zero bytes. Of those, only
 * the addresses, ports, P_Key and QPN differ from one CNP to another, and
 * CRC-32 is linear: the ICRC is the CRC of the CNP with those bytes zero,
 * plus what each of them adds, which depends only on its value and on how
 * far before the end it stands (20 to 67 bytes, IPv4 and IPv6 alike).
 */
enum roce_cnp_crc_const {
	ROCE_CNP_CRC_DIST_MIN	= 20,
	ROCE_CNP_CRC_DISTS	= 68 - ROCE_CNP_CRC_DIST_MIN,
};

/**
 * struct roce_cnp_crc - tables that make a CNP's ICRC a few lookups
 * @base: CRC state of an IPv4 (index 0) and an IPv6 (1) CNP whose
 *	addresses, ports, P_Key and QPN are zero; IPv4 with DF and IP ID 0
 * @tab: @tab[d - %ROCE_CNP_CRC_DIST_MIN][b]: what a byte of value b adds
 *	to the CRC state when d bytes follow it
 *
 * 48 KiB, filled once by roce_cnp_crc_init().
 */
struct roce_cnp_crc {
	u32 base[2];
	u32 tab[ROCE_CNP_CRC_DISTS][256];
};

void roce_cnp_crc_init(struct roce_cnp_crc *t);
u32 roce_put_ip_udp(u8 *buf, u32 len, const struct roce_ip_udp *h);
u32 roce_cnp_build(u8 *buf, u32 buflen, const struct roce_cnp_params *p,
		   const struct roce_cnp_crc *t);

#endif /* _ROCECT_WIRE_H */
