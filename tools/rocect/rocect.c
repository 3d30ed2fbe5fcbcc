// SPDX-License-Identifier: GPL-2.0
/*
 * rocect: query and steer nf_conntrack_roce through its generic netlink
 * family. Object-verb syntax in the style of iproute2's rdma and ip:
 *
 *   rocect [ OPTIONS ] { qp | conn | stats | config | monitor | save | restore |
 *                        metrics | help } [ COMMAND ]
 */
#define _GNU_SOURCE	/* setns() */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocect.h"

/* This tool's version, and the loaded module's when there is one. */
static void print_version(void)
{
	FILE *f = fopen("/sys/module/nf_conntrack_roce/version", "r");
	char line[128];

	printf("rocect %s\n", ROCECT_VERSION);
	if (f && fgets(line, sizeof(line), f))
		printf("nf_conntrack_roce %s%s", line,
		       strchr(line, '\n') ? "" : "\n");
	if (f)
		fclose(f);
}

/* -n NAME: work in the named network namespace, as ip -n does. */
static int enter_netns(const char *name)
{
	char path[256];
	int fd;

	if (strchr(name, '/') || snprintf(path, sizeof(path), "/run/netns/%s",
					  name) >= (int)sizeof(path)) {
		pr_err("invalid namespace name '%s'", name);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pr_err("cannot open network namespace '%s': %s", name,
		       strerror(errno));
		return -1;
	}
	if (setns(fd, CLONE_NEWNET)) {
		pr_err("cannot enter network namespace '%s': %s", name,
		       strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: rocect [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"       rocect [ -j | -p ] [ -force ] -b FILE\n"
		"       rocect save\n"
		"       rocect restore FILE\n"
		"where  OBJECT := { qp | conn | policy | stats | config | monitor | top |\n"
		"                  metrics }\n"
		"       OPTIONS := { -j[son] | -p[retty] | -n[etns] NAME | -b[atch] FILE |\n"
		"                    -f[orce] | -V[ersion] | -h[elp] }\n"
		"Each object has its own help: rocect qp help\n");
}

static const struct rd_cmd objects[] = {
	{ "qp", cmd_qp },
	{ "conn", cmd_conn },
	{ "policy", cmd_policy },
	{ "stats", cmd_stats },
	{ "config", cmd_config },
	{ "monitor", cmd_monitor },
	{ "top", cmd_top },
	{ "save", cmd_save },
	{ "metrics", cmd_metrics },
	{ "restore", cmd_restore },
	{ NULL, NULL },
};

/* Run one command line (already split into words). */
static int run(struct rd *rd)
{
	const char *obj = rd_next(rd);
	const struct rd_cmd *c;

	if (!obj || !strcmp(obj, "help")) {
		usage();
		return obj ? 0 : 1;
	}
	c = rd_find_cmd(objects, obj);
	if (!c) {
		pr_err("unknown object '%s'; try 'rocect help'", obj);
		return 1;
	}
	return c->func(rd);
}

/**
 * rd_run_words() - run one command given as words, as a line of -b does
 * @rd: the invocation
 * @argc: number of words
 * @argv: the words, from the object on ("qp", "add", ...)
 *
 * Return: the command's exit status.
 */
int rd_run_words(struct rd *rd, int argc, char **argv)
{
	rd->argc = argc;
	rd->argv = argv;
	return run(rd);
}

/*
 * -b FILE: one command per line, all on one socket; stops at an error,
 * unless @force (then the status says whether any failed).
 */
static int run_batch(struct rd *rd, const char *file, bool force)
{
	FILE *in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL, *words[64];
	int lineno = 0, n, failed = 0;
	size_t cap = 0;

	if (!in) {
		pr_err("%s: %s", file, strerror(errno));
		return 1;
	}
	while ((force || !failed) && getline(&line, &cap, in) >= 0) {
		lineno++;
		n = rd_split(line, words, ARRAY_SIZE(words));
		if (n < 0) {
			pr_err("%s:%d: more than %zu words", file, lineno,
			       ARRAY_SIZE(words));
			failed = 1;
			continue;
		}
		if (!n || words[0][0] == '#')
			continue;
		if (!strcmp(words[0], "monitor")) {
			pr_err("%s:%d: monitor cannot run in a batch", file, lineno);
			failed = 1;
			continue;
		}
		if (rd_run_words(rd, n, words)) {
			pr_err("%s:%d: command failed", file, lineno);
			failed = 1;
		}
	}
	free(line);
	if (in != stdin)
		fclose(in);
	return failed;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "batch", required_argument, NULL, 'b' },
		{ "force", no_argument, NULL, 'f' },
		{ "netns", required_argument, NULL, 'n' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rd rd = { 0 };
	const char *batch_file = NULL;
	bool force = false, netns_failed = false;
	int opt, ret;

	/* As iproute2: -json, -pretty and their prefixes, as well as -j. */
	while ((opt = getopt_long_only(argc, argv, "+jpb:fn:Vh", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			rd.json = true;
			break;
		case 'p':
			rd.pretty = true;
			break;
		case 'b':
			batch_file = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'n':
			if (enter_netns(optarg))
				netns_failed = true;
			rd.netns = optarg;
			break;
		case 'V':
			print_version();
			return 0;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return 1;
		}
	}
	if (force && !batch_file) {
		pr_err("-force applies to -b only");
		return 1;
	}
	/* Only JSON has a pretty form: -p asks for it. */
	if (rd.pretty)
		rd.json = true;
	rd.argc = argc - optind;
	rd.argv = argv + optind;
	if (netns_failed)
		return !batch_file && rd_is(&rd, "metrics") ? metrics_down(&rd) : 1;
	/* Help and unknown objects need no module. */
	if (!batch_file && (rd_no_arg(&rd) || !rd_find_cmd(objects, rd_arg(&rd)) ||
			    (rd.argc >= 2 && !strcmp(rd.argv[1], "help"))))
		return run(&rd);
	if (rd_nl_open(&rd)) {
		rd_nl_close(&rd);
		return 1;
	}
	ret = batch_file ? run_batch(&rd, batch_file, force) : run(&rd);
	rd_nl_close(&rd);
	return ret;
}
