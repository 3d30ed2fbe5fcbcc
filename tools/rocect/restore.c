// SPDX-License-Identifier: GPL-2.0
/*
 * rocect restore FILE: make the namespace's settings and managed QP entries
 * what FILE says, as `rocect save` wrote it. Unlike `rocect -b FILE`, which
 * only adds (and fails on an entry that exists), it is idempotent: managed
 * entries the file does not name are deleted, those it names differently
 * (another source QP, another interface) are made again, the others are
 * left alone with their counters and binding. So a unit can run it at
 * start, restart and reload alike.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocect.h"

#define MAX_WORDS	32

/* One "qp add" line of the file. */
struct wanted {
	char key[96];		/* zone, addresses, destination QP */
	uint32_t sqpn;
	int iif;		/* -1: the line names no interface */
	bool present;		/* an entry with this key matches it */
	int argc;
	char *argv[MAX_WORDS];
};

#define MAX_CONFIG_LINES	8

/* The file: its "qp add" lines, sorted by key, and its "config set" lines. */
struct plan {
	struct wanted *qps;
	size_t n, cap;
	int config_argc[MAX_CONFIG_LINES];
	char *config_argv[MAX_CONFIG_LINES][MAX_WORDS];
	size_t nconfig;
};

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

/* A "qp add" line's words (after "qp add") into @w; -1 if malformed. */
static int parse_add(struct wanted *w, int argc, char **argv)
{
	const char *src = NULL, *dst = NULL;
	uint32_t zone = 0, dqpn = 0, v;
	bool has_dqpn = false, has_sqpn = false;
	int i;

	w->iif = -1;
	for (i = 0; i + 1 < argc; i += 2) {
		const char *k = argv[i], *val = argv[i + 1];

		if (!strcmp(k, "src")) {
			src = val;
		} else if (!strcmp(k, "dst")) {
			dst = val;
		} else if (!strcmp(k, "zone") && !rd_u32(val, 0xffff, &zone)) {
			continue;
		} else if (!strcmp(k, "dqpn") && !rd_qpn(val, &dqpn)) {
			has_dqpn = true;
		} else if (!strcmp(k, "sqpn") && !rd_qpn(val, &v)) {
			w->sqpn = v;
			has_sqpn = true;
		} else if (!strcmp(k, "dev")) {
			/* As the kernel has it: loopback is this host, 0. */
			v = if_nametoindex(val);
			w->iif = !v ? -2 : !strcmp(val, "lo") ? 0 : (int)v;
		} else {
			return -1;
		}
	}
	if (i != argc || !has_dqpn || !has_sqpn)
		return -1;
	return make_key(w->key, sizeof(w->key), zone, src, dst, dqpn);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct wanted *)a)->key,
		      ((const struct wanted *)b)->key);
}

/* Read @file into @p; -1 after saying which line is wrong. */
static int read_plan(const char *file, struct plan *p, char ***lines,
		     size_t *nlines)
{
	FILE *in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char buf[1024], *words[MAX_WORDS], *save, *w, *copy;
	int lineno = 0, n, ret = 0;

	if (!in) {
		pr_err("%s: %s", file, strerror(errno));
		return -1;
	}
	while (!ret && fgets(buf, sizeof(buf), in)) {
		lineno++;
		copy = strdup(buf);
		*lines = realloc(*lines, (*nlines + 1) * sizeof(**lines));
		(*lines)[(*nlines)++] = copy;
		n = 0;
		for (w = strtok_r(copy, " \t\r\n", &save); w && n < MAX_WORDS;
		     w = strtok_r(NULL, " \t\r\n", &save))
			words[n++] = w;
		if (!n || words[0][0] == '#')
			continue;
		if (n >= 3 && !strcmp(words[0], "config") &&
		    !strcmp(words[1], "set")) {
			if (p->nconfig == MAX_CONFIG_LINES) {
				pr_err("%s:%d: more than %d config set lines",
				       file, lineno, MAX_CONFIG_LINES);
				ret = -1;
				continue;
			}
			p->config_argc[p->nconfig] = n;
			memcpy(p->config_argv[p->nconfig++], words,
			       n * sizeof(*words));
			continue;
		}
		if (n >= 2 && !strcmp(words[0], "qp") && !strcmp(words[1], "add")) {
			struct wanted *q;

			if (p->n == p->cap) {
				p->cap = p->cap ? 2 * p->cap : 64;
				p->qps = realloc(p->qps, p->cap * sizeof(*p->qps));
			}
			q = &p->qps[p->n];
			memset(q, 0, sizeof(*q));
			q->argc = n;
			memcpy(q->argv, words, n * sizeof(*words));
			if (parse_add(q, n - 2, words + 2)) {
				pr_err("%s:%d: not a qp add line as rocect save writes",
				       file, lineno);
				ret = -1;
			} else if (q->iif == -2) {
				pr_err("%s:%d: no such interface", file, lineno);
				ret = -1;
			}
			p->n++;
			continue;
		}
		pr_err("%s:%d: restore takes config set and qp add lines only",
		       file, lineno);
		ret = -1;
	}
	if (in != stdin)
		fclose(in);
	return ret;
}

/* Delete the entry of @row: "qp del zone Z src S dst D dqpn Q". */
static int delete_row(struct rd *rd, json_object *row)
{
	char zone[16], dqpn[16], src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	char *argv[] = { "qp", "del", "zone", zone, "src", src, "dst", dst,
			 "dqpn", dqpn };
	json_object *v;

	json_object_object_get_ex(row, "zone", &v);
	snprintf(zone, sizeof(zone), "%d", json_object_get_int(v));
	json_object_object_get_ex(row, "src", &v);
	snprintf(src, sizeof(src), "%s", json_object_get_string(v));
	json_object_object_get_ex(row, "dst", &v);
	snprintf(dst, sizeof(dst), "%s", json_object_get_string(v));
	json_object_object_get_ex(row, "dqpn", &v);
	snprintf(dqpn, sizeof(dqpn), "%lld", (long long)json_object_get_int64(v));
	return rd_run_words(rd, ARRAY_SIZE(argv), argv);
}

/* Does @row match a line of @p? Then mark it present; else delete it. */
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
	return delete_row(rd, row);
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
		fprintf(stderr, "Usage: rocect restore FILE (as rocect save writes it; - for stdin)\n");
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
	ret = 0;
	for (i = 0; i < p.nconfig; i++)
		ret |= rd_run_words(rd, p.config_argc[i], p.config_argv[i]);
	if (qp_dump_managed(rd, &rows)) {
		ret = 1;
		goto out;
	}
	/* Deletions first: they make room under max-qps. */
	for (i = 0; i < json_object_array_length(rows); i++)
		ret |= reconcile_row(rd, &p, json_object_array_get_idx(rows, i));
	for (i = 0; i < p.n; i++)
		if (!p.qps[i].present)
			ret |= rd_run_words(rd, p.qps[i].argc, p.qps[i].argv);
	ret = !!ret;
out:
	json_object_put(rows);
	for (i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	free(p.qps);
	return ret;
}
