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
 * Every counter of "rocect stats" becomes rocect_<name>_total; the groups
 * (class, malformed, cm) become one metric each with a label; qp-count,
 * conn-count and cong-count are gauges, as are the max-qps and max-conns
 * settings. With
 * -n NAME every sample carries netns="NAME".
 */
#include <stdio.h>
#include <string.h>

#include "rocect.h"

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

static const char *help_of(const char *key)
{
	return stats_counter_help(key) ?: "A counter of rocect stats (see rocect(8)).";
}

/* "cnp-sent" -> "cnp_sent": metric names take no dashes. */
static void metric_name(char *buf, size_t len, const char *key)
{
	size_t i;

	for (i = 0; key[i] && i + 1 < len; i++)
		buf[i] = key[i] == '-' ? '_' : key[i];
	buf[i] = 0;
}

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

static void print_metrics(const struct rd *rd, json_object *stats,
			  json_object *cfg)
{
	char name[96], metric[128];
	json_object *v;
	unsigned int i;

	json_object_object_foreach(stats, key, val) {
		if (is_gauge_or_group(key))
			continue;
		metric_name(name, sizeof(name), key);
		snprintf(metric, sizeof(metric), "rocect_%s_total", name);
		printf("# HELP %s %s\n# TYPE %s counter\n", metric,
		       help_of(key), metric);
		sample(rd, metric, NULL, NULL, json_object_get_uint64(val));
	}
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
