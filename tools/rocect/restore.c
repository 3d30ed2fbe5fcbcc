// SPDX-License-Identifier: GPL-2.0
/*
 * rocect restore FILE: make the namespace's settings and managed QP entries
 * what FILE says, as `rocect save` wrote it. Unlike `rocect -b FILE`, which
 * only adds (and fails on an entry that exists), it is idempotent: managed
 * entries the file does not name are deleted, those it names differently
 * (another source QP, another interface) are replaced in place (no moment
 * without an entry for drop mode to drop in; their traffic binds them
 * afresh), the others are left alone with their counters and binding. So
 * a unit can run it at start, restart and reload alike. The service
 * policy's rules are left alone, hits and all, if they are the file's in
 * its order; else they are flushed and the file's added, so for that
 * moment policy-default decides.
 *
 * A file it cannot read as save's output is refused before anything
 * changes, as is one without a "config set" line (an empty or failed save
 * would otherwise delete every managed entry). A saved interface that does
 * not exist (yet, at boot) is left out with a warning: the entry is
 * restored unbound, as save writes an entry whose interface is gone.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocect.h"

/* "qp add" and six key-value pairs; "config set" and every setting. */
#define QP_WORDS		14
#define CONFIG_WORDS		64
#define MAX_CONFIG_LINES	8

/* One "qp add" line of the file. */
struct wanted {
	char key[96];		/* zone, addresses, destination QP */
	uint32_t sqpn;
	int iif;		/* -1: the line names no interface */
	bool present;		/* an entry with this key matches it */
	bool replace;		/* an entry with this key differs from it */
	int argc;
	char *argv[QP_WORDS];
};

/* The file: its "qp add" lines, sorted by key, and its "config set" lines. */
struct plan {
	struct wanted *qps;
	size_t n, cap;
	int config_argc[MAX_CONFIG_LINES];
	char *config_argv[MAX_CONFIG_LINES][CONFIG_WORDS];
	size_t nconfig;
	char **rules;		/* "policy add" lines, words joined by spaces */
	size_t nrules;
};

/* A "policy add" line of the file, kept as policy_rule_line() writes one. */
static int plan_rule(struct plan *p, char **words, int n, const char *where)
{
	char line[512], **grown;
	size_t used = 0;
	int i;

	for (i = 0; i < n && used < sizeof(line); i++)
		used += snprintf(line + used, sizeof(line) - used, "%s%s",
				 i ? " " : "", words[i]);
	grown = realloc(p->rules, (p->nrules + 1) * sizeof(*p->rules));
	if (used >= sizeof(line) || !grown) {
		pr_err("%s: %s", where, grown ? "policy add line too long" :
		       "out of memory");
		if (grown)
			p->rules = grown;
		return -1;
	}
	p->rules = grown;
	p->rules[p->nrules] = strdup(line);
	return p->rules[p->nrules++] ? 0 : -1;
}

/* The key of an entry as "ZONE SRC DST DQPN", addresses canonical. */
static int make_key(char *buf, size_t len, uint32_t zone, const char *src,
		    const char *dst, uint32_t dqpn)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	unsigned char a[16], b[16];
	uint8_t fs, fd;

	if (rd_addr(src, &fs, a) || rd_addr(dst, &fd, b) || fs != fd)
		return -1;
	inet_ntop(fs == 4 ? AF_INET : AF_INET6, a, s, sizeof(s));
	inet_ntop(fd == 4 ? AF_INET : AF_INET6, b, d, sizeof(d));
	snprintf(buf, len, "%u %s %s %u", zone, s, d, dqpn);
	return 0;
}

/* What is wrong with a line's addresses, as qp add says it. */
static void addr_error(const char *where, const char *src, const char *dst)
{
	unsigned char a[16];
	uint8_t fs, fd;

	if (!src || !dst)
		pr_err("%s: missing '%s'", where, src ? "dst" : "src");
	else if (rd_addr(src, &fs, a))
		pr_err("%s: invalid address '%s'", where, src);
	else if (rd_addr(dst, &fd, a))
		pr_err("%s: invalid address '%s'", where, dst);
	else
		pr_err("%s: src and dst of different families", where);
}

/*
 * A "qp add" line's words (after "qp add") into @w: -1 if malformed, after
 * saying what is wrong as qp add would. A "dev" that does not exist is
 * dropped from the line, with a warning.
 */
static int parse_add(struct wanted *w, const char *where)
{
	static const char *const keys[] = { "src", "dst", "zone", "dqpn",
					    "sqpn", "dev" };
	const char *val[ARRAY_SIZE(keys)] = { NULL };
	uint32_t zone = 0, dqpn, v;
	unsigned int k;
	int i;

	if ((w->argc - 2) % 2) {
		pr_err("%s: '%s' needs a value", where, w->argv[w->argc - 1]);
		return -1;
	}
	for (i = 2; i < w->argc; i += 2) {
		for (k = 0; k < ARRAY_SIZE(keys) && strcmp(w->argv[i], keys[k]); k++)
			;
		if (k == ARRAY_SIZE(keys) || val[k]) {
			pr_err("%s: %s '%s'", where,
			       k == ARRAY_SIZE(keys) ? "unknown key" : "repeated",
			       w->argv[i]);
			return -1;
		}
		val[k] = w->argv[i + 1];
	}
	for (k = 3; k <= 4; k++) {
		if (!val[k]) {
			pr_err("%s: missing '%s'", where, keys[k]);
			return -1;
		}
		if (rd_qpn(val[k], k == 3 ? &dqpn : &v)) {
			pr_err("%s: invalid %s '%s' (0 to 0xffffff)", where,
			       keys[k], val[k]);
			return -1;
		}
	}
	if (val[2] && rd_u32(val[2], 0xffff, &zone)) {
		pr_err("%s: invalid zone '%s' (0 to 65535)", where, val[2]);
		return -1;
	}
	w->sqpn = v;
	w->iif = -1;
	if (val[5]) {
		v = if_nametoindex(val[5]);
		if (v) {
			/* As the kernel has it: loopback is this host, 0. */
			w->iif = !strcmp(val[5], "lo") ? 0 : (int)v;
		} else {
			fprintf(stderr, "rocect: %s: no interface '%s': restored unbound\n",
				where, val[5]);
			for (i = 2; w->argv[i + 1] != val[5]; i += 2)
				;
			memmove(&w->argv[i], &w->argv[i + 2],
				(w->argc - i - 2) * sizeof(*w->argv));
			w->argc -= 2;
		}
	}
	if (make_key(w->key, sizeof(w->key), zone, val[0], val[1], dqpn)) {
		addr_error(where, val[0], val[1]);
		return -1;
	}
	return 0;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct wanted *)a)->key,
		      ((const struct wanted *)b)->key);
}

/* One line of the file into @p; -1 after saying what is wrong with it. */
static int plan_line(struct plan *p, char *line, const char *where)
{
	char *words[CONFIG_WORDS];
	struct wanted *q;
	int n;

	n = rd_split(line, words, CONFIG_WORDS);
	if (n < 0) {
		pr_err("%s: more than %d words", where, CONFIG_WORDS);
		return -1;
	}
	if (!n || words[0][0] == '#')
		return 0;
	if (n >= 3 && !strcmp(words[0], "config") && !strcmp(words[1], "set")) {
		if (p->nconfig == MAX_CONFIG_LINES) {
			pr_err("%s: more than %d config set lines", where,
			       MAX_CONFIG_LINES);
			return -1;
		}
		p->config_argc[p->nconfig] = n;
		memcpy(p->config_argv[p->nconfig++], words, n * sizeof(*words));
		return 0;
	}
	if (n == 2 && !strcmp(words[0], "policy") && !strcmp(words[1], "flush"))
		return 0;
	if (n >= 3 && !strcmp(words[0], "policy") && !strcmp(words[1], "add"))
		return plan_rule(p, words, n, where);
	if (n < 2 || strcmp(words[0], "qp") || strcmp(words[1], "add")) {
		pr_err("%s: restore takes config set, qp add and policy lines only",
		       where);
		return -1;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct wanted *qps = realloc(p->qps, cap * sizeof(*qps));

		if (!qps) {
			pr_err("%s: out of memory", where);
			return -1;
		}
		p->qps = qps;
		p->cap = cap;
	}
	q = &p->qps[p->n];
	memset(q, 0, sizeof(*q));
	if (n > QP_WORDS) {
		pr_err("%s: not a qp add line as rocect save writes", where);
		return -1;
	}
	q->argc = n;
	memcpy(q->argv, words, n * sizeof(*words));
	if (parse_add(q, where))
		return -1;
	p->n++;
	return 0;
}

/*
 * Read @file into @p, its lines kept in *@lines (the words point into
 * them); -1 after saying which line is wrong.
 */
static int read_plan(const char *file, struct plan *p, char ***lines,
		     size_t *nlines)
{
	FILE *in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char where[300], *line = NULL, **grown;
	size_t cap = 0;
	int lineno = 0, ret = 0;

	if (!in) {
		pr_err("%s: %s", file, strerror(errno));
		return -1;
	}
	while (!ret && getline(&line, &cap, in) >= 0) {
		grown = realloc(*lines, (*nlines + 1) * sizeof(**lines));
		if (!grown) {
			ret = -1;
			break;
		}
		*lines = grown;
		(*lines)[(*nlines)++] = line;
		snprintf(where, sizeof(where), "%s:%d", file, ++lineno);
		ret = plan_line(p, line, where);
		line = NULL;
		cap = 0;
	}
	free(line);
	if (in != stdin)
		fclose(in);
	if (!ret && !p->nconfig) {
		pr_err("%s: no config set line: not a file rocect save wrote", file);
		ret = -1;
	}
	return ret;
}

/* Delete the entry of @row: "qp del zone Z src S dst D dqpn Q". */
static int delete_row(struct rd *rd, json_object *row)
{
	json_object *zone, *src, *dst, *dqpn;
	char line[160], *argv[10];

	json_object_object_get_ex(row, "zone", &zone);
	json_object_object_get_ex(row, "src", &src);
	json_object_object_get_ex(row, "dst", &dst);
	json_object_object_get_ex(row, "dqpn", &dqpn);
	snprintf(line, sizeof(line), "qp del zone %d src %s dst %s dqpn %lld",
		 json_object_get_int(zone), json_object_get_string(src),
		 json_object_get_string(dst),
		 (long long)json_object_get_int64(dqpn));
	return rd_run_words(rd, rd_split(line, argv, ARRAY_SIZE(argv)), argv);
}

/*
 * Does @row match a line of @p? Then mark it present; if the line has its
 * key, mark it to replace the entry; else delete it.
 */
static int reconcile_row(struct rd *rd, struct plan *p, json_object *row)
{
	struct wanted probe, *w;
	json_object *v, *src, *dst, *zone, *dqpn, *sqpn;
	int64_t iif = -1;

	if (!json_object_object_get_ex(row, "zone", &zone) ||
	    !json_object_object_get_ex(row, "src", &src) ||
	    !json_object_object_get_ex(row, "dst", &dst) ||
	    !json_object_object_get_ex(row, "dqpn", &dqpn) ||
	    !json_object_object_get_ex(row, "sqpn", &sqpn) ||
	    make_key(probe.key, sizeof(probe.key), json_object_get_int(zone),
		     json_object_get_string(src), json_object_get_string(dst),
		     json_object_get_int64(dqpn)))
		return 1;
	if (json_object_object_get_ex(row, "iif", &v))
		iif = json_object_get_int64(v);
	w = bsearch(&probe, p->qps, p->n, sizeof(*p->qps), by_key);
	/* Bound by traffic where the file names no interface: the same. */
	if (w && w->sqpn == json_object_get_int64(sqpn) &&
	    (w->iif == -1 || w->iif == iif)) {
		w->present = true;
		return 0;
	}
	if (w) {
		w->replace = true;
		return 0;
	}
	return delete_row(rd, row);
}

/* Are the namespace's rules the file's, in order? */
static int same_rules(struct rd *rd, const struct plan *p, bool *same)
{
	json_object *rules = NULL;
	char line[512];
	size_t i;

	if (policy_dump(rd, &rules))
		return -1;
	*same = json_object_array_length(rules) == p->nrules;
	for (i = 0; *same && i < p->nrules; i++)
		*same = !policy_rule_line(json_object_array_get_idx(rules, i),
					  line, sizeof(line)) &&
			!strcmp(line, p->rules[i]);
	json_object_put(rules);
	return 0;
}

/* Make the rules the file's: flush, then add each in order. */
static int restore_rules(struct rd *rd, const struct plan *p)
{
	char flush[] = "policy flush", *argv[CONFIG_WORDS], *copy;
	bool same;
	size_t i;
	int ret;

	if (same_rules(rd, p, &same))
		return 1;
	if (same)
		return 0;
	ret = rd_run_words(rd, rd_split(flush, argv, CONFIG_WORDS), argv);
	for (i = 0; !ret && i < p->nrules; i++) {
		copy = strdup(p->rules[i]);
		ret = !copy || rd_run_words(rd, rd_split(copy, argv, CONFIG_WORDS),
					    argv);
		free(copy);
	}
	return ret;
}

/**
 * cmd_restore() - the "restore" command
 * @rd: the invocation, positioned after "restore"
 *
 * Return: the exit status: 0 if the namespace now is as the file says.
 */
int cmd_restore(struct rd *rd)
{
	struct plan p = { 0 };
	char **lines = NULL;
	size_t nlines = 0, i;
	json_object *rows = NULL;
	const char *file = rd_next(rd);
	int ret = 1;

	if (!file || !strcmp(file, "help") || !rd_no_arg(rd)) {
		fprintf(stderr, "Usage: rocect restore FILE\n"
			"FILE as rocect save writes it; - for standard input\n");
		return file && !strcmp(file, "help") ? 0 : 1;
	}
	if (read_plan(file, &p, &lines, &nlines))
		goto out;
	qsort(p.qps, p.n, sizeof(*p.qps), by_key);
	for (i = 1; i < p.n; i++) {
		if (!strcmp(p.qps[i - 1].key, p.qps[i].key)) {
			pr_err("%s: two qp add lines for one entry", file);
			goto out;
		}
	}
	/* Settings first; if they fail, no entry changes. */
	for (i = 0; i < p.nconfig; i++)
		if (rd_run_words(rd, p.config_argc[i], p.config_argv[i]))
			goto out;
	if (qp_dump_managed(rd, &rows))
		goto out;
	ret = 0;
	/* Deletions first: they make room under max-qps. */
	for (i = 0; i < json_object_array_length(rows); i++)
		ret |= reconcile_row(rd, &p, json_object_array_get_idx(rows, i));
	for (i = 0; i < p.n; i++) {
		if (p.qps[i].present)
			continue;
		/* "qp add ..." becomes "qp replace ...". */
		if (p.qps[i].replace)
			p.qps[i].argv[1] = "replace";
		ret |= rd_run_words(rd, p.qps[i].argc, p.qps[i].argv);
	}
	ret |= restore_rules(rd, &p);
	ret = !!ret;
out:
	json_object_put(rows);
	for (i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	free(p.qps);
	for (i = 0; i < p.nrules; i++)
		free(p.rules[i]);
	free(p.rules);
	return ret;
}
