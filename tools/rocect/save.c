// SPDX-License-Identifier: GPL-2.0
/*
 * rocect save: the namespace's configuration, managed QP entries and
 * service policy as `rocect -b` lines, so that they survive a reboot or a
 * module reload:
 *
 *   rocect save >/etc/rocect/saved && rocect -b /etc/rocect/saved
 *
 * Learned, inferred and recovered entries are not saved: traffic makes them
 * again. A managed entry bound to its sender's interface is saved with it
 * ("dev"), so that it is restored bound.
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "rocect.h"

static void put_entry(json_object *e)
{
	char name[IF_NAMESIZE];
	json_object *v;
	int64_t iif;

	printf("qp add");
	if (json_object_object_get_ex(e, "zone", &v) && json_object_get_int(v))
		printf(" zone %d", json_object_get_int(v));
	json_object_object_get_ex(e, "src", &v);
	printf(" src %s", json_object_get_string(v));
	json_object_object_get_ex(e, "dst", &v);
	printf(" dst %s", json_object_get_string(v));
	json_object_object_get_ex(e, "dqpn", &v);
	printf(" dqpn %u", (unsigned int)json_object_get_int64(v));
	json_object_object_get_ex(e, "sqpn", &v);
	printf(" sqpn %u", (unsigned int)json_object_get_int64(v));
	/* A bound entry is restored bound (an interface gone: unbound). */
	if (json_object_object_get_ex(e, "iif", &v)) {
		iif = json_object_get_int64(v);
		if (!iif)
			printf(" dev lo");
		else if (if_indextoname(iif, name))
			printf(" dev %s", name);
	}
	printf("\n");
}

/**
 * cmd_save() - the "save" command
 * @rd: the invocation, positioned after "save"
 *
 * Return: the exit status.
 */
int cmd_save(struct rd *rd)
{
	json_object *cfg, *rows = NULL, *rules = NULL;
	char line[512];
	size_t i;
	int ret = 1;

	if (rd_is(rd, "help")) {
		fprintf(stderr, "Usage: rocect save >FILE; restore with rocect restore FILE\n");
		return 0;
	}
	if (!rd_no_arg(rd)) {
		pr_err("save takes no arguments; try 'rocect save help'");
		return 1;
	}
	cfg = json_object_new_object();
	if (config_collect(rd, cfg) || qp_dump_managed(rd, &rows) ||
	    policy_dump(rd, &rules))
		goto out;
	printf("# rocect save: configuration, managed QP entries, service policy\n");
	printf("config set");
	json_object_object_foreach(cfg, key, val)
		printf(" %s %s", key, json_object_get_string(val));
	printf("\n");
	for (i = 0; i < json_object_array_length(rows); i++)
		put_entry(json_object_array_get_idx(rows, i));
	/* The rules in their order, replacing any the namespace has. */
	printf("policy flush\n");
	for (i = 0; i < json_object_array_length(rules); i++) {
		if (policy_rule_line(json_object_array_get_idx(rules, i), line,
				     sizeof(line))) {
			pr_err("a policy rule too long to save");
			goto out;
		}
		printf("%s\n", line);
	}
	ret = fflush(stdout) ? 1 : 0;
out:
	json_object_put(cfg);
	json_object_put(rows);
	json_object_put(rules);
	return ret;
}
