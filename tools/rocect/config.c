// SPDX-License-Identifier: GPL-2.0
/*
 * rocect config: show and set the namespace's runtime configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocect.h"

enum knob_kind {
	KNOB_U32,	/* a number */
	KNOB_U8,	/* a small number */
	KNOB_BOOL,	/* on | off */
	KNOB_POLICY,	/* accept | drop */
	KNOB_SPORT,	/* a UDP port | copy */
};

/* The kernel checks every range and says which one a value is out of. */
static const struct {
	const char *key;
	int attr;
	enum knob_kind kind;
} knobs[] = {
	{ "max-qps", ROCECT_A_CONFIG_MAX_QPS, KNOB_U32 },
	{ "max-conns", ROCECT_A_CONFIG_MAX_CONNS, KNOB_U32 },
	{ "idle-timeout", ROCECT_A_CONFIG_IDLE_TIMEOUT, KNOB_U32 },
	{ "timewait-timeout", ROCECT_A_CONFIG_TIMEWAIT_TIMEOUT, KNOB_U32 },
	{ "half-open-timeout", ROCECT_A_CONFIG_HALF_OPEN_TIMEOUT, KNOB_U32 },
	{ "unknown-qp", ROCECT_A_CONFIG_UNKNOWN_QP, KNOB_POLICY },
	{ "rp-check", ROCECT_A_CONFIG_RP_CHECK, KNOB_BOOL },
	{ "learn", ROCECT_A_CONFIG_LEARN, KNOB_BOOL },
	{ "source-share", ROCECT_A_CONFIG_SOURCE_SHARE, KNOB_U8 },
	{ "check-iface", ROCECT_A_CONFIG_CHECK_IFACE, KNOB_BOOL },
	{ "check-sport", ROCECT_A_CONFIG_CHECK_SPORT, KNOB_BOOL },
	{ "check-cnp", ROCECT_A_CONFIG_CHECK_CNP, KNOB_BOOL },
	{ "check-psn", ROCECT_A_CONFIG_CHECK_PSN, KNOB_BOOL },
	{ "psn-window", ROCECT_A_CONFIG_PSN_WINDOW, KNOB_U32 },
	{ "check-qkey", ROCECT_A_CONFIG_CHECK_QKEY, KNOB_BOOL },
	{ "cnp", ROCECT_A_CONFIG_CNP, KNOB_BOOL },
	{ "cnp-interval-us", ROCECT_A_CONFIG_CNP_INTERVAL_US, KNOB_U32 },
	{ "cnp-max-rate", ROCECT_A_CONFIG_CNP_MAX_RATE, KNOB_U32 },
	{ "cnp-dscp", ROCECT_A_CONFIG_CNP_DSCP, KNOB_U8 },
	{ "cnp-ecn", ROCECT_A_CONFIG_CNP_ECN, KNOB_U8 },
	{ "cnp-priority", ROCECT_A_CONFIG_CNP_PRIORITY, KNOB_U32 },
	{ "cnp-ttl", ROCECT_A_CONFIG_CNP_TTL, KNOB_U8 },
	{ "cnp-sport", ROCECT_A_CONFIG_CNP_SPORT, KNOB_SPORT },
	{ "cnp-clear-ce", ROCECT_A_CONFIG_CNP_CLEAR_CE, KNOB_BOOL },
};

static const char *const policies[] = { "accept", "drop" };
static const char *const bools[] = { "off", "on" };

static int config_help(struct rd *rd)
{
	fprintf(stderr,
		"Usage: rocect [-j [-p]] config [ show ]\n"
		"       rocect config set SETTING VALUE [ SETTING VALUE ... ]\n"
		"SETTING := { max-qps N | max-conns N | idle-timeout SECONDS |\n"
		"             timewait-timeout SECONDS | half-open-timeout SECONDS |\n"
		"             unknown-qp { accept | drop } | rp-check { on | off } |\n"
		"             learn { on | off } | source-share 1-100 |\n"
		"             check-iface { on | off } | check-sport { on | off } |\n"
		"             check-cnp { on | off } | check-psn { on | off } |\n"
		"             psn-window 1-8388608 | check-qkey { on | off } |\n"
		"             cnp { on | off } | cnp-interval-us US | cnp-max-rate PER_SECOND |\n"
		"             cnp-dscp 0-63 | cnp-ecn 0-3 | cnp-priority N | cnp-ttl 1-255 |\n"
		"             cnp-sport { copy | PORT } | cnp-clear-ce { on | off } }\n");
	return 0;
}

static json_object *knob_json(unsigned int i, const struct nlattr *a)
{
	uint32_t v = knobs[i].kind == KNOB_U32 || knobs[i].kind == KNOB_SPORT ?
		     mnl_attr_get_u32(a) : mnl_attr_get_u8(a);

	if (knobs[i].kind == KNOB_BOOL && v < 2)
		return json_object_new_string(bools[v]);
	if (knobs[i].kind == KNOB_POLICY && v < 2)
		return json_object_new_string(policies[v]);
	if (knobs[i].kind == KNOB_SPORT && v == ROCECT_CNP_SPORT_COPY)
		return json_object_new_string("copy");
	return json_object_new_int64(v);
}

static int config_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECT_A_CONFIG_MAX + 1];
	json_object *o = data;
	unsigned int i;

	rd_attrs(nlh, tb, ROCECT_A_CONFIG_MAX);
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		if (tb[knobs[i].attr])
			json_object_object_add(o, knobs[i].key,
					       knob_json(i, tb[knobs[i].attr]));
	return MNL_CB_OK;
}

static int word(const char *val, const char *const *words)
{
	return !strcmp(val, words[0]) ? 0 : !strcmp(val, words[1]) ? 1 : -1;
}

/* One "SETTING VALUE" pair into an attribute; -1 after saying what is wrong. */
static int put_knob(struct nlmsghdr *nlh, const char *key, const char *val)
{
	unsigned int i;
	uint32_t v;
	int w;

	for (i = 0; i < ARRAY_SIZE(knobs) && strcmp(key, knobs[i].key); i++)
		;
	if (i == ARRAY_SIZE(knobs)) {
		pr_err("unknown setting '%s'; try 'rocect config help'", key);
		return -1;
	}
	switch (knobs[i].kind) {
	case KNOB_BOOL:
	case KNOB_POLICY:
		w = word(val, knobs[i].kind == KNOB_BOOL ? bools : policies);
		if (w < 0) {
			pr_err("invalid %s '%s' (use %s)", key, val,
			       knobs[i].kind == KNOB_BOOL ? "on or off" :
							    "accept or drop");
			return -1;
		}
		mnl_attr_put_u8(nlh, knobs[i].attr, w);
		return 0;
	case KNOB_SPORT:
		if (!strcmp(val, "copy")) {
			mnl_attr_put_u32(nlh, knobs[i].attr, ROCECT_CNP_SPORT_COPY);
			return 0;
		}
		if (rd_u32(val, 65535, &v)) {
			pr_err("invalid %s '%s' (use copy or a UDP port)", key, val);
			return -1;
		}
		mnl_attr_put_u32(nlh, knobs[i].attr, v);
		return 0;
	default:
		if (rd_u32(val, knobs[i].kind == KNOB_U8 ? 255 : UINT32_MAX, &v)) {
			pr_err("invalid %s '%s'", key, val);
			return -1;
		}
		if (knobs[i].kind == KNOB_U8)
			mnl_attr_put_u8(nlh, knobs[i].attr, v);
		else
			mnl_attr_put_u32(nlh, knobs[i].attr, v);
		return 0;
	}
}

/* A refusal of one setting names it and its range, else the kernel's. */
static void range_error(void)
{
	const struct rd_bad_attr *b = rd_last_bad_attr();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(knobs) && b->type != knobs[i].attr; i++)
		;
	if (errno != ERANGE || i == ARRAY_SIZE(knobs) || b->has_range != 3) {
		rd_perror();
		return;
	}
	pr_err("%s: out of range (%llu to %llu)", knobs[i].key,
	       (unsigned long long)b->min, (unsigned long long)b->max);
}

static int config_set(struct rd *rd)
{
	struct nlmsghdr *nlh = rd_msg(rd, ROCECT_CMD_CONFIG_SET, 0);
	const char *key, *val;

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
		if (put_knob(nlh, key, val))
			return 1;
	}
	if (rd_talk(rd, nlh, NULL, NULL)) {
		range_error();
		return 1;
	}
	return 0;
}

/**
 * config_collect() - the namespace's configuration
 * @rd: the invocation
 * @o: a JSON object that gets one key per setting, as `config show -j`
 *
 * Return: 0, or 1 after saying what went wrong.
 */
int config_collect(struct rd *rd, json_object *o)
{
	return rd_get(rd, ROCECT_CMD_CONFIG_GET, config_cb, o);
}

static int config_show(struct rd *rd)
{
	return rd_show(rd, ROCECT_CMD_CONFIG_GET, config_cb);
}

/**
 * cmd_config() - the "config" object
 * @rd: the invocation, positioned after "config"
 *
 * Return: the exit status.
 */
int cmd_config(struct rd *rd)
{
	static const struct rd_cmd cmds[] = {
		{ "show", config_show },
		{ "set", config_set },
		{ "help", config_help },
		{ NULL, NULL },
	};

	return rd_exec_cmd(rd, "config", cmds);
}
