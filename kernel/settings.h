/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every setting of a namespace, once, in the order the netlink spec lists
 * them: ROCECT_SETTING(name, ATTR, type, min, max, default). It becomes
 * ROCECT_CFG_<name>, its index in struct rocect_config (read with
 * rocect_cfg()), the default of each new namespace (checked against min
 * and max when a module parameter changes it), and netlink attribute
 * ROCECT_A_CONFIG_<ATTR> of that type with that range.
 * Adding a setting is a line here, its module parameter (config.c), its
 * uapi attribute and its documentation; `make lint` checks that the uapi,
 * the spec, the CLI and the docs agree. The CLI takes each range from
 * here too (tools/rocect/config.c): bounds belong in config_limits.h.
 *
 * No include guard: users define ROCECT_SETTING, include this file, and
 * undefine it.
 */
ROCECT_SETTING(max_qps, MAX_QPS, u32, 1, ROCECT_MAX_QPS_MAX, 65536)
ROCECT_SETTING(idle_timeout, IDLE_TIMEOUT, u32, 1, ROCECT_IDLE_TIMEOUT_MAX, 300)
ROCECT_SETTING(timewait_timeout, TIMEWAIT_TIMEOUT, u32, 1,
	       ROCECT_TIMEWAIT_TIMEOUT_MAX, 10)
ROCECT_SETTING(unknown_qp, UNKNOWN_QP, u8, 0, ROCECT_UNKNOWN_QP_MAX, 0)
ROCECT_SETTING(max_conns, MAX_CONNS, u32, 1, ROCECT_MAX_CONNS_MAX, 32768)
ROCECT_SETTING(cnp, CNP, u8, 0, 1, 0)
/* DCQCN (SIGCOMM 2015) used 50 us between CNPs to one QP. */
ROCECT_SETTING(cnp_interval, CNP_INTERVAL_US, u32, 1, ROCECT_CNP_INTERVAL_MAX,
	       50)
ROCECT_SETTING(cnp_max_rate, CNP_MAX_RATE, u32, 1, ROCECT_CNP_MAX_RATE_MAX,
	       100000)
/* As hardware notification points mark them: DSCP 48, ECT(0), priority 6. */
ROCECT_SETTING(cnp_dscp, CNP_DSCP, u8, 0, 63, 48)
ROCECT_SETTING(cnp_ecn, CNP_ECN, u8, 0, 3, 2)
ROCECT_SETTING(cnp_priority, CNP_PRIORITY, u32, 0, U32_MAX, 6)
ROCECT_SETTING(cnp_ttl, CNP_TTL, u8, 1, 255, 64)
ROCECT_SETTING(cnp_sport, CNP_SPORT, u32, 0, ROCECT_CNP_SPORT_COPY,
	       ROCECT_CNP_SPORT_COPY)
ROCECT_SETTING(cnp_clear_ce, CNP_CLEAR_CE, u8, 0, 1, 0)
/*
 * RDMA CM sends a REQ (or REP) up to 16 times, 4.6 s apart on RoCE
 * (response timeout 20, packet lifetime 16): 74 s until it gives up.
 */
ROCECT_SETTING(half_open_timeout, HALF_OPEN_TIMEOUT, u32, 1,
	       ROCECT_HALF_OPEN_TIMEOUT_MAX, 75)
ROCECT_SETTING(rp_check, RP_CHECK, u8, 0, 1, 1)
ROCECT_SETTING(learn, LEARN, u8, 0, 1, 0)
/* Four hosts that each hold their share fill the table; one cannot. */
ROCECT_SETTING(source_share, SOURCE_SHARE, u8, 1, 100, 25)
/* A QP's packets come from one interface and one source port: bind them. */
ROCECT_SETTING(check_iface, CHECK_IFACE, u8, 0, 1, 1)
ROCECT_SETTING(check_sport, CHECK_SPORT, u8, 0, 1, 1)
ROCECT_SETTING(check_cnp, CHECK_CNP, u8, 0, 1, 1)
/*
 * A live sender moves its PSNs on one at a time (a READ by its packets,
 * from its RETH), and retransmits back to what the peer has not
 * acknowledged (psn_window.h): 4096 PSNs either way of that hold losses,
 * coalesced ACKs and lost ACKs, and let 1 blind guess in 2048 through;
 * 2^23 lets every PSN pass.
 */
ROCECT_SETTING(check_psn, CHECK_PSN, u8, 0, 1, 1)
ROCECT_SETTING(psn_window, PSN_WINDOW, u32, 1, ROCECT_PSN_WINDOW_MAX, 4096)
/* A UD QP takes one Q_Key: its peer's packets all carry it. */
ROCECT_SETTING(check_qkey, CHECK_QKEY, u8, 0, 1, 1)
/* Data flows that one pair explains may leave for a flowtable (offload.c). */
ROCECT_SETTING(offload, OFFLOAD, u8, 0, ROCECT_OFFLOAD_MAX, 0)
/* What the service policy does with a REQ no rule matches. */
ROCECT_SETTING(policy_default, POLICY_DEFAULT, u8, 0, ROCECT_POLICY_ACTION_MAX,
	       ROCECT_POLICY_ACCEPT)
/* A REQ flood aimed at a refused service must not become a REJ flood. */
ROCECT_SETTING(reject_max_rate, REJECT_MAX_RATE, u32, 1,
	       ROCECT_REJECT_MAX_RATE_MAX, 1000)
/* A drop flood must not become an event flood for monitor's listeners. */
ROCECT_SETTING(drop_events_max_rate, DROP_EVENTS_MAX_RATE, u32, 1,
	       ROCECT_DROP_EVENTS_MAX_RATE_MAX, 100)
