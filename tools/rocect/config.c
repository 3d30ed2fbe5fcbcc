// SPDX-License-Identifier: GPL-2.0
/*
 * rocect config: show and set the namespace's runtime configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocect.h"

static const struct {
	const char *key;
	int attr;
	uint32_t max;	/* the kernel checks the real range */
} knobs[] = {
	{ "max-qps", ROCECT_A_CONFIG_MAX_QPS, UINT32_MAX },
	{ "max-conns", ROCECT_A_CONFIG_MAX_CONNS, UINT32_MAX },
	{ "idle-timeout", ROCECT_A_CONFIG_IDLE_TIMEOUT, UINT32_MAX },
	{ "timewait-timeout", ROCECT_A_CONFIG_TIMEWAIT_TIMEOUT, UINT32_MAX },
};

static const char *const policies[] = { "accept", "drop" };

static void config_help(void)
{
	fprintf(stderr,
		"Usage: rocect [-j [-p]] config [ show ]\n"
		"       rocect config set [ max-qps N ] [ max-conns N ]\n"
		"                         [ idle-timeout SECONDS ]\n"
		"                         [ timewait-timeout SECONDS ]\n"
		"                         [ unknown-qp accept|drop ]\n");
}

static int config_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECT_A_CONFIG_MAX + 1];
	json_object *o = data;
	unsigned int i, p;

	rd_attrs(nlh, tb, ROCECT_A_CONFIG_MAX);
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		const struct nlattr *a = tb[knobs[i].attr];

		if (a)
			json_object_object_add(o, knobs[i].key,
					       json_object_new_int64(mnl_attr_get_u32(a)));
	}
	if (tb[ROCECT_A_CONFIG_UNKNOWN_QP]) {
		p = mnl_attr_get_u8(tb[ROCECT_A_CONFIG_UNKNOWN_QP]);
		json_object_object_add(o, "unknown-qp", p < 2 ?
			json_object_new_string(policies[p]) : json_object_new_int(p));
	}
	return MNL_CB_OK;
}

static int config_set(struct rd *rd)
{
	struct nlmsghdr *nlh = rd_msg(rd, ROCECT_CMD_CONFIG_SET, 0);
	const char *key, *val;
	unsigned int i;
	uint32_t v;

	if (rd_no_arg(rd)) {
		pr_err("config set: nothing to set; try 'rocect config help'");
		return 1;
	}
	while ((key = rd_next(rd))) {
		val = rd_next(rd);
		if (!val) {
			pr_err("'%s' needs a value", key);
			return 1;
		}
		if (!strcmp(key, "unknown-qp")) {
			for (i = 0; i < 2 && strcmp(val, policies[i]); i++)
				;
			if (i == 2) {
				pr_err("invalid unknown-qp '%s' (use accept or drop)", val);
				return 1;
			}
			mnl_attr_put_u8(nlh, ROCECT_A_CONFIG_UNKNOWN_QP, i);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(knobs); i++)
			if (!strcmp(key, knobs[i].key))
				break;
		if (i == ARRAY_SIZE(knobs)) {
			pr_err("unknown setting '%s'; try 'rocect config help'", key);
			return 1;
		}
		if (rd_u32(val, knobs[i].max, &v)) {
			pr_err("invalid %s '%s'", key, val);
			return 1;
		}
		mnl_attr_put_u32(nlh, knobs[i].attr, v);
	}
	if (rd_talk(rd, nlh, NULL, NULL)) {
		rd_perror();
		return 1;
	}
	return 0;
}

/**
 * cmd_config() - the "config" object
 * @rd: the invocation, positioned after "config"
 *
 * Return: the exit status.
 */
int cmd_config(struct rd *rd)
{
	if (rd_no_arg(rd) || rd_is(rd, "show"))
		return rd_show(rd, ROCECT_CMD_CONFIG_GET, config_cb);
	if (rd_is(rd, "set"))
		return config_set(rd);
	if (rd_is(rd, "help")) {
		config_help();
		return 0;
	}
	pr_err("unknown config command '%s'; try 'rocect config help'", rd_arg(rd));
	return 1;
}
