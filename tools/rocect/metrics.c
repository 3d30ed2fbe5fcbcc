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
 */
#include <stdio.h>
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
			  json_object *cfg)
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

/**
 * cmd_metrics() - the "metrics" object
 * @rd: the invocation, positioned after "metrics"
 *
 * Return: the exit status.
 */
int cmd_metrics(struct rd *rd)
{
	json_object *stats, *cfg;
	bool up;
	int ret;

	if (rd_is(rd, "help")) {
		fprintf(stderr, "Usage: rocect [ -n NAME ] metrics\n"
			"Counters and gauges in the Prometheus text format; rocect_up 0\n"
			"(and the reason on stderr) if the module does not answer.\n");
		return 0;
	}
	if (!rd_no_arg(rd)) {
		pr_err("metrics takes no arguments; try 'rocect metrics help'");
		return 1;
	}
	stats = json_object_new_object();
	cfg = json_object_new_object();
	up = !stats_collect(rd, stats) && !config_collect(rd, cfg);
	if (up)
		print_metrics(rd, stats, cfg);
	ret = print_up(rd, up);
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
	if (!rd_no_arg(rd))
		return 1;
	return print_up(rd, false);
}
