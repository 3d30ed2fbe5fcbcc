/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * rocect: the generic netlink interface of nf_conntrack_roce.
 *
 * Documentation/netlink/specs/rocect.yaml is the specification; this header
 * is kept in step with it by hand (design.rst says why it is not generated).
 *
 * Every command acts on the caller's network namespace. Commands that change
 * state, and those that read QP entries and connections (their PSNs,
 * communication IDs and counters would help aim an injection), need
 * CAP_NET_ADMIN in the user namespace owning that network namespace, and
 * so does joining the "events" group, as with ctnetlink. Statistics and
 * configuration are readable by anyone. What each command takes and
 * returns, and what each attribute means, is in the specification.
 */
#ifndef _UAPI_LINUX_ROCECT_H
#define _UAPI_LINUX_ROCECT_H

#define ROCECT_FAMILY_NAME	"rocect"
#define ROCECT_FAMILY_VERSION	1
#define ROCECT_MCGRP_EVENTS	"events"
/* Packets the helper or the guard dropped, rate limited (DROP_NTF). */
#define ROCECT_MCGRP_DROPS	"drops"

/* Highest queue pair number: QPNs are 24 bits. */
#define ROCECT_QPN_MAX		0xffffff
/* ROCECT_A_QP_SEEN_WITHIN: at most a day, in milliseconds. */
#define ROCECT_SEEN_WITHIN_MAX	86400000
/* ROCECT_A_CONFIG_CNP_SPORT: use the CE-marked packet's UDP source port. */
#define ROCECT_CNP_SPORT_COPY	65536

enum rocect_origin {
	ROCECT_ORIGIN_LEARNED,	/* from an RDMA CM handshake */
	ROCECT_ORIGIN_MANAGED,	/* added through this interface */
	ROCECT_ORIGIN_INFERRED,	/* inferred from the traffic (learn on) */
	ROCECT_ORIGIN_RECOVERED, /* inferred from flows adopted from a peer */
	__ROCECT_ORIGIN_MAX,
};

#define ROCECT_ORIGIN_MAX (__ROCECT_ORIGIN_MAX - 1)

enum rocect_state {
	ROCECT_STATE_REQ,		/* REQ seen, no REP yet */
	ROCECT_STATE_REP,		/* REP seen, no RTU yet */
	ROCECT_STATE_ESTABLISHED,	/* RTU or first data seen; managed */
	ROCECT_STATE_DISCONNECTING,	/* DREQ seen */
	ROCECT_STATE_TIMEWAIT,		/* DREP seen; expires soon */
	ROCECT_STATE_REJECTED,		/* REJ seen; expires soon */
	__ROCECT_STATE_MAX,
};

#define ROCECT_STATE_MAX (__ROCECT_STATE_MAX - 1)

enum rocect_unknown_qp_policy {
	ROCECT_UNKNOWN_QP_ACCEPT,
	ROCECT_UNKNOWN_QP_DROP,
	__ROCECT_UNKNOWN_QP_MAX,
};

#define ROCECT_UNKNOWN_QP_MAX (__ROCECT_UNKNOWN_QP_MAX - 1)

enum rocect_offload_mode {
	ROCECT_OFFLOAD_OFF,		/* every flow keeps the helper */
	ROCECT_OFFLOAD_ON,		/* one pair's data flow goes without */
	ROCECT_OFFLOAD_GUARDED,		/* as on, checked by rocect's guard */
	__ROCECT_OFFLOAD_MAX,
};

#define ROCECT_OFFLOAD_MAX (__ROCECT_OFFLOAD_MAX - 1)

/* What the service policy does with a REQ or SIDR_REQ a rule matches. */
enum rocect_policy_action {
	ROCECT_POLICY_ACCEPT,		/* tracked as without a policy */
	ROCECT_POLICY_DROP,		/* dropped: no connection, no entries */
	ROCECT_POLICY_REJECT,		/* dropped, and refused in the server's
					 * name: a REJ (SIDR_REP) to the client
					 */
	__ROCECT_POLICY_ACTION_MAX,
};

#define ROCECT_POLICY_ACTION_MAX (__ROCECT_POLICY_ACTION_MAX - 1)

/* Most rules a namespace's service policy holds. */
#define ROCECT_POLICY_RULES_MAX	4096

enum {
	ROCECT_A_QP_UNSPEC,
	ROCECT_A_QP_PAD,
	ROCECT_A_QP_ZONE,
	ROCECT_A_QP_SADDR4,
	ROCECT_A_QP_DADDR4,
	ROCECT_A_QP_SADDR6,
	ROCECT_A_QP_DADDR6,
	ROCECT_A_QP_DQPN,
	ROCECT_A_QP_SQPN,
	ROCECT_A_QP_ORIGIN,
	ROCECT_A_QP_STATE,
	ROCECT_A_QP_PACKETS,
	ROCECT_A_QP_BYTES,
	ROCECT_A_QP_IDLE_MSECS,
	ROCECT_A_QP_TIMEOUT,
	ROCECT_A_QP_ACTIVE,		/* u8, 1: src is the side that sent REQ */
	ROCECT_A_QP_SCOMM_ID,		/* u32, src side's CM communication ID */
	ROCECT_A_QP_DCOMM_ID,		/* u32, dst side's CM communication ID */
	ROCECT_A_QP_SERVICE_ID,		/* u64, the connection's service ID */
	ROCECT_A_QP_SPSN,		/* u32, src side's starting PSN */
	ROCECT_A_QP_QKEY,		/* u32, UD: the service's or data's Q_Key */
	ROCECT_A_QP_CE,			/* u32, CE-marked packets seen (see CE64) */
	ROCECT_A_QP_CNPS,		/* u32, CNPs sent to src for them (CNPS64) */
	ROCECT_A_QP_IIF,		/* u32, ifindex src's packets come in on,
					 * 0: this host; absent until bound;
					 * in QP_NEW: bind the entry to it
					 */
	ROCECT_A_QP_SPORT,		/* u16, UDP source port of src's RC, UC data */
	ROCECT_A_QP_CE64,		/* u64, CE-marked packets seen; CE is
					 * its low 32 bits
					 */
	ROCECT_A_QP_CNPS64,		/* u64, CNPs sent; CNPS: low 32 bits */
	ROCECT_A_QP_EVENT_SEQ,		/* u64, events only: the namespace's
					 * sequence number of the event, taken
					 * with the change: order events by it
					 */
	ROCECT_A_QP_REPLACE,		/* flag, QP_NEW only: change a managed
					 * entry of the key in place
					 */
	ROCECT_A_QP_SEEN_WITHIN,	/* u32, dump filter: only entries whose
					 * last packet (or creation) is less
					 * than this many ms old
					 */
	ROCECT_A_QP_SNAPSHOT_NS,	/* u64, CLOCK_MONOTONIC ns at which
					 * this message's counters were read:
					 * a rate is the difference of two
					 * messages' counters over theirs
					 */

	__ROCECT_A_QP_MAX,
	ROCECT_A_QP_MAX = (__ROCECT_A_QP_MAX - 1)
};

/*
 * Packet classes, malformed reasons and CM attributes: inside the nests
 * ROCECT_A_STATS_CLASS, _MALFORMED and _CM, the counter of value V is the
 * u64 attribute of type V + 1.
 */
enum rocect_class {
	ROCECT_CLASS_MALFORMED,
	ROCECT_CLASS_CM,
	ROCECT_CLASS_GSI_OTHER,
	ROCECT_CLASS_RC,
	ROCECT_CLASS_UC,
	ROCECT_CLASS_RD,
	ROCECT_CLASS_UD,
	ROCECT_CLASS_XRC,
	ROCECT_CLASS_CNP,
	ROCECT_CLASS_UNKNOWN_OPCODE,
	__ROCECT_CLASS_MAX,
};

enum rocect_malformed {
	ROCECT_MALFORMED_NONE,		/* never counted */
	ROCECT_MALFORMED_CAPTURE,
	ROCECT_MALFORMED_IP_TRUNCATED,
	ROCECT_MALFORMED_IP_VERSION,
	ROCECT_MALFORMED_IP_HEADER_LEN,
	ROCECT_MALFORMED_IP_TOTAL_LEN,
	ROCECT_MALFORMED_IP_FRAGMENT,
	ROCECT_MALFORMED_IPV6_EXTHDR,
	ROCECT_MALFORMED_NOT_UDP,
	ROCECT_MALFORMED_UDP_LEN,
	ROCECT_MALFORMED_BTH_TRUNCATED,
	ROCECT_MALFORMED_BTH_VERSION,
	ROCECT_MALFORMED_EXT_TRUNCATED,
	ROCECT_MALFORMED_MAD_TRUNCATED,
	ROCECT_MALFORMED_MAD_VERSION,
	ROCECT_MALFORMED_CNP_LEN,
	ROCECT_MALFORMED_MAD_LEN,	/* a QP1 payload longer than one MAD */
	__ROCECT_MALFORMED_MAX,
};

enum rocect_cm {
	ROCECT_CM_REQ,
	ROCECT_CM_MRA,
	ROCECT_CM_REJ,
	ROCECT_CM_REP,
	ROCECT_CM_RTU,
	ROCECT_CM_DREQ,
	ROCECT_CM_DREP,
	ROCECT_CM_SIDR_REQ,
	ROCECT_CM_SIDR_REP,
	ROCECT_CM_LAP,
	ROCECT_CM_APR,
	ROCECT_CM_OTHER,
	__ROCECT_CM_MAX,
};

enum {
	ROCECT_A_STATS_UNSPEC,
	ROCECT_A_STATS_PAD,
	ROCECT_A_STATS_PACKETS,		/* u64, packets inspected */
	ROCECT_A_STATS_CLASS,		/* nest, enum rocect_class */
	ROCECT_A_STATS_MALFORMED,	/* nest, enum rocect_malformed */
	ROCECT_A_STATS_CM,		/* nest, enum rocect_cm */
	ROCECT_A_STATS_ICRC_BAD,	/* u64, CM MADs with a wrong ICRC */
	ROCECT_A_STATS_TABLE_FULL,	/* u64, entries refused: max-qps */
	ROCECT_A_STATS_QP_CREATED,	/* u64 */
	ROCECT_A_STATS_QP_DESTROYED,	/* u64, deleted, flushed or expired */
	ROCECT_A_STATS_QP_EXPIRED,	/* u64, of those, by timeout */
	ROCECT_A_STATS_QP_COUNT,	/* u32, entries now */
	ROCECT_A_STATS_UNKNOWN_QP_DROPPED, /* u64, unknown-qp drop policy */
	ROCECT_A_STATS_CONN_CREATED,	/* u64, connections tracked */
	ROCECT_A_STATS_CONN_DESTROYED,	/* u64, forgotten (any reason) */
	ROCECT_A_STATS_CONN_EXPIRED,	/* u64, of those, by timeout */
	ROCECT_A_STATS_CONN_FULL,	/* u64, refused: max-conns */
	ROCECT_A_STATS_CONN_COUNT,	/* u32, connections now */
	ROCECT_A_STATS_CM_UNMATCHED,	/* u64, CM MADs of no known connection */
	ROCECT_A_STATS_CM_UNEXPECTED,	/* u64, CM MADs out of order */
	ROCECT_A_STATS_QP_CONFLICT,	/* u64, learned entries a managed one held */
	ROCECT_A_STATS_EXPECT_CREATED,	/* u64, conntrack expectations */
	ROCECT_A_STATS_EXPECT_FAILED,	/* u64 */
	ROCECT_A_STATS_CE,		/* u64, CE-marked data packets */
	ROCECT_A_STATS_CNP_SENT,	/* u64 */
	ROCECT_A_STATS_CNP_INTERVAL,	/* u64, not sent: within the QP's interval */
	ROCECT_A_STATS_CNP_CAPPED,	/* u64, not sent: over cnp-max-rate */
	ROCECT_A_STATS_CNP_NO_ROUTE,	/* u64, not sent: no route, no memory */
	ROCECT_A_STATS_CNP_UNKNOWN_QP,	/* u64, CE to a QP without an entry */
	ROCECT_A_STATS_CONN_EVICTED,	/* u64, half-open ones, table full */
	ROCECT_A_STATS_CM_SPOOFED,	/* u64, CM MADs failing rp-check */
	ROCECT_A_STATS_GSO,		/* u64, GRO/GSO super-packets seen */
	ROCECT_A_STATS_DROP_MALFORMED,	/* u64, unknown-qp drop: malformed */
	ROCECT_A_STATS_DROP_UNKNOWN_OPCODE, /* u64, ... reserved opcode */
	ROCECT_A_STATS_DROP_ICRC,	/* u64, ... CM MAD with a bad ICRC */
	ROCECT_A_STATS_DROP_SPOOFED,	/* u64, ... CM MAD failing rp-check */
	ROCECT_A_STATS_DROP_GSO,	/* u64, ... GRO/GSO super-packet */
	ROCECT_A_STATS_CNP_TX_DROPPED,	/* u64, not sent: the output path dropped it */
	ROCECT_A_STATS_QP_INFERRED,	/* u64, entries learning inferred */
	ROCECT_A_STATS_LEARN_AMBIGUOUS,	/* u64, responses agreeing with several QPs */
	ROCECT_A_STATS_LEARN_EVICTED,	/* u64, host pairs' records taken over */
	ROCECT_A_STATS_FLOW_ADOPTED,	/* u64, flows adopted from a peer firewall */
	ROCECT_A_STATS_QP_RECOVERED,	/* u64, entries recovered from adopted flows */
	ROCECT_A_STATS_EXPECT_KEPT,	/* u64, expectations already in place */
	ROCECT_A_STATS_CONN_SOURCE_FULL, /* u64, refused: source at its share */
	ROCECT_A_STATS_WRONG_IFACE,	/* u64, data from another interface */
	ROCECT_A_STATS_WRONG_SPORT,	/* u64, data from another UDP port */
	ROCECT_A_STATS_CNP_FORGED,	/* u64, CNPs not from the peer's way */
	ROCECT_A_STATS_QP_SOURCE_FULL,	/* u64, not inferred: source at its share */
	ROCECT_A_STATS_WRONG_PSN,	/* u64, data outside its PSN window */
	ROCECT_A_STATS_WRONG_QKEY,	/* u64, UD data with another Q_Key */
	ROCECT_A_STATS_CONG_COUNT,	/* u32, congestion records now */
	ROCECT_A_STATS_OFFLOAD_FLOWS,	/* u64, data flows admitted without the helper */
	ROCECT_A_STATS_OFFLOAD_REVOKED,	/* u64, of those, killed to be decided again */
	ROCECT_A_STATS_POLICY_DEFAULT,	/* u64, REQs no policy rule matched */
	ROCECT_A_STATS_POLICY_DROPPED,	/* u64, REQs the service policy dropped */
	ROCECT_A_STATS_POLICY_REJECTED,	/* u64, of those, answered with a REJ */
	ROCECT_A_STATS_POLICY_REJ_UNSENT, /* u64, ... not answered: over
					   * reject-max-rate, no route, no memory
					   */

	__ROCECT_A_STATS_MAX,
	ROCECT_A_STATS_MAX = (__ROCECT_A_STATS_MAX - 1)
};

enum {
	ROCECT_A_CONFIG_UNSPEC,
	ROCECT_A_CONFIG_MAX_QPS,	/* u32, 1..16777216 */
	ROCECT_A_CONFIG_IDLE_TIMEOUT,	/* u32 s, 1..604800: learned entries */
	ROCECT_A_CONFIG_TIMEWAIT_TIMEOUT, /* u32 s, 1..3600 */
	ROCECT_A_CONFIG_UNKNOWN_QP,	/* u8, enum rocect_unknown_qp_policy */
	ROCECT_A_CONFIG_MAX_CONNS,	/* u32, 1..8388608 */
	ROCECT_A_CONFIG_CNP,		/* u8, 1: send CNPs for CE-marked data */
	ROCECT_A_CONFIG_CNP_INTERVAL_US,	/* u32 us, 1..1000000: per QP */
	ROCECT_A_CONFIG_CNP_MAX_RATE,	/* u32 CNPs/s, 1..10000000: all QPs */
	ROCECT_A_CONFIG_CNP_DSCP,	/* u8, 0..63 */
	ROCECT_A_CONFIG_CNP_ECN,	/* u8, 0..3 */
	ROCECT_A_CONFIG_CNP_PRIORITY,	/* u32, skb priority */
	ROCECT_A_CONFIG_CNP_TTL,	/* u8, 1..255: TTL or hop limit */
	ROCECT_A_CONFIG_CNP_SPORT,	/* u32: a UDP port, or 65536: copy */
	ROCECT_A_CONFIG_CNP_CLEAR_CE,	/* u8, 1: forward the packet as ECT(0) */
	ROCECT_A_CONFIG_HALF_OPEN_TIMEOUT, /* u32 s, 1..3600: REQ, REP states */
	ROCECT_A_CONFIG_RP_CHECK,	/* u8, 1: CM MADs must pass a FIB rp check */
	ROCECT_A_CONFIG_LEARN,		/* u8, 1: infer entries from the traffic */
	ROCECT_A_CONFIG_SOURCE_SHARE,	/* u8, 1..100: % of max-conns per source */
	ROCECT_A_CONFIG_CHECK_IFACE,	/* u8, 1: a QP's data from one interface */
	ROCECT_A_CONFIG_CHECK_SPORT,	/* u8, 1: ... from one UDP source port */
	ROCECT_A_CONFIG_CHECK_CNP,	/* u8, 1: CNPs from the peer's interface */
	ROCECT_A_CONFIG_CHECK_PSN,	/* u8, 1: RC and UC PSNs in the window */
	ROCECT_A_CONFIG_PSN_WINDOW,	/* u32, 1..8388608: PSNs either way */
	ROCECT_A_CONFIG_CHECK_QKEY,	/* u8, 1: UD data with the QP's Q_Key */
	ROCECT_A_CONFIG_OFFLOAD,	/* u8, enum rocect_offload_mode */
	ROCECT_A_CONFIG_POLICY_DEFAULT,	/* u8, enum rocect_policy_action: no
					 * rule matched
					 */
	ROCECT_A_CONFIG_REJECT_MAX_RATE, /* u32 REJs/s, 1..1000000 */
	ROCECT_A_CONFIG_DROP_EVENTS_MAX_RATE, /* u32 DROP_NTFs/s, 1..100000 */

	__ROCECT_A_CONFIG_MAX,
	ROCECT_A_CONFIG_MAX = (__ROCECT_A_CONFIG_MAX - 1)
};

enum {
	ROCECT_A_CONN_UNSPEC,
	ROCECT_A_CONN_PAD,
	ROCECT_A_CONN_ZONE,		/* u16 */
	ROCECT_A_CONN_AADDR4,		/* active side (sent REQ): be32 */
	ROCECT_A_CONN_PADDR4,		/* passive side */
	ROCECT_A_CONN_AADDR6,		/* 16 bytes */
	ROCECT_A_CONN_PADDR6,
	ROCECT_A_CONN_ACOMM_ID,		/* u32; SIDR: request ID */
	ROCECT_A_CONN_PCOMM_ID,		/* u32, 0 before REP */
	ROCECT_A_CONN_AQPN,		/* u32 */
	ROCECT_A_CONN_PQPN,		/* u32, before REP absent */
	ROCECT_A_CONN_APSN,		/* u32, the REQ's starting PSN */
	ROCECT_A_CONN_PPSN,		/* u32, the REP's */
	ROCECT_A_CONN_SERVICE_ID,	/* u64 */
	ROCECT_A_CONN_STATE,		/* u8, enum rocect_state */
	ROCECT_A_CONN_SIDR,		/* u8, 1: UD service resolution */
	ROCECT_A_CONN_QKEY,		/* u32, SIDR_REP Q_Key */
	ROCECT_A_CONN_REJECT_REASON,	/* u16, REJ reason or SIDR_REP status */
	ROCECT_A_CONN_CMA_SPORT,	/* u16, RDMA CM private data source port */
	ROCECT_A_CONN_CMA_MATCH,	/* u8, 1: its addresses are the IP ones */
	ROCECT_A_CONN_AGE_MSECS,	/* u64, since REQ */
	ROCECT_A_CONN_IDLE_MSECS,	/* u64, since the last CM message or data */
	ROCECT_A_CONN_TIMEOUT,		/* u32 s until forgotten */

	__ROCECT_A_CONN_MAX,
	ROCECT_A_CONN_MAX = (__ROCECT_A_CONN_MAX - 1)
};

/* A rule of the service policy: its match, its action, its hits. */
enum {
	ROCECT_A_POLICY_UNSPEC,
	ROCECT_A_POLICY_PAD,
	ROCECT_A_POLICY_INDEX,		/* u32, its place from 0 (first match
					 * wins); in POLICY_NEW: insert there
					 */
	ROCECT_A_POLICY_ZONE,		/* u16, absent: every zone */
	ROCECT_A_POLICY_SADDR4,		/* be32, the REQ's source prefix */
	ROCECT_A_POLICY_DADDR4,		/* be32, its destination prefix */
	ROCECT_A_POLICY_SADDR6,		/* 16 bytes */
	ROCECT_A_POLICY_DADDR6,		/* 16 bytes */
	ROCECT_A_POLICY_SPREFIX,	/* u8, bits; absent: the whole address */
	ROCECT_A_POLICY_DPREFIX,	/* u8 */
	ROCECT_A_POLICY_SERVICE_ID,	/* u64, absent: every service */
	ROCECT_A_POLICY_SERVICE_MASK,	/* u64, the bits compared; absent: all */
	ROCECT_A_POLICY_ACTION,		/* u8, enum rocect_policy_action */
	ROCECT_A_POLICY_MARK,		/* u32, accept: the connection's data
					 * flows' conntrack mark; 0: none
					 */
	ROCECT_A_POLICY_HITS,		/* u64, REQs it decided */

	__ROCECT_A_POLICY_MAX,
	ROCECT_A_POLICY_MAX = (__ROCECT_A_POLICY_MAX - 1)
};

/* ROCECT_CMD_DROP_NTF: a packet dropped, on the "drops" group. */
enum {
	ROCECT_A_DROP_UNSPEC,
	ROCECT_A_DROP_PAD,
	ROCECT_A_DROP_REASON,		/* u32, the ROCECT_A_STATS_ attribute of
					 * the counter that counted it
					 */
	ROCECT_A_DROP_ZONE,		/* u16, its conntrack's zone; absent
					 * for the guard's packets
					 */
	ROCECT_A_DROP_SADDR4,		/* be32 */
	ROCECT_A_DROP_DADDR4,
	ROCECT_A_DROP_SADDR6,		/* 16 bytes */
	ROCECT_A_DROP_DADDR6,
	ROCECT_A_DROP_DQPN,		/* u32, its BTH's; absent if malformed */
	ROCECT_A_DROP_SPORT,		/* u16, UDP source port; as DQPN */
	ROCECT_A_DROP_IIF,		/* u32, ifindex it came in on; absent
					 * for this host's own packets
					 */
	ROCECT_A_DROP_SUPPRESSED,	/* u64, drops not reported (over
					 * drop-events-max-rate) since the
					 * last DROP_NTF
					 */

	__ROCECT_A_DROP_MAX,
	ROCECT_A_DROP_MAX = (__ROCECT_A_DROP_MAX - 1)
};

enum {
	ROCECT_CMD_UNSPEC,
	ROCECT_CMD_QP_GET,
	ROCECT_CMD_QP_QUERY,
	ROCECT_CMD_QP_NEW,
	ROCECT_CMD_QP_DEL,
	ROCECT_CMD_QP_FLUSH,
	ROCECT_CMD_STATS_GET,
	ROCECT_CMD_STATS_RESET,
	ROCECT_CMD_CONFIG_GET,
	ROCECT_CMD_CONFIG_SET,
	ROCECT_CMD_QP_CREATE_NTF,
	ROCECT_CMD_QP_CHANGE_NTF,
	ROCECT_CMD_QP_DELETE_NTF,
	ROCECT_CMD_CONN_GET,
	ROCECT_CMD_CNP_SEND,
	ROCECT_CMD_POLICY_NEW,
	ROCECT_CMD_POLICY_DEL,
	ROCECT_CMD_POLICY_GET,
	ROCECT_CMD_POLICY_FLUSH,
	ROCECT_CMD_POLICY_ADD_NTF,
	ROCECT_CMD_POLICY_DEL_NTF,
	ROCECT_CMD_POLICY_FLUSH_NTF,
	ROCECT_CMD_POLICY_REFUSED_NTF,
	ROCECT_CMD_DROP_NTF,

	__ROCECT_CMD_MAX,
	ROCECT_CMD_MAX = (__ROCECT_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_ROCECT_H */
