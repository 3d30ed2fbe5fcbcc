// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded RoCEv2 parser: IP (v4 with options, v6 with walkable extension
 * headers), UDP, BTH, extension headers by opcode, DETH, MAD and every CM
 * attribute. Every read is checked against the IP length, the UDP length
 * and the captured buffer; a packet that lies about a length is classified
 * malformed with a reason and never read past its end.
 */
#include "wire.h"

/* Transport headers that may follow the BTH, by size. */
enum ext_hdr_len {
	RDETH_LEN	= 4,
	XRCETH_LEN	= 4,
	RETH_LEN	= 16,
	AETH_LEN	= 4,
	ATOMICETH_LEN	= 28,
	ATOMICACKETH_LEN = 8,
	IMMDT_LEN	= 4,
	IETH_LEN	= 4,
	FETH_LEN	= 4,
	/* RD requests: RDETH and DETH, the DETH after the RDETH */
	RD_REQ_LEN	= RDETH_LEN + ROCE_DETH_LEN,
	RD_DETH_OFF	= ROCE_BTH_LEN + RDETH_LEN,
};

/*
 * What each opcode's packets carry after the BTH (IBTA vol. 1, 9.2 and
 * table 38; RoCEv2 annex A17.9.3 for the CNP): one load per packet instead
 * of a walk over the transport's rules. Opcodes not listed are reserved or
 * vendor specific. selftests/wire checks every entry against those rules.
 */
static const struct op_info {
	u8 class;	/* &enum roce_class; 0 for an opcode not defined */
	u8 ext_len;	/* bytes of extension headers after the BTH */
	u8 deth_off;	/* offset of the DETH from the BTH, 0 if none */
	u8 plain;	/* RC, UC or XRC: no DETH, not a CNP (the fast path) */
} op_info[256] = {
	/* RC */
	[0x00] = { ROCE_CLASS_RC, 0, 0, 1 },			/* SEND_FIRST */
	[0x01] = { ROCE_CLASS_RC, 0, 0, 1 },			/* SEND_MIDDLE */
	[0x02] = { ROCE_CLASS_RC, 0, 0, 1 },			/* SEND_LAST */
	[0x03] = { ROCE_CLASS_RC, IMMDT_LEN, 0, 1 },		/* SEND_LAST_IMM */
	[0x04] = { ROCE_CLASS_RC, 0, 0, 1 },			/* SEND_ONLY */
	[0x05] = { ROCE_CLASS_RC, IMMDT_LEN, 0, 1 },		/* SEND_ONLY_IMM */
	[0x06] = { ROCE_CLASS_RC, RETH_LEN, 0, 1 },		/* WRITE_FIRST */
	[0x07] = { ROCE_CLASS_RC, 0, 0, 1 },			/* WRITE_MIDDLE */
	[0x08] = { ROCE_CLASS_RC, 0, 0, 1 },			/* WRITE_LAST */
	[0x09] = { ROCE_CLASS_RC, IMMDT_LEN, 0, 1 },		/* WRITE_LAST_IMM */
	[0x0a] = { ROCE_CLASS_RC, RETH_LEN, 0, 1 },		/* WRITE_ONLY */
	[0x0b] = { ROCE_CLASS_RC, RETH_LEN + IMMDT_LEN, 0, 1 },	/* WRITE_ONLY_IMM */
	[0x0c] = { ROCE_CLASS_RC, RETH_LEN, 0, 1 },		/* READ_REQUEST */
	[0x0d] = { ROCE_CLASS_RC, AETH_LEN, 0, 1 },		/* READ_RESP_FIRST */
	[0x0e] = { ROCE_CLASS_RC, 0, 0, 1 },			/* READ_RESP_MIDDLE */
	[0x0f] = { ROCE_CLASS_RC, AETH_LEN, 0, 1 },		/* READ_RESP_LAST */
	[0x10] = { ROCE_CLASS_RC, AETH_LEN, 0, 1 },		/* READ_RESP_ONLY */
	[0x11] = { ROCE_CLASS_RC, AETH_LEN, 0, 1 },		/* ACK */
	[0x12] = { ROCE_CLASS_RC, AETH_LEN + ATOMICACKETH_LEN, 0, 1 }, /* ATOMIC_ACK */
	[0x13] = { ROCE_CLASS_RC, ATOMICETH_LEN, 0, 1 },		/* COMPARE_SWAP */
	[0x14] = { ROCE_CLASS_RC, ATOMICETH_LEN, 0, 1 },		/* FETCH_ADD */
	[0x16] = { ROCE_CLASS_RC, IETH_LEN, 0, 1 },		/* SEND_LAST_INV */
	[0x17] = { ROCE_CLASS_RC, IETH_LEN, 0, 1 },		/* SEND_ONLY_INV */
	[0x1c] = { ROCE_CLASS_RC, FETH_LEN + RETH_LEN, 0, 1 },	/* FLUSH */
	[0x1d] = { ROCE_CLASS_RC, RETH_LEN, 0, 1 },		/* ATOMIC_WRITE */
	/* UC */
	[0x20] = { ROCE_CLASS_UC, 0, 0, 1 },			/* SEND_FIRST */
	[0x21] = { ROCE_CLASS_UC, 0, 0, 1 },			/* SEND_MIDDLE */
	[0x22] = { ROCE_CLASS_UC, 0, 0, 1 },			/* SEND_LAST */
	[0x23] = { ROCE_CLASS_UC, IMMDT_LEN, 0, 1 },		/* SEND_LAST_IMM */
	[0x24] = { ROCE_CLASS_UC, 0, 0, 1 },			/* SEND_ONLY */
	[0x25] = { ROCE_CLASS_UC, IMMDT_LEN, 0, 1 },		/* SEND_ONLY_IMM */
	[0x26] = { ROCE_CLASS_UC, RETH_LEN, 0, 1 },		/* WRITE_FIRST */
	[0x27] = { ROCE_CLASS_UC, 0, 0, 1 },			/* WRITE_MIDDLE */
	[0x28] = { ROCE_CLASS_UC, 0, 0, 1 },			/* WRITE_LAST */
	[0x29] = { ROCE_CLASS_UC, IMMDT_LEN, 0, 1 },		/* WRITE_LAST_IMM */
	[0x2a] = { ROCE_CLASS_UC, RETH_LEN, 0, 1 },		/* WRITE_ONLY */
	[0x2b] = { ROCE_CLASS_UC, RETH_LEN + IMMDT_LEN, 0, 1 },	/* WRITE_ONLY_IMM */
	/* RD */
	[0x40] = { ROCE_CLASS_RD, RD_REQ_LEN, RD_DETH_OFF },	/* SEND_FIRST */
	[0x41] = { ROCE_CLASS_RD, RD_REQ_LEN, RD_DETH_OFF },	/* SEND_MIDDLE */
	[0x42] = { ROCE_CLASS_RD, RD_REQ_LEN, RD_DETH_OFF },	/* SEND_LAST */
	[0x43] = { ROCE_CLASS_RD, RD_REQ_LEN + IMMDT_LEN, RD_DETH_OFF }, /* SEND_LAST_IMM */
	[0x44] = { ROCE_CLASS_RD, RD_REQ_LEN, RD_DETH_OFF },	/* SEND_ONLY */
	[0x45] = { ROCE_CLASS_RD, RD_REQ_LEN + IMMDT_LEN, RD_DETH_OFF }, /* SEND_ONLY_IMM */
	[0x46] = { ROCE_CLASS_RD, RD_REQ_LEN + RETH_LEN, RD_DETH_OFF }, /* WRITE_FIRST */
	[0x47] = { ROCE_CLASS_RD, RD_REQ_LEN, RD_DETH_OFF },	/* WRITE_MIDDLE */
	[0x48] = { ROCE_CLASS_RD, RD_REQ_LEN, RD_DETH_OFF },	/* WRITE_LAST */
	[0x49] = { ROCE_CLASS_RD, RD_REQ_LEN + IMMDT_LEN, RD_DETH_OFF }, /* WRITE_LAST_IMM */
	[0x4a] = { ROCE_CLASS_RD, RD_REQ_LEN + RETH_LEN, RD_DETH_OFF }, /* WRITE_ONLY */
	/* WRITE_ONLY_IMM */
	[0x4b] = { ROCE_CLASS_RD, RD_REQ_LEN + RETH_LEN + IMMDT_LEN, RD_DETH_OFF },
	[0x4c] = { ROCE_CLASS_RD, RD_REQ_LEN + RETH_LEN, RD_DETH_OFF }, /* READ_REQUEST */
	[0x4d] = { ROCE_CLASS_RD, RDETH_LEN + AETH_LEN, 0 },	/* READ_RESP_FIRST */
	[0x4e] = { ROCE_CLASS_RD, RDETH_LEN, 0 },		/* READ_RESP_MIDDLE */
	[0x4f] = { ROCE_CLASS_RD, RDETH_LEN + AETH_LEN, 0 },	/* READ_RESP_LAST */
	[0x50] = { ROCE_CLASS_RD, RDETH_LEN + AETH_LEN, 0 },	/* READ_RESP_ONLY */
	[0x51] = { ROCE_CLASS_RD, RDETH_LEN + AETH_LEN, 0 },	/* ACK */
	[0x52] = { ROCE_CLASS_RD, RDETH_LEN + AETH_LEN + ATOMICACKETH_LEN, 0 }, /* ATOMIC_ACK */
	[0x53] = { ROCE_CLASS_RD, RD_REQ_LEN + ATOMICETH_LEN, RD_DETH_OFF }, /* COMPARE_SWAP */
	[0x54] = { ROCE_CLASS_RD, RD_REQ_LEN + ATOMICETH_LEN, RD_DETH_OFF }, /* FETCH_ADD */
	/* UD */
	[0x64] = { ROCE_CLASS_UD, ROCE_DETH_LEN, ROCE_BTH_LEN }, /* SEND_ONLY */
	[0x65] = { ROCE_CLASS_UD, ROCE_DETH_LEN + IMMDT_LEN, ROCE_BTH_LEN }, /* SEND_ONLY_IMM */
	/* CNP */
	[0x81] = { ROCE_CLASS_CNP, 0, 0 },
	/* XRC */
	[0xa0] = { ROCE_CLASS_XRC, XRCETH_LEN, 0, 1 },		/* SEND_FIRST */
	[0xa1] = { ROCE_CLASS_XRC, XRCETH_LEN, 0, 1 },		/* SEND_MIDDLE */
	[0xa2] = { ROCE_CLASS_XRC, XRCETH_LEN, 0, 1 },		/* SEND_LAST */
	[0xa3] = { ROCE_CLASS_XRC, XRCETH_LEN + IMMDT_LEN, 0, 1 },	/* SEND_LAST_IMM */
	[0xa4] = { ROCE_CLASS_XRC, XRCETH_LEN, 0, 1 },		/* SEND_ONLY */
	[0xa5] = { ROCE_CLASS_XRC, XRCETH_LEN + IMMDT_LEN, 0, 1 },	/* SEND_ONLY_IMM */
	[0xa6] = { ROCE_CLASS_XRC, XRCETH_LEN + RETH_LEN, 0, 1 },	/* WRITE_FIRST */
	[0xa7] = { ROCE_CLASS_XRC, XRCETH_LEN, 0, 1 },		/* WRITE_MIDDLE */
	[0xa8] = { ROCE_CLASS_XRC, XRCETH_LEN, 0, 1 },		/* WRITE_LAST */
	[0xa9] = { ROCE_CLASS_XRC, XRCETH_LEN + IMMDT_LEN, 0, 1 },	/* WRITE_LAST_IMM */
	[0xaa] = { ROCE_CLASS_XRC, XRCETH_LEN + RETH_LEN, 0, 1 },	/* WRITE_ONLY */
	[0xab] = { ROCE_CLASS_XRC, XRCETH_LEN + RETH_LEN + IMMDT_LEN, 0, 1 }, /* WRITE_ONLY_IMM */
	[0xac] = { ROCE_CLASS_XRC, XRCETH_LEN + RETH_LEN, 0, 1 },	/* READ_REQUEST */
	[0xad] = { ROCE_CLASS_XRC, AETH_LEN, 0, 1 },		/* READ_RESP_FIRST */
	[0xae] = { ROCE_CLASS_XRC, 0, 0, 1 },			/* READ_RESP_MIDDLE */
	[0xaf] = { ROCE_CLASS_XRC, AETH_LEN, 0, 1 },		/* READ_RESP_LAST */
	[0xb0] = { ROCE_CLASS_XRC, AETH_LEN, 0, 1 },		/* READ_RESP_ONLY */
	[0xb1] = { ROCE_CLASS_XRC, AETH_LEN, 0, 1 },		/* ACK */
	[0xb2] = { ROCE_CLASS_XRC, AETH_LEN + ATOMICACKETH_LEN, 0, 1 }, /* ATOMIC_ACK */
	[0xb3] = { ROCE_CLASS_XRC, XRCETH_LEN + ATOMICETH_LEN, 0, 1 }, /* COMPARE_SWAP */
	[0xb4] = { ROCE_CLASS_XRC, XRCETH_LEN + ATOMICETH_LEN, 0, 1 }, /* FETCH_ADD */
	[0xb6] = { ROCE_CLASS_XRC, XRCETH_LEN + IETH_LEN, 0, 1 },	/* SEND_LAST_INV */
	[0xb7] = { ROCE_CLASS_XRC, XRCETH_LEN + IETH_LEN, 0, 1 },	/* SEND_ONLY_INV */
};

static const char * const class_names[ROCE_CLASS_MAX] = {
#define ROCE_CLASS(name, str)	\
	[ROCE_CLASS_##name] = str,
#include "roce_classes.h"
#undef ROCE_CLASS
};

static const char * const malformed_names[ROCE_MAL_MAX] = {
#define ROCE_MAL(name, str)	\
	[ROCE_MAL_##name] = str,
#include "roce_malformed.h"
#undef ROCE_MAL
};

static const char * const cm_kind_names[ROCE_CM_KIND_MAX] = {
#define ROCE_CM_ATTR(name, str)	\
	[ROCE_CM_KIND_##name] = str,
#include "roce_cm_attrs.h"
#undef ROCE_CM_ATTR
	[ROCE_CM_KIND_OTHER] = "other",
};

/*
 * The kind of each attribute ID from the lowest (REQ's), plus one: 0 is
 * an ID the list does not name.
 */
static const u8 cm_kind_of_id[] = {
#define ROCE_CM_ATTR(name, str)	\
	[ROCE_CM_##name - ROCE_CM_REQ] = ROCE_CM_KIND_##name + 1,
#include "roce_cm_attrs.h"
#undef ROCE_CM_ATTR
};

/**
 * roce_class_name() - short lower-case name of a packet class
 * @class: the class
 *
 * Return: a static string, "?" for an out-of-range value.
 */
const char *roce_class_name(enum roce_class class)
{
	return (unsigned int)class < ROCE_CLASS_MAX ? class_names[class] : "?";
}

/**
 * roce_malformed_name() - short lower-case name of a malformed reason
 * @reason: the reason
 *
 * Return: a static string, "?" for an out-of-range value.
 */
const char *roce_malformed_name(enum roce_malformed reason)
{
	return (unsigned int)reason < ROCE_MAL_MAX ?
		malformed_names[reason] : "?";
}

/**
 * roce_cm_kind_name() - short lower-case name of a CM attribute kind
 * @kind: the kind
 *
 * Return: a static string, "?" for an out-of-range value.
 */
const char *roce_cm_kind_name(enum roce_cm_kind kind)
{
	return (unsigned int)kind < ROCE_CM_KIND_MAX ?
		cm_kind_names[kind] : "?";
}

/**
 * roce_cm_kind() - dense index of a CM attribute ID
 * @attr_id: attribute ID from the MAD header
 *
 * Return: the kind, %ROCE_CM_KIND_OTHER for attributes not listed.
 */
enum roce_cm_kind roce_cm_kind(u16 attr_id)
{
	unsigned int i = attr_id - ROCE_CM_REQ;

	if (i < ARRAY_SIZE(cm_kind_of_id) && cm_kind_of_id[i])
		return (enum roce_cm_kind)(cm_kind_of_id[i] - 1);
	return ROCE_CM_KIND_OTHER;
}

/**
 * roce_udp_sport() - the UDP source port an RC or UC QP pair sends from
 * @flow_label: the path's flow label (the REQ's primary one), 0 if none
 * @lqpn: one side's QP number
 * @rqpn: the other's
 *
 * As rdma_get_udp_sport() in <rdma/ib_verbs.h> computes it, which rxe,
 * mlx5, hns and irdma use: with no flow label, one is folded from the
 * product of the QP numbers, so both sides send from the same port.
 *
 * Return: a port in 0xc000..0xffff.
 */
u16 roce_udp_sport(u32 flow_label, u32 lqpn, u32 rqpn)
{
	u32 fl = flow_label & 0xfffff;
	u64 v;

	if (!fl) {
		v = (u64)lqpn * rqpn;
		v ^= v >> 20;
		v ^= v >> 40;
		fl = (u32)v & 0xfffff;
	}
	return (u16)(((fl & 0x3fff) ^ ((fl & 0xfc000) >> 14)) | 0xc000);
}

/**
 * roce_service_id_is_rdma_cm() - is this an RDMA CM (IP-addressed) service ID?
 * @service_id: the IB service ID
 *
 * Return: true for 0x00000000_01PP_pppp.
 */
bool roce_service_id_is_rdma_cm(u64 service_id)
{
	return (service_id >> 24) == 0x01;
}

static enum roce_class malformed(struct roce_pkt *pkt,
				 enum roce_malformed reason)
{
	pkt->malformed = reason;
	pkt->class = ROCE_CLASS_MALFORMED;
	return ROCE_CLASS_MALFORMED;
}

/* Three bytes, not a 32-bit load: the field may end the capture. */
static u32 get_be24(const u8 *p)
{
	return (u32)p[0] << 16 | (u32)p[1] << 8 | p[2];
}

/* RDMA CM header: version, IP version, port, source and destination. */
static void parse_cma_hdr(const u8 *p, u64 service_id,
			  struct roce_cma_hdr *cma)
{
	u8 ipv = p[1] >> 4;

	if (!roce_service_id_is_rdma_cm(service_id) || p[0] != 0 ||
	    (ipv != 4 && ipv != 6))
		return;
	cma->valid = true;
	cma->ip_version = ipv;
	cma->src_port = get_unaligned_be16(p + 2);
	if (ipv == 4) {
		memcpy(cma->src, p + 4 + 12, 4);
		memcpy(cma->dst, p + 20 + 12, 4);
	} else {
		memcpy(cma->src, p + 4, 16);
		memcpy(cma->dst, p + 20, 16);
	}
}

/* CM data (the 232 bytes after the MAD header) into @cm. */
static void parse_cm_data(const u8 *d, struct roce_cm *cm)
{
	cm->local_comm_id = get_unaligned_be32(d);
	cm->remote_comm_id = get_unaligned_be32(d + 4);

	switch (cm->attr_id) {
	case ROCE_CM_REQ:
		cm->remote_comm_id = 0;
		cm->service_id = get_unaligned_be64(d + 8);
		cm->qkey = get_unaligned_be32(d + 28);
		cm->qpn = get_be24(d + 32);
		cm->transport = (d[43] >> 1) & 0x3;
		cm->starting_psn = get_be24(d + 44);
		cm->pkey = get_unaligned_be16(d + 48);
		cm->path_mtu = d[50] >> 4;
		memcpy(cm->local_gid, d + 56, 16);
		cm->flow_label = get_unaligned_be32(d + 88) >> 12;
		memcpy(cm->remote_gid, d + 72, 16);
		parse_cma_hdr(d + 140, cm->service_id, &cm->cma);
		break;
	case ROCE_CM_REP:
		cm->qkey = get_unaligned_be32(d + 8);
		cm->qpn = get_be24(d + 12);
		cm->starting_psn = get_be24(d + 20);
		break;
	case ROCE_CM_REJ:
		cm->msg_target = d[8] >> 6;
		cm->reject_reason = get_unaligned_be16(d + 10);
		break;
	case ROCE_CM_MRA:
		cm->msg_target = d[8] >> 6;
		break;
	case ROCE_CM_DREQ:
		cm->qpn = get_be24(d + 8);
		break;
	case ROCE_CM_LAP:
		cm->qpn = get_be24(d + 12);
		break;
	case ROCE_CM_APR:
		cm->ap_status = d[9];
		break;
	case ROCE_CM_SIDR_REQ:
		cm->remote_comm_id = 0;
		cm->pkey = get_unaligned_be16(d + 4);
		cm->service_id = get_unaligned_be64(d + 8);
		parse_cma_hdr(d + 16, cm->service_id, &cm->cma);
		break;
	case ROCE_CM_SIDR_REP:
		cm->remote_comm_id = 0;
		cm->sidr_status = d[4];
		cm->qpn = get_be24(d + 8);
		cm->service_id = get_unaligned_be64(d + 12);
		cm->qkey = get_unaligned_be32(d + 20);
		break;
	default:	/* RTU, DREP and others carry only the comm IDs */
		break;
	}
}

/* A UD packet to QP1: a MAD, which may be a CM message. */
static enum roce_class parse_gsi(const u8 *ip, u32 caplen,
				 struct roce_pkt *pkt)
{
	const u8 *mad = ip + pkt->payload_off;
	struct roce_cm *cm = &pkt->cm;

	if (pkt->payload_len < ROCE_MAD_LEN)
		return malformed(pkt, ROCE_MAL_MAD_TRUNCATED);
	/* Exactly one MAD: the ICRC check then reads only captured bytes. */
	if (pkt->payload_len != ROCE_MAD_LEN)
		return malformed(pkt, ROCE_MAL_MAD_LEN);
	if (caplen < pkt->len)
		return malformed(pkt, ROCE_MAL_CAPTURE);
	if (mad[0] != 1)	/* BaseVersion */
		return malformed(pkt, ROCE_MAL_MAD_VERSION);
	if (mad[1] != 0x07) {	/* MgmtClass: not communication management */
		pkt->class = ROCE_CLASS_GSI_OTHER;
		return pkt->class;
	}
	if (mad[2] != 2)	/* CM ClassVersion */
		return malformed(pkt, ROCE_MAL_MAD_VERSION);

	memset(cm, 0, sizeof(*cm));
	cm->method = mad[3];
	cm->status = get_unaligned_be16(mad + 4);
	cm->tid = get_unaligned_be64(mad + 8);
	cm->attr_id = get_unaligned_be16(mad + 16);
	cm->kind = roce_cm_kind(cm->attr_id);
	parse_cm_data(mad + ROCE_MAD_HDR_LEN, cm);
	pkt->class = ROCE_CLASS_CM;
	return pkt->class;
}

/* The BTH's transport header version: rocect knows the layout of 0 only. */
static __always_inline u8 bth_tver(const u8 *bth)
{
	return bth[1] & ROCE_BTH_TVER_MASK;
}

/* The UDP ports and the BTH (of version 0) that follows them. */
static __always_inline void put_ports_bth(struct roce_pkt *pkt, const u8 *udp)
{
	const u8 *b = udp + 8;
	struct roce_bth *bth = &pkt->bth;

	memcpy(&pkt->sport, udp, sizeof(pkt->sport));
	memcpy(&pkt->dport, udp + 2, sizeof(pkt->dport));
	memcpy(bth, b, ROCE_BTH_LEN);
}

/* The UDP header, the BTH and the opcode's extension headers. */
static __always_inline enum roce_class
parse_l4(const u8 *ip, u32 caplen, u32 l4_off,
	 u32 ip_end, struct roce_pkt *pkt)
{
	u32 roce_off = l4_off + 8, roce_len, tail, deth_off;
	const u8 *udp = ip + l4_off, *b = ip + roce_off;
	const struct op_info *op;
	struct roce_bth *bth = &pkt->bth;
	u16 ulen;

	pkt->l4_off = l4_off;
	pkt->len = ip_end;
	pkt->has_deth = false;
	if (l4_off + 8 > ip_end)
		return malformed(pkt, ROCE_MAL_UDP_LEN);
	if (caplen < roce_off)
		return malformed(pkt, ROCE_MAL_CAPTURE);
	ulen = get_unaligned_be16(udp + 4);
	if (ulen < 8 || l4_off + ulen != ip_end)
		return malformed(pkt, ROCE_MAL_UDP_LEN);

	roce_len = ulen - 8;
	if (roce_len < ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return malformed(pkt, ROCE_MAL_BTH_TRUNCATED);
	if (caplen < roce_off + ROCE_BTH_LEN)
		return malformed(pkt, ROCE_MAL_CAPTURE);
	/* The version first: nothing else is known of another one's layout. */
	if (bth_tver(b))
		return malformed(pkt, ROCE_MAL_BTH_VERSION);
	put_ports_bth(pkt, udp);

	op = &op_info[bth->opcode];
	if (!op->class) {
		/* Unknown layout: everything after the BTH is payload. */
		pkt->class = ROCE_CLASS_UNKNOWN_OPCODE;
		pkt->payload_off = roce_off + ROCE_BTH_LEN;
		pkt->payload_len = roce_len - ROCE_BTH_LEN - ROCE_ICRC_LEN;
		return pkt->class;
	}
	pkt->class = op->class;
	tail = ROCE_BTH_LEN + op->ext_len + roce_bth_pad_count(bth) + ROCE_ICRC_LEN;
	if (tail > roce_len)
		return malformed(pkt, ROCE_MAL_EXT_TRUNCATED);
	pkt->payload_off = roce_off + ROCE_BTH_LEN + op->ext_len;
	pkt->payload_len = roce_len - tail;
	if (likely(!op->deth_off && pkt->class != ROCE_CLASS_CNP))
		return pkt->class;

	deth_off = op->deth_off;
	if (deth_off) {
		const u8 *deth = b + deth_off;

		if (caplen < roce_off + deth_off + ROCE_DETH_LEN)
			return malformed(pkt, ROCE_MAL_CAPTURE);
		pkt->has_deth = true;
		pkt->deth_qkey = get_unaligned_be32(deth);
		pkt->deth_src_qp = get_be24(deth + 5);
	}
	if (pkt->class == ROCE_CLASS_CNP &&
	    pkt->payload_len + roce_bth_pad_count(bth) != ROCE_CNP_PAYLOAD_LEN)
		return malformed(pkt, ROCE_MAL_CNP_LEN);
	if (pkt->class == ROCE_CLASS_UD && roce_bth_dest_qp(bth) == ROCE_GSI_QPN)
		return parse_gsi(ip, caplen, pkt);
	return pkt->class;
}

static bool ipv6_walkable(u8 nexthdr)
{
	/* Hop-by-hop, routing and destination options share one layout. */
	return nexthdr == 0 || nexthdr == 43 || nexthdr == 60;
}

static enum roce_class parse_ipv6(const u8 *ip, u32 caplen, u32 pktlen,
				  struct roce_pkt *pkt)
{
	u32 off = 40, end;
	u8 nexthdr = ip[6];
	int n;

	memcpy(pkt->iph, ip, ROCE_IP6_HDR_LEN);
	end = 40 + get_unaligned_be16(ip + 4);
	/* A zero payload length (jumbogram) is not RoCE either. */
	if (end == 40 || end > pktlen)
		return malformed(pkt, ROCE_MAL_IP_TOTAL_LEN);

	for (n = 0; ipv6_walkable(nexthdr); n++) {
		if (n == ROCE_IPV6_MAX_EXTHDRS || off + 8 > end)
			return malformed(pkt, ROCE_MAL_IPV6_EXTHDR);
		if (caplen < off + 2)
			return malformed(pkt, ROCE_MAL_CAPTURE);
		nexthdr = ip[off];
		off += (ip[off + 1] + 1) * 8;
		if (off > end)
			return malformed(pkt, ROCE_MAL_IPV6_EXTHDR);
	}
	if (nexthdr == 44)
		return malformed(pkt, ROCE_MAL_IP_FRAGMENT);
	if (nexthdr == 50 || nexthdr == 51)	/* ESP, AH */
		return malformed(pkt, ROCE_MAL_IPV6_EXTHDR);
	if (nexthdr != 17)
		return malformed(pkt, ROCE_MAL_NOT_UDP);
	return parse_l4(ip, caplen, off, end, pkt);
}

static enum roce_class parse_ipv4(const u8 *ip, u32 caplen, u32 pktlen,
				  struct roce_pkt *pkt)
{
	u32 ihl = (ip[0] & 0xf) * 4, end = get_unaligned_be16(ip + 2);

	memcpy(pkt->iph, ip, ROCE_IP4_HDR_LEN);
	if (ihl < 20 || ihl > end)
		return malformed(pkt, ROCE_MAL_IP_HEADER_LEN);
	if (end > pktlen)
		return malformed(pkt, ROCE_MAL_IP_TOTAL_LEN);
	if (caplen < ihl)
		return malformed(pkt, ROCE_MAL_CAPTURE);
	if (get_unaligned_be16(ip + 6) & 0x3fff)	/* MF or offset */
		return malformed(pkt, ROCE_MAL_IP_FRAGMENT);
	if (ip[9] != 17)
		return malformed(pkt, ROCE_MAL_NOT_UDP);
	return parse_l4(ip, caplen, ihl, end, pkt);
}

/*
 * The common case in one pass: an IPv4 header without options, not a
 * fragment, carrying UDP whose length matches, and a BTH of version 0 whose
 * opcode is a data or response packet of RC, UC or XRC (no DETH, not a
 * CNP), its headers within the packet and the capture. The checks are
 * those of the general path, combined; what fails any of them goes there,
 * which finds it the same or says why not. Writes what the general path
 * writes for such a packet.
 */
static __always_inline bool parse_ipv4_data(const u8 *__restrict ip, u32 pktlen,
					    struct roce_pkt *__restrict pkt)
{
	const u8 *b = ip + 20 + 8;
	const struct op_info *op = &op_info[b[0]];
	u32 end = get_unaligned_be16(ip + 2), ulen = get_unaligned_be16(ip + 24);
	int payload_len;

	/* Flags and offset (bytes 6 and 7) clear, protocol (byte 9) UDP. */
	if (bth_tver(b) || !op->plain ||
	    (get_unaligned_be32(ip + 6) & 0x3fff00ff) != 17 ||
	    end > pktlen || ulen != end - 20)
		return false;
	/* The opcode's extension headers and the pad, within the UDP payload. */
	payload_len = (int)ulen - (8 + ROCE_BTH_LEN + ROCE_ICRC_LEN) - op->ext_len -
		      ((b[1] >> 4) & 3);
	if (payload_len < 0)
		return false;
	pkt->family = 4;
	pkt->has_deth = false;
	pkt->l4_off = 20;
	pkt->len = end;
	memcpy(pkt->iph, ip, ROCE_IP4_HDR_LEN);
	put_ports_bth(pkt, ip + 20);
	pkt->payload_off = 20 + 8 + ROCE_BTH_LEN + op->ext_len;
	pkt->payload_len = payload_len;
	pkt->class = op->class;
	return true;
}

/**
 * roce_parse_general() - roce_parse() without its fast path
 * @ip: as for roce_parse()
 * @caplen: as for roce_parse()
 * @pktlen: as for roce_parse()
 * @pkt: as for roce_parse()
 *
 * Every packet roce_parse() does not take its fast path for ends here; the
 * unit tests and the fuzzer hold the two to the same results.
 *
 * Return: as for roce_parse().
 */
enum roce_class roce_parse_general(const u8 *ip, u32 caplen, u32 pktlen,
				   struct roce_pkt *pkt)
{
	pkt->family = 0;
	if (caplen > pktlen)
		caplen = pktlen;
	if (pktlen < 1)
		return malformed(pkt, ROCE_MAL_IP_TRUNCATED);
	if (caplen < 1)
		return malformed(pkt, ROCE_MAL_CAPTURE);

	pkt->family = ip[0] >> 4;
	switch (pkt->family) {
	case 4:
		if (pktlen < 20)
			return malformed(pkt, ROCE_MAL_IP_TRUNCATED);
		if (caplen < 20)
			return malformed(pkt, ROCE_MAL_CAPTURE);
		return parse_ipv4(ip, caplen, pktlen, pkt);
	case 6:
		if (pktlen < 40)
			return malformed(pkt, ROCE_MAL_IP_TRUNCATED);
		if (caplen < 40)
			return malformed(pkt, ROCE_MAL_CAPTURE);
		return parse_ipv6(ip, caplen, pktlen, pkt);
	default:
		return malformed(pkt, ROCE_MAL_IP_VERSION);
	}
}

/**
 * roce_parse() - parse and classify a RoCEv2 packet
 * @ip: the packet, from its IP header
 * @caplen: bytes readable at @ip (may be less than @pktlen: data payloads
 *	need not be captured, but every header and a whole MAD must be)
 * @pktlen: bytes the packet really has from the IP header on
 * @pkt: the result; @pkt->cm is valid (and cleared before filling) only
 *	when the class is %ROCE_CLASS_CM
 *
 * Nothing is cleared up front: every field a class defines is written on
 * the way to it, so a data packet costs no clearing of @pkt. The common
 * case, an RC, UC or XRC packet over IPv4 without options, takes a fast
 * path whose checks are the general path's, combined.
 *
 * Return: the packet's class, also stored in @pkt->class. For
 * %ROCE_CLASS_MALFORMED, @pkt->malformed says why, @pkt->family is the
 * version nibble (0 for an empty packet) and no other field is defined.
 */
enum roce_class roce_parse(const u8 *ip, u32 caplen, u32 pktlen,
			   struct roce_pkt *pkt)
{
	/*
	 * IPv4, IHL 5: the headers up to the BTH's end are captured. (The
	 * packet is that long if the fast path takes it: it checks the IP
	 * length against @pktlen, the UDP length against the IP length.)
	 */
	if (likely(caplen >= 20 + 8 + ROCE_BTH_LEN && ip[0] == 0x45) &&
	    parse_ipv4_data(ip, pktlen, pkt))
		return pkt->class;
	return roce_parse_general(ip, caplen, pktlen, pkt);
}
