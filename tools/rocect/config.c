// SPDX-License-Identifier: GPL-2.0
/*
 * rocect config: show and set the namespace's runtime configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config_limits.h"
#include "rocect.h"

static const char *const policies[] = { "accept", "drop" };
static const char *const policy_actions[] = { "accept", "drop", "reject" };
static const char *const bools[] = { "off", "on" };
static const char *const offload_modes[] = { "off", "on", "guarded" };

/*
 * Each setting's range, from the module's own list: the CLI says what the
 * kernel would, without asking it (settings.h's min and max).
 */
struct setting_range {
	int attr;
	uint32_t min, max;
};

#define U32_MAX UINT32_MAX
static const struct setting_range ranges[] = {
#define ROCECT_SETTING(name, attr, type, lo, hi, def) \
	{ ROCECT_A_CONFIG_##attr, lo, hi },
#include "settings.h"
#undef ROCECT_SETTING
};

#undef U32_MAX

static const struct setting_range *range_of(int attr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ranges); i++)
		if (ranges[i].attr == attr)
			return &ranges[i];
	return NULL;
}

/* The kernel checks every range too, and says which one a value is out of. */
static const struct rd_field settings[] = {
	RD_FIELD("max-qps", ROCECT_A_CONFIG_MAX_QPS, RD_U32),
	RD_FIELD("max-conns", ROCECT_A_CONFIG_MAX_CONNS, RD_U32),
	RD_FIELD("idle-timeout", ROCECT_A_CONFIG_IDLE_TIMEOUT, RD_U32),
	RD_FIELD("timewait-timeout", ROCECT_A_CONFIG_TIMEWAIT_TIMEOUT, RD_U32),
	RD_FIELD("half-open-timeout", ROCECT_A_CONFIG_HALF_OPEN_TIMEOUT, RD_U32),
	RD_NAMES("unknown-qp", ROCECT_A_CONFIG_UNKNOWN_QP, policies, 2),
	RD_NAMES("rp-check", ROCECT_A_CONFIG_RP_CHECK, bools, 2),
	RD_NAMES("learn", ROCECT_A_CONFIG_LEARN, bools, 2),
	RD_FIELD("source-share", ROCECT_A_CONFIG_SOURCE_SHARE, RD_U8),
	RD_NAMES("check-iface", ROCECT_A_CONFIG_CHECK_IFACE, bools, 2),
	RD_NAMES("check-sport", ROCECT_A_CONFIG_CHECK_SPORT, bools, 2),
	RD_NAMES("check-cnp", ROCECT_A_CONFIG_CHECK_CNP, bools, 2),
	RD_NAMES("check-psn", ROCECT_A_CONFIG_CHECK_PSN, bools, 2),
	RD_FIELD("psn-window", ROCECT_A_CONFIG_PSN_WINDOW, RD_U32),
	RD_NAMES("check-qkey", ROCECT_A_CONFIG_CHECK_QKEY, bools, 2),
	RD_NAMES("offload", ROCECT_A_CONFIG_OFFLOAD, offload_modes, 3),
	RD_NAMES("policy-default", ROCECT_A_CONFIG_POLICY_DEFAULT,
		 policy_actions, 3),
	RD_FIELD("reject-max-rate", ROCECT_A_CONFIG_REJECT_MAX_RATE, RD_U32),
	RD_FIELD("drop-events-max-rate", ROCECT_A_CONFIG_DROP_EVENTS_MAX_RATE,
		 RD_U32),
	RD_NAMES("cnp", ROCECT_A_CONFIG_CNP, bools, 2),
	RD_FIELD("cnp-interval-us", ROCECT_A_CONFIG_CNP_INTERVAL_US, RD_U32),
	RD_FIELD("cnp-max-rate", ROCECT_A_CONFIG_CNP_MAX_RATE, RD_U32),
	RD_FIELD("cnp-dscp", ROCECT_A_CONFIG_CNP_DSCP, RD_U8),
	RD_FIELD("cnp-ecn", ROCECT_A_CONFIG_CNP_ECN, RD_U8),
	RD_FIELD("cnp-priority", ROCECT_A_CONFIG_CNP_PRIORITY, RD_U32),
	RD_FIELD("cnp-ttl", ROCECT_A_CONFIG_CNP_TTL, RD_U8),
	RD_FIELD("cnp-sport", ROCECT_A_CONFIG_CNP_SPORT, RD_SPORT),
	RD_NAMES("cnp-clear-ce", ROCECT_A_CONFIG_CNP_CLEAR_CE, bools, 2),
	RD_FIELDS_END
};

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
		"             cnp-sport { copy | PORT } | cnp-clear-ce { on | off } |\n"
		"             offload { off | on | guarded } |\n"
		"             policy-default { accept | drop | reject } |\n"
		"             reject-max-rate PER_SECOND |\n"
		"             drop-events-max-rate PER_SECOND }\n");
	return 0;
}

static int config_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECT_A_CONFIG_MAX + 1];

	rd_attrs(nlh, tb, ROCECT_A_CONFIG_MAX);
	rd_fields_json(data, tb, settings);
	return MNL_CB_OK;
}

/* A refusal of one setting names it and its range, else the kernel's. */
static void range_error(void)
{
	const struct rd_bad_attr *b = rd_last_bad_attr();
	const struct rd_field *f;

	for (f = settings; f->key && b->type != f->attr; f++)
		;
	if (errno != ERANGE || !f->key || b->has_range != 3) {
		rd_perror();
		return;
	}
	pr_err("%s: out of range (%llu to %llu)", f->key,
	       (unsigned long long)b->min, (unsigned long long)b->max);
}

/*
 * Is a number for a numeric setting within the module's range? Words
 * (names, "copy") are left to rd_field_put(). Says what is wrong, as the
 * kernel's refusal would.
 */
static bool in_range(const struct rd_field *f, const char *val)
{
	const struct setting_range *r = range_of(f->attr);
	bool sport = f->kind == RD_SPORT;
	uint32_t v, max;

	if (!r || f->kind == RD_NAME || (sport && !strcmp(val, "copy")))
		return true;
	/* cnp-sport's top value is "copy", written as the word. */
	max = sport ? r->max - 1 : r->max;
	if (rd_u32(val, UINT32_MAX, &v)) {
		pr_err("invalid %s '%s' (%s%u to %u)", f->key, val,
		       sport ? "copy or " : "", r->min, max);
		return false;
	}
	if (v < r->min || v > max) {
		pr_err("%s: out of range (%s%u to %u)", f->key,
		       sport ? "copy or " : "", r->min, max);
		return false;
	}
	return true;
}

static int config_set(struct rd *rd)
{
	struct nlmsghdr *nlh = rd_msg(rd, ROCECT_CMD_CONFIG_SET, 0);
	const struct rd_field *f;
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
		f = rd_field_find(settings, key);
		if (!f) {
			pr_err("unknown setting '%s'; try 'rocect config help'",
			       key);
			return 1;
		}
		if (!in_range(f, val) || rd_field_put(nlh, f, val))
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
