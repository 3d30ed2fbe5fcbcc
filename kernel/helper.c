// SPDX-License-Identifier: GPL-2.0
/*
 * The conntrack helper "roce": called for every packet of a UDP conntrack
 * it is attached to (IPv4 and IPv6), it parses the RoCEv2 headers, counts
 * what it saw, tracks CM connections (cm.c) and accounts data packets to
 * their QP entry; with learn on, data of QPs without one feeds learn.c.
 * With the unknown-qp drop policy it fails closed: what is neither a
 * well-formed MAD to QP1 nor data or a CNP of a known QP (learned or
 * managed: inferred entries do not count) is dropped and counted by reason,
 * unless a flow adopted from a peer firewall vouches for it (adopt.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/netfilter/nf_conntrack.h>
#include <net/netfilter/nf_conntrack_helper.h>
#include <net/netfilter/nf_conntrack_zones.h>
#include <net/inet_ecn.h>
#include <uapi/linux/rocect.h>

#include "adopt.h"
#include "cm.h"
#include "cm_reject.h"
#include "drop_report.h"
#include "expect.h"
#include "helper.h"
#include "learn.h"
#include "netns.h"
#include "cnp_policy.h"
#include "psn_window.h"
#include "qp_find.h"
#include "rpcheck.h"
#include "service_policy.h"
#include "wire.h"

#define CAPTURE_LEN	ROCECT_CAPTURE_LEN

static struct nf_conntrack_helper helpers[ROCECT_MAX_PORTS * 2];
static unsigned int nr_helpers;

/**
 * rocect_helper_port() - is @port one the helper is registered on?
 * @port: a UDP destination port
 *
 * Return: true if so.
 */
bool rocect_helper_port(__be16 port)
{
	unsigned int i;

	for (i = 0; i < nr_helpers; i += 2)
		if (helpers[i].tuple.src.u.udp.port == port)
			return true;
	return false;
}

/*
 * Drop a packet, counted under @ctr, logged and reported to the drops
 * group (drop_report.c) with what @pkt (NULL: none yet) tells of it.
 */
static int drop_counted(struct rocect_net *rn, struct sk_buff *skb,
			const struct nf_conn *ct, const struct roce_pkt *pkt,
			enum rocect_counter ctr, const char *why)
{
	rocect_stats_inc(rn, ctr);
	rocect_drop_report(rn, skb, ct, pkt, ctr, why);
	return NF_DROP;
}

/* The unknown-qp policy's verdict on a packet it cannot vouch for. */
static int policy_verdict(struct rocect_net *rn, struct sk_buff *skb,
			  const struct nf_conn *ct, const struct roce_pkt *pkt,
			  enum rocect_counter ctr, const char *why)
{
	if (!rocect_strict(rn))
		return NF_ACCEPT;
	return drop_counted(rn, skb, ct, pkt, ctr, why);
}

/**
 * struct data_binding - what a data packet that passes does to its entry
 * @iif: the interface to bind an unbound entry to, or %ROCECT_IIF_UNBOUND
 * @sport: the kind and port to bind an entry without one to, or 0
 * @qkey: the Q_Key to bind a UD entry without one to, or 0
 * @moves: the packet moves the window of its space
 * @space: that space (&enum roce_psn_space)
 * @psn_new: its word with the packet seen
 *
 * Every check decides from what the entry holds; only when all of them
 * passed does bind_data() write this, so a packet that fails one binds no
 * interface, port or Q_Key and moves no window.
 */
struct data_binding {
	int iif;
	u32 sport;
	u64 qkey;
	bool moves;
	u8 space;
	u32 psn_new;
};

/*
 * Is a data packet its entry's sender's, as far as the way it came tells?
 * It must come in where the entry is bound (rocect_arrival()), or routing
 * must vouch for the interface it came in on (rocect_rp_vouches()); and it
 * must be of the kind the sender's data is: RC or UC data from the same
 * UDP source port (RoCE keeps one per QP), or UD from any. An entry no MAD
 * bound is bound where its first packet that passes every check and
 * rp-check came in; an entry without a port takes that of its first such
 * packet (bind_data()).
 *
 * Return: %ROCECT_CTR_MAX if so, else the counter of the check it failed.
 */
static __always_inline enum rocect_counter
check_sender(struct rocect_net *rn,
	     const struct sk_buff *skb,
	     const struct rocect_qp *qp,
	     const struct roce_pkt *pkt,
	     struct data_binding *b)
{
	const struct rocect_config *c = &rn->config;
	int iif = READ_ONCE(qp->iif);
	u32 want, bound;

	/* Most come in where they are bound; no device's index is UNBOUND. */
	if (unlikely(skb->skb_iif != iif)) {
		if (iif == ROCECT_IIF_UNBOUND) {
			if (rocect_cfg(c, check_iface) &&
			    !rocect_rp_check(rn, skb, pkt))
				return ROCECT_CTR_WRONG_IFACE;
			b->iif = rocect_arrival(rn, skb, pkt->family);
		} else if (rocect_cfg(c, check_iface) &&
			   !rocect_arrived_on(rn, skb, pkt->family, iif) &&
			   !rocect_rp_vouches(rn, skb, pkt)) {
			return ROCECT_CTR_WRONG_IFACE;
		}
	}
	want = pkt->has_deth ? ROCECT_SPORT_UD :
			       ROCECT_SPORT_RC | roce_pkt_sport(pkt);
	bound = READ_ONCE(qp->sport);
	if (unlikely(!bound)) {
		/*
		 * A learned entry without a kind is RC (SIDR's are UD from the
		 * handshake): a UD packet must not make it UD.
		 */
		if (rocect_qp_origin(qp) == ROCECT_ORIGIN_LEARNED && pkt->has_deth)
			return ROCECT_CTR_WRONG_SPORT;
		b->sport = want;
		return ROCECT_CTR_MAX;
	}
	if (likely(bound == want))
		return ROCECT_CTR_MAX;
	/* check-sport off lets the port change, never the kind. */
	if (!rocect_cfg(c, check_sport) && bound & want & ROCECT_SPORT_RC)
		return ROCECT_CTR_MAX;
	return ROCECT_CTR_WRONG_SPORT;
}

/*
 * The sender of an entry no handshake started (managed, inferred,
 * recovered) that stayed silent this long may have started over (a QP of
 * the same number made again, with a new PSN): its next packet moves the
 * window instead of being held against the old one. A learned entry's
 * QPs start over with a new handshake, which makes new entries.
 */
#define PSN_RESYNC_IDLE		(10 * HZ)

/*
 * A peer silent this long may have its requests routed another way now:
 * its requests word no longer bounds this direction's responses.
 */
#define PSN_PEER_QUIET		(10 * HZ)

/*
 * The reverse direction's word that bounds this space (psn_window.h), or
 * 0 where the directions are not linked (all but learned connections,
 * which embed both):
 * - for requests the peer's responses, what it acknowledged (the floor),
 *   however long ago: a floor is never stale in the attacker's favour,
 *   only responses move it, and an idle connection is when a blind
 *   attacker has most time;
 * - for responses the peer's requests, what can be answered (the
 *   ceiling), while the peer is heard: a stale ceiling would drop
 *   answers to requests that went another way.
 */
static __always_inline u32 peer_word(const struct rocect_qp *qp,
				     enum roce_psn_space space)
{
	const struct rocect_conn *conn = rocect_qp_conn(qp);
	const struct rocect_qp *peer;

	if (!conn)
		return 0;
	peer = &conn->qp[!rocect_qp_dir(qp)];
	if (space == ROCE_PSN_REQUESTS)
		return READ_ONCE(peer->psn[ROCE_PSN_RESPONSES]);
	if ((u32)jiffies - READ_ONCE(peer->last_seen) > PSN_PEER_QUIET)
		return 0;
	return READ_ONCE(peer->psn[ROCE_PSN_REQUESTS]);
}

/*
 * Does an RC or UC packet's PSN fall within the window of its space
 * (psn_window.h)? Decides where it would move the window; the first FIRST
 * or MIDDLE request tells the path MTU where the REQ did not, which READ
 * requests need. A port is bound only by a packet in sequence
 * (roce_psn_in_step()): a blind guess must hit 64 PSNs to bind one, not
 * the window.
 */
static __always_inline bool
psn_in_window(const struct rocect_config *c,
	      const struct rocect_qp *qp, const u8 *ip, u32 caplen,
	      const struct roce_pkt *pkt, struct data_binding *b)
{
	enum roce_psn_space space = roce_psn_space_of(pkt->bth.opcode);
	u32 psn = roce_bth_psn(&pkt->bth), old = READ_ONCE(qp->psn[space]);
	u32 next, span = 1, mtu, peer;

	BUILD_BUG_ON(ARRAY_SIZE(qp->psn) != ROCE_PSN_SPACES);
	BUILD_BUG_ON((u32)ROCECT_PSN_WINDOW_MAX != (u32)ROCE_PSN_WINDOW_MAX);
	if (unlikely(pkt->bth.opcode == ROCE_OP_RC_READ_REQUEST))
		span = roce_psn_read_span(old, roce_read_len(ip, caplen, pkt));
	peer = peer_word(qp, space);
	next = roce_psn_next(old, psn, rocect_cfg(c, psn_window),
			     space == ROCE_PSN_REQUESTS ? peer : 0,
			     space == ROCE_PSN_RESPONSES ? peer : 0, span);
	if (unlikely(!next)) {
		if (rocect_qp_origin(qp) == ROCECT_ORIGIN_LEARNED ||
		    (u32)jiffies - READ_ONCE(qp->last_seen) <= PSN_RESYNC_IDLE)
			return false;
		next = (old & ROCE_PSN_MTU_MASK) | ROCE_PSN_SEEN |
		       roce_psn_start(psn + span);
	}
	if (b->sport && !roce_psn_in_step(old, psn))
		b->sport = 0;
	/* Once known (from the REQ, or a first guess), it stays. */
	if (unlikely(space == ROCE_PSN_REQUESTS &&
		     !(old & ROCE_PSN_MTU_MASK) &&
		     roce_psn_first_or_middle(pkt->bth.opcode))) {
		mtu = roce_psn_mtu_code(pkt->payload_len);
		if (mtu)
			next = (next & ~ROCE_PSN_MTU_MASK) |
			       mtu << ROCE_PSN_MTU_SHIFT;
	}
	b->moves = next != old;
	b->space = space;
	b->psn_new = next;
	return true;
}

/*
 * Does a UD packet carry its QP's Q_Key? The receiving QP drops packets
 * with another, so all of a live peer's carry one: the SIDR_REP's for a
 * service's QP, else the first packet's that passes every check, kept for
 * the entry's life (a Q_Key is a QP's setting, not a sequence: no
 * resync). check_sender() has found the entry UD (or about to be), so its
 * words hold no PSNs. A SIDR client's QP, whose Q_Key no MAD names, is not
 * pinned: a spoofed first reply must not lock the connection's replies out.
 */
static __always_inline bool
qkey_matches(const struct rocect_qp *qp, const struct roce_pkt *pkt,
	     struct data_binding *b)
{
	u64 want = ROCECT_QKEY_KNOWN | pkt->deth_qkey;
	u64 bound = READ_ONCE(qp->qkey);

	if (likely(bound == want))
		return true;
	if (bound)
		return false;
	if (rocect_qp_origin(qp) != ROCECT_ORIGIN_LEARNED)
		b->qkey = want;
	return true;
}

/*
 * Did the sender send this data packet: check_sender(), and a PSN within
 * the window for RC and UC, the QP's Q_Key for UD? What a packet that
 * passes binds and moves is left in @b.
 *
 * Return: %ROCECT_CTR_MAX if so, else the counter of the check it failed.
 */
static __always_inline enum rocect_counter
check_data(struct rocect_net *rn,
	   const struct sk_buff *skb,
	   const struct rocect_qp *qp,
	   const u8 *ip, u32 caplen,
	   const struct roce_pkt *pkt,
	   struct data_binding *b)
{
	enum rocect_counter wrong = check_sender(rn, skb, qp, pkt, b);
	const struct rocect_config *c = &rn->config;

	if (wrong != ROCECT_CTR_MAX)
		return wrong;
	if (pkt->has_deth)
		return !rocect_cfg(c, check_qkey) || qkey_matches(qp, pkt, b) ?
		       ROCECT_CTR_MAX : ROCECT_CTR_WRONG_QKEY;
	if (!rocect_cfg(c, check_psn) ||
	    (pkt->class != ROCE_CLASS_RC && pkt->class != ROCE_CLASS_UC))
		return ROCECT_CTR_MAX;
	return psn_in_window(c, qp, ip, caplen, pkt, b) ? ROCECT_CTR_MAX :
							  ROCECT_CTR_WRONG_PSN;
}

/*
 * Write what check_data() decided for a packet that passed. The first
 * binding wins (cmpxchg): a packet that raced another CPU's binding of
 * another port or Q_Key is then not the sender's. Racing CPUs may each
 * store a window position: the window only lags, by less than the
 * packets in flight.
 *
 * Return: %ROCECT_CTR_MAX, or the counter of the binding it lost.
 */
static __always_inline enum rocect_counter
bind_data(struct rocect_net *rn, struct rocect_qp *qp,
	  const struct data_binding *b)
{
	const struct rocect_config *c = &rn->config;
	bool fresh = false;
	u64 qkey;
	u32 sport;

	if (unlikely(b->iif != ROCECT_IIF_UNBOUND))
		fresh = cmpxchg(&qp->iif, ROCECT_IIF_UNBOUND, b->iif) ==
			ROCECT_IIF_UNBOUND;
	if (unlikely(b->sport)) {
		sport = cmpxchg(&qp->sport, 0, b->sport);
		if (!sport)
			fresh = true;
		else if (sport != b->sport &&
			 (rocect_cfg(c, check_sport) ||
			  !(sport & b->sport & ROCECT_SPORT_RC)))
			return ROCECT_CTR_WRONG_SPORT;
	}
	if (unlikely(b->qkey)) {
		qkey = cmpxchg64(&qp->qkey, 0, b->qkey);
		if (qkey && qkey != b->qkey)
			return ROCECT_CTR_WRONG_QKEY;
	}
	if (b->moves)
		WRITE_ONCE(qp->psn[b->space], b->psn_new);
	/* Monitors see an entry bind: its interface and port, once. */
	if (unlikely(fresh))
		rocect_event_now(rn, qp, ROCECT_EV_CHANGE);
	return ROCECT_CTR_MAX;
}

/*
 * A packet of a known QP that its sender did not send, by the way it came:
 * counted in every mode, dropped in drop mode. In accept mode it passes,
 * but neither counts on the entry nor earns its sender a CNP.
 */
static int not_the_sender(struct rocect_net *rn, struct sk_buff *skb,
			  const struct nf_conn *ct, const struct roce_pkt *pkt,
			  enum rocect_counter ctr)
{
	rocect_stats_inc(rn, ctr);
	if (!rocect_strict(rn))
		return NF_ACCEPT;
	rocect_drop_report(rn, skb, ct, pkt, ctr,
			   ctr == ROCECT_CTR_WRONG_IFACE ?
		 "QP data from another interface" :
		 ctr == ROCECT_CTR_WRONG_SPORT ?
		 "QP data from another UDP port" :
		 ctr == ROCECT_CTR_WRONG_PSN ?
		 "QP data outside its PSN window" :
		 ctr == ROCECT_CTR_WRONG_QKEY ?
		 "UD data with another Q_Key" :
		 "CNP not from its peer's interface");
	return NF_DROP;
}

/**
 * data_verdict() - the verdict on a data packet, and what it does to its
 *	entry
 * @rn: the namespace's state
 * @skb: the packet
 * @ct: its conntrack; NULL for the guard's packets (guard.c), which no
 *	adopted flow vouches for
 * @ctinfo: the packet's direction in @ct
 * @key: the key of its QP's entry (rocect_qp_key_of())
 * @qp: that entry as rocect_qp_find() found it, or NULL
 * @ip: the packet's bytes from its IP header, @caplen of them
 * @caplen: how many
 * @pkt: its parse
 *
 * From the entry of its (zone, addresses, QP):
 * - an entry admits its sender's packets (check_data(); one that fails is
 *   not the sender's: not_the_sender()), counts them and earns their
 *   sender a CNP for a CE mark; a learned one's connection hears of them
 *   (rocect_cm_data());
 * - an inferred entry: anyone can forge the packets it was inferred from.
 *   In drop mode it admits nothing (no pass, no CNP, its packets do not
 *   keep it alive); in accept mode a packet of another class than those it
 *   was inferred from (RC on an entry a UD packet made) contradicts it: no
 *   check, no CNP to its source QP, and learning may replace it;
 * - what no entry admits passes in drop mode only if its flow was adopted
 *   from a peer firewall and vouches for its QP (still no CNP), which has
 *   its pair recovered; otherwise the namespace's unknown-qp policy
 *   decides. Traffic no checked entry explains is learnt from, in drop
 *   mode only that of adopted flows (no response could follow the rest).
 */
static __always_inline int
data_verdict(struct rocect_net *rn, struct sk_buff *skb, struct nf_conn *ct,
	     enum ip_conntrack_info ctinfo, const struct rocect_qp_key *key,
	     struct rocect_qp *qp, const u8 *ip, u32 caplen,
	     const struct roce_pkt *pkt)
{
	struct data_binding b = { .iif = ROCECT_IIF_UNBOUND };
	bool inferred, admitted, checked, vouched = false, drop = rocect_strict(rn);
	enum rocect_counter wrong;

	inferred = qp && rocect_qp_origin(qp) == ROCECT_ORIGIN_INFERRED;
	admitted = qp && !(inferred && drop);
	checked = admitted && (!inferred || rocect_qp_inferred_from(qp) == pkt->class);
	if (checked) {
		wrong = check_data(rn, skb, qp, ip, caplen, pkt, &b);
		if (likely(wrong == ROCECT_CTR_MAX))
			wrong = bind_data(rn, qp, &b);
		if (unlikely(wrong != ROCECT_CTR_MAX))
			return not_the_sender(rn, skb, ct, pkt, wrong);
	}
	if (INET_ECN_is_ce(roce_pkt_tos(pkt)))
		rocect_cnp_ce(rn, skb, checked ? qp : NULL, pkt);
	if (!admitted && drop && ct)
		vouched = rocect_flow_adopted(rn, skb, ct, ctinfo, pkt);
	if (qp && (admitted || vouched))
		rocect_qp_account(qp, pkt->len);
	if (checked && rocect_qp_origin(qp) == ROCECT_ORIGIN_LEARNED)
		rocect_cm_data(rn, ct, qp, pkt);
	if (vouched || (!checked && !drop && rocect_cfg(&rn->config, learn)))
		rocect_learn_packet(rn, key, pkt, vouched);
	/* The mode read once: a change meanwhile applies to the next. */
	if (admitted || vouched || !drop)
		return NF_ACCEPT;
	return drop_counted(rn, skb, ct, pkt, ROCECT_CTR_UNKNOWN_QP_DROPPED,
			    qp ? "QP entry only inferred" : "no QP entry");
}

/* Out of line, for the guard (guard.c); the helper inlines it. */
int rocect_data_verdict(struct rocect_net *rn, struct sk_buff *skb,
			struct nf_conn *ct, enum ip_conntrack_info ctinfo,
			const struct rocect_qp_key *key, struct rocect_qp *qp,
			const u8 *ip, u32 caplen, const struct roce_pkt *pkt)
{
	return data_verdict(rn, skb, ct, ctinfo, key, qp, ip, caplen, pkt);
}

/*
 * Did a CNP come in where the peer it names sends from: on @iif, the
 * interface of the peer's entry, or where routing vouches for it; for an
 * entry not bound yet or a flow adopted from a peer firewall, where
 * rp-check believes it? CNPs of this host pass: a local process that can
 * send them in a peer's name is inside the trust boundary.
 */
static bool cnp_from_peer(struct rocect_net *rn, const struct sk_buff *skb,
			  int iif, const struct roce_pkt *pkt)
{
	if (!rocect_cfg(&rn->config, check_cnp) || !skb->skb_iif)
		return true;
	if (iif == ROCECT_IIF_UNBOUND)
		return rocect_rp_check(rn, skb, pkt);
	return rocect_arrived_on(rn, skb, pkt->family, iif) ||
	       rocect_rp_vouches(rn, skb, pkt);
}

/*
 * A CNP names the QP that must slow down: the reverse direction's entry of
 * a tracked pair has it as destination, or, until a failover's pair is
 * recovered, the adopted flow it comes on is bound to it (a CNP binds
 * none). It must come from the peer's side (cnp_from_peer()): the peer,
 * or a switch on its way, sends it. Its UDP source port is not the QP's.
 */
static int cnp_verdict(struct rocect_net *rn, struct sk_buff *skb,
		       const struct nf_conn *ct, enum ip_conntrack_info ctinfo,
		       u16 zone, const struct roce_pkt *pkt)
{
	struct rocect_qp_key key __uninitialized;	/* filled at once */
	struct rocect_qp *qp;

	rocect_qp_key_of(&key, zone, pkt);
	qp = rocect_qp_lookup(rn, &key);
	if (qp && rocect_qp_origin(qp) != ROCECT_ORIGIN_INFERRED) {
		if (!cnp_from_peer(rn, skb, READ_ONCE(qp->iif), pkt))
			return not_the_sender(rn, skb, ct, pkt,
						      ROCECT_CTR_CNP_FORGED);
		return NF_ACCEPT;
	}
	if (!rocect_strict(rn))
		return NF_ACCEPT;
	if (ct && rocect_flow_bound(ct, ctinfo, key.dqpn)) {
		if (!cnp_from_peer(rn, skb, ROCECT_IIF_UNBOUND, pkt))
			return not_the_sender(rn, skb, ct, pkt,
						      ROCECT_CTR_CNP_FORGED);
		return NF_ACCEPT;
	}
	return policy_verdict(rn, skb, ct, pkt, ROCECT_CTR_UNKNOWN_QP_DROPPED,
			      "CNP to no QP entry");
}

/*
 * A CM MAD counts only if its ICRC is right over the bytes captured (the
 * parser classes a MAD CM only when all of them are) and its source is not
 * spoofed from another interface.
 */
static int cm_verdict(struct rocect_net *rn, struct sk_buff *skb,
		      struct nf_conn *ct, const u8 *ip, u32 caplen,
		      const struct roce_pkt *pkt)
{
	if (pkt->len > caplen || !roce_icrc_verify(ip, pkt->l4_off, pkt->len)) {
		rocect_stats_inc(rn, ROCECT_CTR_ICRC_BAD);
		return policy_verdict(rn, skb, ct, pkt, ROCECT_CTR_DROP_ICRC,
				      "CM MAD with a bad ICRC");
	}
	if (!rocect_rp_check(rn, skb, pkt)) {
		rocect_stats_inc(rn, ROCECT_CTR_CM_SPOOFED);
		/* Untracked, so unanswered, but never past a refusing rule. */
		if (rocect_policy_refuses(rn, pkt, nf_ct_zone(ct)->id))
			return drop_counted(rn, skb, ct, pkt,
					    ROCECT_CTR_POLICY_DROPPED,
					    "REQ the service policy refuses");
		return policy_verdict(rn, skb, ct, pkt, ROCECT_CTR_DROP_SPOOFED,
				      "CM MAD from a spoofed source");
	}
	switch (rocect_cm_packet(rn, ct, pkt,
				 rocect_arrival(rn, skb, pkt->family))) {
	case ROCECT_POLICY_ACCEPT:
		return NF_ACCEPT;
	case ROCECT_POLICY_REJECT:
		rocect_cm_reject(rn, skb, pkt);
		fallthrough;
	default:
		return drop_counted(rn, skb, ct, pkt, ROCECT_CTR_POLICY_DROPPED,
				    "REQ the service policy refuses");
	}
}

/**
 * class_verdict() - the verdict on a RoCE packet neither a CM MAD nor data
 * @rn: the namespace's state
 * @skb: the packet
 * @ct: its conntrack, or NULL for the guard's packets (guard.c)
 * @ctinfo: the packet's direction in @ct
 * @zone: the conntrack zone of the packet
 * @pkt: its parse: another MAD to QP1, a CNP, malformed or of a reserved
 *	opcode
 *
 * Return: %NF_ACCEPT or %NF_DROP.
 */
static __always_inline int
class_verdict(struct rocect_net *rn, struct sk_buff *skb,
	      const struct nf_conn *ct, enum ip_conntrack_info ctinfo,
	      u16 zone, const struct roce_pkt *pkt)
{
	switch (pkt->class) {
	case ROCE_CLASS_GSI_OTHER:
		return NF_ACCEPT;
	case ROCE_CLASS_CNP:
		return cnp_verdict(rn, skb, ct, ctinfo, zone, pkt);
	case ROCE_CLASS_MALFORMED:
		/*
		 * Not UDP on a UDP conntrack: an ICMP error about one of the
		 * flow's packets, which conntrack relates to it. It is no
		 * RoCE to vouch for, and path MTU discovery needs it.
		 */
		if (pkt->malformed == ROCE_MAL_NOT_UDP &&
		    (ctinfo == IP_CT_RELATED || ctinfo == IP_CT_RELATED_REPLY))
			return NF_ACCEPT;
		return policy_verdict(rn, skb, ct, pkt, ROCECT_CTR_DROP_MALFORMED,
				      roce_malformed_name(pkt->malformed));
	default:
		return policy_verdict(rn, skb, ct, pkt,
				      ROCECT_CTR_DROP_UNKNOWN_OPCODE,
				      "reserved opcode");
	}
}

/* Out of line, for the guard (guard.c); the helper inlines it. */
int rocect_class_verdict(struct rocect_net *rn, struct sk_buff *skb,
			 const struct nf_conn *ct,
			 enum ip_conntrack_info ctinfo, u16 zone,
			 const struct roce_pkt *pkt)
{
	return class_verdict(rn, skb, ct, ctinfo, zone, pkt);
}

/**
 * rocect_gso_verdict() - the verdict on a GRO super-packet
 * @rn: the namespace's state
 * @skb: the packet, skb_is_gso()
 * @ct: its conntrack, or NULL for the guard's packets
 *
 * It carries one BTH per segment, but only the first is in sight: strict
 * mode cannot vouch for the others.
 *
 * Return: %NF_ACCEPT to go on with its first segment, or %NF_DROP.
 */
int rocect_gso_verdict(struct rocect_net *rn, struct sk_buff *skb,
		       const struct nf_conn *ct)
{
	rocect_stats_inc(rn, ROCECT_CTR_GSO);
	return policy_verdict(rn, skb, ct, NULL, ROCECT_CTR_DROP_GSO,
			      "GRO super-packet");
}

static int roce_help(struct sk_buff *skb, unsigned int protoff,
		     struct nf_conn *ct, enum ip_conntrack_info ctinfo)
{
	struct net *net = nf_ct_net(ct);
	struct rocect_net *rn = rocect_net_rcu(net);
	const struct rocect_ct_priv *priv = rocect_ct_priv(ct);
	unsigned int nhoff = skb_network_offset(skb);
	u32 pktlen = skb->len - nhoff;
	u32 caplen = min_t(u32, pktlen, CAPTURE_LEN);
	/*
	 * Not zeroed on entry (CONFIG_INIT_STACK_ALL_ZERO would clear their
	 * 600 bytes for every packet): buf is read only where
	 * skb_header_pointer() filled it, pkt only where roce_parse() wrote it.
	 */
	struct roce_pkt pkt __uninitialized;
	u8 buf[CAPTURE_LEN] __uninitialized;
	struct rocect_qp_key key __uninitialized;	/* filled where read */
	const u8 *ip;

	rocect_flow_note(rn, ct, priv);
	rocect_expect_hold(rn, ct, priv);
	if (unlikely(skb_is_gso(skb)) &&
	    rocect_gso_verdict(rn, skb, ct) == NF_DROP)
		return NF_DROP;
	ip = skb_header_pointer(skb, nhoff, caplen, buf);
	if (!ip)
		return NF_ACCEPT;

	roce_parse(ip, caplen, pktlen, &pkt);
	rocect_stats_packet(rn->stats, &pkt);
	switch (pkt.class) {
	case ROCE_CLASS_CM:
		return cm_verdict(rn, skb, ct, ip, caplen, &pkt);
	case ROCE_CLASS_GSI_OTHER:
	case ROCE_CLASS_CNP:
	case ROCE_CLASS_MALFORMED:
	case ROCE_CLASS_UNKNOWN_OPCODE:
		return class_verdict(rn, skb, ct, ctinfo, nf_ct_zone(ct)->id,
				     &pkt);
	default:
		rocect_qp_key_of(&key, nf_ct_zone(ct)->id, &pkt);
		return data_verdict(rn, skb, ct, ctinfo, &key,
				    rocect_qp_find(rn, &key), ip, caplen, &pkt);
	}
}

/**
 * rocect_helper_init() - register helper "roce" for IPv4 and IPv6
 * @ports: UDP ports to register it on; the first is named "roce", others
 *	"roce-<port>"
 * @nports: number of @ports, 1 to %ROCECT_MAX_PORTS
 *
 * Return: 0 or a negative errno.
 */
int rocect_helper_init(const unsigned short *ports, unsigned int nports)
{
	unsigned int i;
	int err;

	if (nports < 1 || nports > ROCECT_MAX_PORTS)
		return -EINVAL;
	for (i = 0; i < nports; i++) {
		if (!ports[i]) {
			pr_err("ports: 0 is not a UDP port\n");
			return -EINVAL;
		}
		/* Names ports other than 4791 "roce-<port>" itself. */
		nf_ct_helper_init(&helpers[2 * i], AF_INET, IPPROTO_UDP,
				  ROCECT_HELPER_NAME, ROCE_UDP_PORT, ports[i],
				  ports[i], rocect_expect_policy, ROCECT_EXP_CLASS_MAX,
				  roce_help, NULL,
				  THIS_MODULE);
		nf_ct_helper_init(&helpers[2 * i + 1], AF_INET6, IPPROTO_UDP,
				  ROCECT_HELPER_NAME, ROCE_UDP_PORT, ports[i],
				  ports[i], rocect_expect_policy, ROCECT_EXP_CLASS_MAX,
				  roce_help, NULL,
				  THIS_MODULE);
	}
	err = nf_conntrack_helpers_register(helpers, 2 * nports);
	if (err) {
		pr_err("failed to register helpers: %d\n", err);
		return err;
	}
	nr_helpers = 2 * nports;
	return 0;
}

/**
 * rocect_helper_exit() - unregister the helpers
 */
void rocect_helper_exit(void)
{
	nf_conntrack_helpers_unregister(helpers, nr_helpers);
}
