// SPDX-License-Identifier: GPL-2.0
/*
 * rocect metrics: the namespace's counters, entry counts and table limits
 * in the Prometheus text exposition format, for node_exporter's textfile
 * collector or any scraper that reads it:
 *
 *   rocect metrics >/var/lib/prometheus/node-exporter/rocect.prom.$$ &&
 *   mv /var/lib/prometheus/node-exporter/rocect.prom.$$ \
 *	/var/lib/prometheus/node-exporter/rocect.prom
 *
 * Every counter of "rocect stats" becomes a metric named by what it counts
 * and its unit, those of one kind one metric with a label (the table
 * below); the groups (class, malformed, cm) become one metric each with a
 * label; qp-count, conn-count and cong-count are gauges, as are the
 * max-qps and max-conns settings. The names of 0.3 (rocect_<name>_total)
 * follow for one release. With -n NAME every sample carries netns="NAME".
 *
 * "top N" adds per-QP series for the N entries seen lately with the most
 * of one counter; see print_top().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocect.h"

/*
 * Each counter of "rocect stats" as a metric named by what it counts and
 * its unit; the counters that split one count by reason are one metric
 * with a label (as node_exporter and the kernel's drop reasons do). HELP
 * is on each metric's first row.
 */
static const struct {
	const char *key, *metric, *label, *value, *help;
} counters[] = {
	{ "packets", "rocect_inspected_packets_total", NULL, NULL,
	  "Packets the helper inspected." },
	{ "ce", "rocect_ce_marked_packets_total", NULL, NULL,
	  "CE-marked data packets of tracked QPs." },
	{ "gso", "rocect_gso_packets_total", NULL, NULL,
	  "GRO super-packets seen." },
	{ "unknown-qp-dropped", "rocect_dropped_packets_total", "reason",
	  "unknown-qp", "Packets dropped by unknown-qp drop or the service policy, by reason." },
	{ "drop-malformed", "rocect_dropped_packets_total", "reason", "malformed", NULL },
	{ "drop-unknown-opcode", "rocect_dropped_packets_total", "reason",
	  "unknown-opcode", NULL },
	{ "drop-icrc", "rocect_dropped_packets_total", "reason", "icrc", NULL },
	{ "drop-spoofed", "rocect_dropped_packets_total", "reason", "spoofed", NULL },
	{ "drop-gso", "rocect_dropped_packets_total", "reason", "gso", NULL },
	{ "policy-dropped", "rocect_dropped_packets_total", "reason", "policy", NULL },
	{ "wrong-iface", "rocect_failed_check_packets_total", "check", "iface",
	  "Packets failing a check of their QP's binding, by check." },
	{ "wrong-sport", "rocect_failed_check_packets_total", "check", "sport", NULL },
	{ "wrong-psn", "rocect_failed_check_packets_total", "check", "psn", NULL },
	{ "wrong-qkey", "rocect_failed_check_packets_total", "check", "qkey", NULL },
	{ "cnp-forged", "rocect_failed_check_packets_total", "check", "cnp", NULL },
	{ "icrc-bad", "rocect_cm_mads_ignored_total", "reason", "icrc",
	  "CM MADs the connection tracking ignored, by reason." },
	{ "cm-spoofed", "rocect_cm_mads_ignored_total", "reason", "spoofed", NULL },
	{ "cm-unmatched", "rocect_cm_mads_ignored_total", "reason", "unmatched", NULL },
	{ "cm-unexpected", "rocect_cm_mads_ignored_total", "reason", "unexpected", NULL },
	{ "qp-created", "rocect_qp_entries_created_total", NULL, NULL,
	  "QP entries created." },
	{ "qp-destroyed", "rocect_qp_entries_destroyed_total", NULL, NULL,
	  "QP entries deleted, by any means." },
	{ "qp-expired", "rocect_qp_entries_expired_total", NULL, NULL,
	  "QP entries expired." },
	{ "qp-inferred", "rocect_qp_entries_inferred_total", NULL, NULL,
	  "QP entries inferred from traffic (learn on)." },
	{ "qp-recovered", "rocect_qp_entries_recovered_total", NULL, NULL,
	  "QP entries recovered from traffic after a failover." },
	{ "table-full", "rocect_qp_entries_refused_total", "reason", "max-qps",
	  "QP entries refused, by reason." },
	{ "qp-source-full", "rocect_qp_entries_refused_total", "reason",
	  "source-share", NULL },
	{ "qp-conflict", "rocect_qp_entries_refused_total", "reason", "conflict", NULL },
	{ "conn-created", "rocect_connections_created_total", NULL, NULL,
	  "Connections tracked." },
	{ "conn-destroyed", "rocect_connections_destroyed_total", NULL, NULL,
	  "Connections forgotten." },
	{ "conn-expired", "rocect_connections_expired_total", NULL, NULL,
	  "Connections forgotten by timeout." },
	{ "conn-evicted", "rocect_connections_evicted_total", NULL, NULL,
	  "Finished or half-open connections evicted for new ones." },
	{ "conn-full", "rocect_connections_refused_total", "reason", "max-conns",
	  "Connections refused, by reason." },
	{ "conn-source-full", "rocect_connections_refused_total", "reason",
	  "source-share", NULL },
	{ "flow-adopted", "rocect_adopted_flows_total", NULL, NULL,
	  "Conntracks injected by conntrackd and adopted." },
	{ "expect-created", "rocect_expectations_created_total", NULL, NULL,
	  "Conntrack expectations set up." },
	{ "expect-failed", "rocect_expectations_failed_total", NULL, NULL,
	  "Conntrack expectations refused by conntrack." },
	{ "expect-kept", "rocect_expectations_kept_total", NULL, NULL,
	  "Conntrack expectations not set up: one in place serves." },
	{ "offload-flows", "rocect_offload_flows_total", NULL, NULL,
	  "Data flows admitted without the helper, for a flowtable." },
	{ "offload-revoked", "rocect_offload_revoked_total", NULL, NULL,
	  "Of those, killed so that their next packet is decided again." },
	{ "policy-default", "rocect_policy_default_requests_total", NULL, NULL,
	  "REQs no service policy rule matched: policy-default decided them." },
	{ "policy-rejected", "rocect_policy_rejects_sent_total", NULL, NULL,
	  "REJs the service policy sent in a server's name." },
	{ "policy-rej-unsent", "rocect_policy_rejects_not_sent_total", NULL, NULL,
	  "REJs not sent: over reject-max-rate, no route, no memory." },
	{ "cnp-sent", "rocect_cnps_sent_total", NULL, NULL, "CNPs sent." },
	{ "cnp-interval", "rocect_cnps_not_sent_total", "reason", "interval",
	  "CNPs not sent, by reason." },
	{ "cnp-capped", "rocect_cnps_not_sent_total", "reason", "max-rate", NULL },
	{ "cnp-no-route", "rocect_cnps_not_sent_total", "reason", "no-route", NULL },
	{ "cnp-unknown-qp", "rocect_cnps_not_sent_total", "reason", "unknown-qp", NULL },
	{ "cnp-tx-dropped", "rocect_cnps_tx_dropped_total", NULL, NULL,
	  "CNPs the transmit path dropped." },
	{ "learn-ambiguous", "rocect_learn_ambiguous_responses_total", NULL, NULL,
	  "Responses whose PSN agreed with requests to several QPs." },
	{ "learn-evicted", "rocect_learn_records_evicted_total", NULL, NULL,
	  "Host pairs' learning records taken over." },
};

/* The groups of "rocect -j stats": one metric each, its label the name. */
static const struct {
	const char *key, *metric, *label, *help;
} groups[] = {
	{ "class", "rocect_class_packets_total", "class", "Packets per class." },
	{ "malformed", "rocect_malformed_packets_total", "reason",
	  "Malformed packets per reason." },
	{ "cm", "rocect_cm_mads_total", "attribute", "CM MADs per attribute." },
};

/* Gauges: present entries from the counters, limits from the settings. */
static const struct {
	const char *key, *metric, *help;
	bool setting;
} gauges[] = {
	{ "qp-count", "rocect_qp_entries", "QP entries present.", false },
	{ "conn-count", "rocect_conn_entries", "Connections tracked now.", false },
	{ "cong-count", "rocect_congestion_records",
	  "QP entries with congestion counters (CE seen or CNP asked for).", false },
	{ "max-qps", "rocect_max_qps", "The max-qps setting.", true },
	{ "max-conns", "rocect_max_conns", "The max-conns setting.", true },
};

/* A label's value: backslash, double quote and newline escaped. */
static void put_label_value(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			putchar('\\');
		if (*s == '\n')
			fputs("\\n", stdout);
		else
			putchar(*s);
	}
}

/* One sample: NAME{LABELS} VALUE, the netns label first if any. */
static void sample(const struct rd *rd, const char *metric, const char *label,
		   const char *value_of_label, uint64_t v)
{
	const char *sep = rd->netns && label ? "," : "";

	printf("%s", metric);
	if (rd->netns || label)
		printf("{");
	if (rd->netns) {
		printf("netns=\"");
		put_label_value(rd->netns);
		printf("\"");
	}
	if (label) {
		printf("%s%s=\"", sep, label);
		put_label_value(value_of_label);
		printf("\"");
	}
	if (rd->netns || label)
		printf("}");
	printf(" %llu\n", (unsigned long long)v);
}

/*
 * metrics top N: a series per QP entry for at most this many entries.
 * Each adds four series of seven labels to every scrape; 1000 entries are
 * 4000 series, about what node_exporter itself exports, while a million
 * entries would be four million: a Prometheus server pays for every
 * series it ever saw.
 */
#define METRICS_TOP_MAX		1000

/*
 * The entries ranked: those with a packet (or made) in the last minute,
 * four scrapes of the example timer; "seen-within MS" changes it.
 */
#define METRICS_SEEN_WITHIN_MS	60000

/* The per-QP counters, each a "by" word (qp show's key) and a metric. */
static const struct {
	const char *key;
	uint16_t attr;
	const char *metric, *help;
} qp_counters[] = {
	{ "packets", ROCECT_A_QP_PACKETS, "rocect_qp_packets_total",
	  "Packets of a busy QP entry (src to QP dqpn at dst)." },
	{ "bytes", ROCECT_A_QP_BYTES, "rocect_qp_bytes_total",
	  "Bytes of a busy QP entry's packets." },
	{ "ce", ROCECT_A_QP_CE64, "rocect_qp_ce_marked_packets_total",
	  "CE-marked data packets of a busy QP entry." },
	{ "cnps", ROCECT_A_QP_CNPS64, "rocect_qp_cnps_sent_total",
	  "CNPs sent to a busy QP entry's source QP." },
};

/* The labels of a per-QP series, keys of qp show's rows. */
static const char *const qp_labels[] = {
	"zone", "src", "dst", "dqpn", "sqpn", "origin",
};

/**
 * struct top_entry - an entry among the busiest so far
 * @v: its count of the counter ranked by
 * @key: zone, family, addresses and destination QP, big-endian: ties in
 *	@v are broken by it, so that a scrape's choice does not depend on
 *	the order of the table
 * @row: the entry as qp show's row
 */
struct top_entry {
	uint64_t v;
	uint8_t key[2 + 1 + 16 + 16 + 4];
	json_object *row;
};

/**
 * struct metrics_top - what "metrics top" asks for and has found
 * @max: N, 0 without "top"
 * @by: the index in qp_counters[] ranked by
 * @seen_within: the entries ranked are those seen in the last this many ms
 * @n: entries in @heap
 * @heap: the best @n so far, least first (a min-heap): memory for N
 *	entries however many the dump sends
 */
struct metrics_top {
	uint32_t max;
	unsigned int by;
	uint32_t seen_within;
	uint32_t n;
	struct top_entry *heap;
};

/* Does @a rank below @b: fewer, or as many and a greater key? */
static bool ranks_below(const struct top_entry *a, const struct top_entry *b)
{
	if (a->v != b->v)
		return a->v < b->v;
	return memcmp(a->key, b->key, sizeof(a->key)) > 0;
}

static void top_swap(struct metrics_top *t, uint32_t i, uint32_t j)
{
	struct top_entry e = t->heap[i];

	t->heap[i] = t->heap[j];
	t->heap[j] = e;
}

static void sift_up(struct metrics_top *t, uint32_t i)
{
	while (i && ranks_below(&t->heap[i], &t->heap[(i - 1) / 2])) {
		top_swap(t, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void sift_down(struct metrics_top *t, uint32_t i)
{
	uint32_t c;

	while ((c = 2 * i + 1) < t->n) {
		if (c + 1 < t->n && ranks_below(&t->heap[c + 1], &t->heap[c]))
			c++;
		if (!ranks_below(&t->heap[c], &t->heap[i]))
			break;
		top_swap(t, i, c);
		i = c;
	}
}

static void put_key_bytes(uint8_t *at, const struct nlattr *a4,
			  const struct nlattr *a6)
{
	if (a4 && mnl_attr_get_payload_len(a4) == 4)
		memcpy(at, mnl_attr_get_payload(a4), 4);
	else if (a6 && mnl_attr_get_payload_len(a6) == 16)
		memcpy(at, mnl_attr_get_payload(a6), 16);
}

/* One entry of the dump: kept if it beats the least of those kept. */
static int top_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECT_A_QP_MAX + 1];
	struct metrics_top *t = data;
	const struct nlattr *a;
	struct top_entry e = { 0 };
	uint32_t dqpn, i;
	uint16_t zone;

	rd_attrs(nlh, tb, ROCECT_A_QP_MAX);
	a = tb[qp_counters[t->by].attr];
	e.v = a ? mnl_attr_get_u64(a) : 0;
	/* None of the counter: not among the busiest, whatever N. */
	if (!e.v)
		return MNL_CB_OK;
	zone = tb[ROCECT_A_QP_ZONE] ? mnl_attr_get_u16(tb[ROCECT_A_QP_ZONE]) : 0;
	dqpn = tb[ROCECT_A_QP_DQPN] ? mnl_attr_get_u32(tb[ROCECT_A_QP_DQPN]) : 0;
	e.key[0] = zone >> 8;
	e.key[1] = zone;
	e.key[2] = tb[ROCECT_A_QP_SADDR6] ? 6 : 4;
	put_key_bytes(&e.key[3], tb[ROCECT_A_QP_SADDR4], tb[ROCECT_A_QP_SADDR6]);
	put_key_bytes(&e.key[19], tb[ROCECT_A_QP_DADDR4], tb[ROCECT_A_QP_DADDR6]);
	e.key[35] = dqpn >> 24;
	e.key[36] = dqpn >> 16;
	e.key[37] = dqpn >> 8;
	e.key[38] = dqpn;
	if (t->n == t->max && !ranks_below(&t->heap[0], &e))
		return MNL_CB_OK;
	/*
	 * A walk the table's resize restarted shows entries again: one kept
	 * already is updated in place, since a series must appear once.
	 */
	for (i = 0; i < t->n; i++)
		if (!memcmp(t->heap[i].key, e.key, sizeof(e.key)))
			break;
	if (i < t->n && e.v <= t->heap[i].v)
		return MNL_CB_OK;
	if (i == t->n && t->n < t->max)
		t->n++;
	else if (i == t->n)
		i = 0;
	/* Kept: in a new place at the end, the least's, or its own. */
	json_object_put(t->heap[i].row);
	e.row = qp_to_json(nlh);
	t->heap[i] = e;
	sift_up(t, i);
	sift_down(t, i);
	return MNL_CB_OK;
}

static int rank_cmp(const void *pa, const void *pb)
{
	const struct top_entry *a = pa, *b = pb;

	return ranks_below(a, b) ? 1 : ranks_below(b, a) ? -1 : 0;
}

/*
 * Dump the entries seen within @t->seen_within ms (the kernel filters;
 * it sends only those) and keep the best N, busiest first in @t->heap.
 * Return: 0, or -1 after saying why.
 */
static int top_collect(struct rd *rd, struct metrics_top *t)
{
	struct nlmsghdr *nlh = rd_msg(rd, ROCECT_CMD_QP_GET, NLM_F_DUMP);

	t->heap = calloc(t->max, sizeof(*t->heap));
	if (!t->heap) {
		pr_err("metrics: %s", strerror(ENOMEM));
		return -1;
	}
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SEEN_WITHIN, t->seen_within);
	/*
	 * A dump the table changed under may miss a new entry or show one
	 * twice (top_cb() keeps it once): good enough for a ranking, and
	 * cheaper than walking a big table again.
	 */
	if (rd_talk(rd, nlh, top_cb, t) && errno != EAGAIN) {
		rd_perror();
		return -1;
	}
	qsort(t->heap, t->n, sizeof(*t->heap), rank_cmp);
	return 0;
}

static void top_free(struct metrics_top *t)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		json_object_put(t->heap[i].row);
	free(t->heap);
	t->heap = NULL;
	t->n = 0;
}

/* One per-QP sample: the entry's key, source QP and origin as labels. */
static void qp_sample(const struct rd *rd, const char *metric,
		      json_object *row, uint64_t v)
{
	json_object *val;
	unsigned int i;

	printf("%s{", metric);
	if (rd->netns) {
		printf("netns=\"");
		put_label_value(rd->netns);
		printf("\",");
	}
	for (i = 0; i < ARRAY_SIZE(qp_labels); i++) {
		printf("%s%s=\"", i ? "," : "", qp_labels[i]);
		if (json_object_object_get_ex(row, qp_labels[i], &val))
			put_label_value(json_object_get_string(val));
		printf("\"");
	}
	printf("} %llu\n", (unsigned long long)v);
}

/*
 * The per-QP series: each counter of the entries kept, busiest first.
 * A one-shot scrape cannot measure rates, so the entries are ranked by
 * their counts since they were made, among those seen lately; the rates
 * are Prometheus' to compute.
 */
static void print_top(const struct rd *rd, const struct metrics_top *t)
{
	unsigned int c;
	uint32_t i;
	json_object *v;

	if (!t->n)
		return;
	for (c = 0; c < ARRAY_SIZE(qp_counters); c++) {
		printf("# HELP %s %s\n# TYPE %s counter\n", qp_counters[c].metric,
		       qp_counters[c].help, qp_counters[c].metric);
		for (i = 0; i < t->n; i++) {
			if (!json_object_object_get_ex(t->heap[i].row,
						       qp_counters[c].key, &v))
				v = NULL;
			qp_sample(rd, qp_counters[c].metric, t->heap[i].row,
				  v ? json_object_get_uint64(v) : 0);
		}
	}
}

static int counter_row(const char *key)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(counters); i++)
		if (!strcmp(counters[i].key, key))
			return i;
	return -1;
}

static bool is_gauge_or_group(const char *key)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gauges); i++)
		if (!strcmp(gauges[i].key, key))
			return true;
	for (i = 0; i < ARRAY_SIZE(groups); i++)
		if (!strcmp(groups[i].key, key))
			return true;
	return false;
}

/* The counters' metrics, each with HELP and TYPE before its first sample. */
static void print_counters(const struct rd *rd, json_object *stats)
{
	unsigned int i, j;
	json_object *v;
	bool head;

	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		if (!counters[i].help)
			continue;	/* printed with its metric's first row */
		head = false;
		for (j = i; j < ARRAY_SIZE(counters); j++) {
			if (strcmp(counters[j].metric, counters[i].metric) ||
			    !json_object_object_get_ex(stats, counters[j].key, &v))
				continue;
			if (!head)
				printf("# HELP %s %s\n# TYPE %s counter\n",
				       counters[i].metric, counters[i].help,
				       counters[i].metric);
			head = true;
			sample(rd, counters[j].metric, counters[j].label,
			       counters[j].value, json_object_get_uint64(v));
		}
	}
}

/*
 * The names of 0.3, rocect_<counter>_total, for one release more so that
 * dashboards and alerts can move; a counter this table misses keeps its
 * old name for good.
 */
static void print_old_names(const struct rd *rd, json_object *stats)
{
	char name[96], metric[128], help[256];
	int row;

	json_object_object_foreach(stats, key, val) {
		if (is_gauge_or_group(key))
			continue;
		rd_underscored(name, sizeof(name), key);	/* no dashes */
		snprintf(metric, sizeof(metric), "rocect_%s_total", name);
		row = counter_row(key);
		if (row < 0)
			snprintf(help, sizeof(help),
				 "A counter of rocect stats (see rocect(8)).");
		else if (counters[row].label)
			snprintf(help, sizeof(help),
				 "Deprecated, removed after 0.4: %s{%s=\"%s\"}.",
				 counters[row].metric, counters[row].label,
				 counters[row].value);
		else
			snprintf(help, sizeof(help),
				 "Deprecated, removed after 0.4: %s.",
				 counters[row].metric);
		printf("# HELP %s %s\n# TYPE %s counter\n", metric, help, metric);
		sample(rd, metric, NULL, NULL, json_object_get_uint64(val));
	}
}

static void print_metrics(const struct rd *rd, json_object *stats,
			  json_object *cfg, const struct metrics_top *top)
{
	json_object *v;
	unsigned int i;

	print_counters(rd, stats);
	for (i = 0; i < ARRAY_SIZE(groups); i++) {
		if (!json_object_object_get_ex(stats, groups[i].key, &v))
			continue;
		printf("# HELP %s %s\n# TYPE %s counter\n", groups[i].metric,
		       groups[i].help, groups[i].metric);
		json_object_object_foreach(v, k, n)
			sample(rd, groups[i].metric, groups[i].label, k,
			       json_object_get_uint64(n));
	}
	for (i = 0; i < ARRAY_SIZE(gauges); i++) {
		if (!json_object_object_get_ex(gauges[i].setting ? cfg : stats,
					       gauges[i].key, &v))
			continue;
		printf("# HELP %s %s\n# TYPE %s gauge\n", gauges[i].metric,
		       gauges[i].help, gauges[i].metric);
		sample(rd, gauges[i].metric, NULL, NULL, json_object_get_uint64(v));
	}
	print_top(rd, top);
	print_old_names(rd, stats);
}

/* Down (no module, no namespace, no permission) is a sample too. */
static int print_up(const struct rd *rd, bool up)
{
	printf("# HELP rocect_up 1 if the module answered, else 0\n"
	       "# TYPE rocect_up gauge\n");
	sample(rd, "rocect_up", NULL, NULL, up);
	return fflush(stdout) ? 1 : 0;
}

static int metrics_help(void)
{
	fprintf(stderr,
		"Usage: rocect [ -n NAME ] metrics [ top N [ by COUNTER ] [ seen-within MS ] ]\n"
		"COUNTER := { packets | bytes | ce | cnps }\n"
		"Counters and gauges in the Prometheus text format; rocect_up 0\n"
		"(and the reason on stderr) if the module does not answer.\n"
		"top N adds the per-QP series of the N entries (1 to %u) with the most\n"
		"of COUNTER (default packets) among those seen in the last MS ms\n"
		"(default %u); entries with none of it are left out.\n",
		METRICS_TOP_MAX, METRICS_SEEN_WITHIN_MS);
	return 0;
}

/* [ top N [ by COUNTER ] [ seen-within MS ] ]; -1 after saying what is wrong. */
static int metrics_args(struct rd *rd, struct metrics_top *t)
{
	bool by = false, seen = false;
	const char *w, *v;
	unsigned int c;

	t->by = 0;
	t->seen_within = METRICS_SEEN_WITHIN_MS;
	while ((w = rd_next(rd))) {
		if (strcmp(w, "top") && strcmp(w, "by") && strcmp(w, "seen-within")) {
			pr_err("metrics: unknown argument '%s'; try 'rocect metrics help'",
			       w);
			return -1;
		}
		v = rd_next(rd);
		if (!v) {
			pr_err("metrics: '%s' needs a value", w);
			return -1;
		}
		if (!strcmp(w, "top")) {
			if (rd_u32(v, METRICS_TOP_MAX, &t->max) || !t->max) {
				pr_err("metrics: invalid top '%s' (1 to %u QPs)", v,
				       METRICS_TOP_MAX);
				return -1;
			}
		} else if (!strcmp(w, "by")) {
			for (c = 0; c < ARRAY_SIZE(qp_counters); c++)
				if (!strcmp(v, qp_counters[c].key))
					break;
			if (c == ARRAY_SIZE(qp_counters)) {
				pr_err("metrics: invalid by '%s' (use packets, bytes, ce or cnps)",
				       v);
				return -1;
			}
			t->by = c;
			by = true;
		} else {
			if (rd_u32(v, ROCECT_SEEN_WITHIN_MAX, &t->seen_within) ||
			    !t->seen_within) {
				pr_err("metrics: invalid seen-within '%s' (1 to %u ms)",
				       v, ROCECT_SEEN_WITHIN_MAX);
				return -1;
			}
			seen = true;
		}
	}
	if (!t->max && (by || seen)) {
		pr_err("metrics: '%s' goes with 'top N'", by ? "by" : "seen-within");
		return -1;
	}
	return 0;
}

/**
 * cmd_metrics() - the "metrics" object
 * @rd: the invocation, positioned after "metrics"
 *
 * Return: the exit status.
 */
int cmd_metrics(struct rd *rd)
{
	struct metrics_top top = { 0 };
	json_object *stats, *cfg;
	bool up;
	int ret;

	if (rd_is(rd, "help"))
		return metrics_help();
	if (metrics_args(rd, &top))
		return 1;
	stats = json_object_new_object();
	cfg = json_object_new_object();
	up = !stats_collect(rd, stats) && !config_collect(rd, cfg) &&
	     (!top.max || !top_collect(rd, &top));
	if (up)
		print_metrics(rd, stats, cfg, &top);
	ret = print_up(rd, up);
	top_free(&top);
	json_object_put(stats);
	json_object_put(cfg);
	return ret;
}

/**
 * metrics_down() - "metrics" where the namespace could not be entered
 * @rd: the invocation, positioned after "metrics"
 *
 * A textfile collector must see the namespace down rather than keep the
 * figures of its last good run.
 *
 * Return: the exit status.
 */
int metrics_down(struct rd *rd)
{
	struct metrics_top top = { 0 };

	if (metrics_args(rd, &top))
		return 1;
	return print_up(rd, false);
}
