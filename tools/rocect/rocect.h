/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_TOOL_H
#define _ROCECT_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/rocect.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/**
 * struct rd - the state of one rocect invocation
 * @argc: arguments left
 * @argv: the next argument
 * @json: -j, print JSON
 * @pretty: -p, indent JSON
 * @nl: the generic netlink socket
 * @netns: -n, the network namespace's name, or NULL
 * @family: the rocect family's ID
 * @mcgrp_events: the events multicast group's ID
 * @mcgrp_drops: the drops multicast group's ID, 0 if the module has none
 * @seq: sequence number of the last request
 * @buf: message buffer
 */
struct rd {
	int argc;
	char **argv;
	bool json;
	bool pretty;
	struct mnl_socket *nl;
	const char *netns;
	uint16_t family;
	uint32_t mcgrp_events;
	uint32_t mcgrp_drops;
	uint32_t seq;
	char *buf;
};

/**
 * struct rd_cmd - a command word of an object and what runs it
 * @name: the word; NULL ends a table
 * @func: runs the command, with the invocation positioned after the word
 */
struct rd_cmd {
	const char *name;
	int (*func)(struct rd *rd);
};

const struct rd_cmd *rd_find_cmd(const struct rd_cmd *cmds, const char *word);
int rd_exec_cmd(struct rd *rd, const char *object, const struct rd_cmd *cmds);

/* Arguments */
bool rd_no_arg(struct rd *rd);
const char *rd_arg(struct rd *rd);
const char *rd_next(struct rd *rd);
bool rd_is(struct rd *rd, const char *word);
int rd_u32(const char *s, uint32_t max, uint32_t *v);
int rd_qpn(const char *s, uint32_t *v);
int rd_addr(const char *s, uint8_t *family, void *addr);
json_object *rd_addr_json(const struct nlattr *a4, const struct nlattr *a6);

/**
 * enum rd_kind - how an attribute is shown
 * @RD_U8: a number, from a u8
 * @RD_U16: a number, from a u16
 * @RD_U32: a number, from a u32
 * @RD_U64: a number, from a u64
 * @RD_BOOL: true or false, from a u8
 * @RD_NAME: a u8 shown by its name in &rd_field.names
 * @RD_ADDR: an IPv4 (&rd_field.attr) or IPv6 (&rd_field.attr6) address
 * @RD_SERVICE: an RDMA CM service ID, from a u64 ("tcp:7471")
 * @RD_SPORT: a UDP port from a u32, or "copy" for %ROCECT_CNP_SPORT_COPY
 */
enum rd_kind {
	RD_U8, RD_U16, RD_U32, RD_U64, RD_BOOL, RD_NAME, RD_ADDR, RD_SERVICE,
	RD_SPORT,
};

/**
 * struct rd_field - one attribute of an object, as JSON shows it
 * @key: the JSON key (and the text table's column)
 * @attr: the attribute
 * @attr6: %RD_ADDR: the IPv6 attribute
 * @kind: &enum rd_kind
 * @names: %RD_NAME: the names of the values
 * @n_names: %RD_NAME: how many there are
 * @column: the text table shows it as a column (in the table's order)
 */
struct rd_field {
	const char *key;
	uint16_t attr;
	uint16_t attr6;
	enum rd_kind kind;
	const char *const *names;
	unsigned int n_names;
	bool column;
};

/*
 * Table entries: a number or flag, an address pair, a named value; each
 * may end with RD_COLUMN to be a column of the text table too.
 */
#define RD_FIELD(k, a, t, ...)	{ .key = (k), .attr = (a), .kind = (t), \
				  __VA_ARGS__ }
#define RD_ADDRS(k, a4, a6, ...) { .key = (k), .attr = (a4), .attr6 = (a6), \
				  .kind = RD_ADDR, __VA_ARGS__ }
#define RD_NAMES(k, a, n, cnt, ...) { .key = (k), .attr = (a), \
				  .kind = RD_NAME, .names = (n), \
				  .n_names = (cnt), __VA_ARGS__ }
#define RD_COLUMN		.column = true
#define RD_FIELDS_END		{ .key = NULL }

void rd_fields_json(json_object *o, const struct nlattr *const *tb,
		    const struct rd_field *fields);
const struct rd_field *rd_field_find(const struct rd_field *fields,
				     const char *key);
int rd_field_put(struct nlmsghdr *nlh, const struct rd_field *f,
		 const char *val);

/* Errors */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Netlink */
int rd_nl_open(struct rd *rd);
void rd_nl_close(struct rd *rd);
struct nlmsghdr *rd_msg(struct rd *rd, uint8_t cmd, uint16_t flags);
/**
 * struct rd_bad_attr - what the kernel's extended ACK says of a refusal
 * @type: the request's attribute it points at, or 0
 * @has_range: bit 0: @min is known, bit 1: @max is known
 * @min: the smallest value the attribute's policy allows
 * @max: the largest
 */
struct rd_bad_attr {
	int type;
	int has_range;
	uint64_t min, max;
};

const struct rd_bad_attr *rd_last_bad_attr(void);
int rd_need_family(struct rd *rd);
int rd_talk(struct rd *rd, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);
int rd_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb, int max);
void rd_perror(void);

/* Output */
#define RD_TABLE_MAX_COLS	32
#define RD_TABLE_HOLD		1000

/**
 * struct rd_table - rows printed as they come, as text or a JSON array
 * @rd: the invocation (-j, -p)
 * @cols: the keys shown as text columns
 * @ncols: how many
 * @width: each text column's width, from the rows held
 * @held: the first rows, until %RD_TABLE_HOLD of them or the end
 * @printed: rows printed
 * @flushed: @held was printed; later rows are printed as they come
 */
struct rd_table {
	struct rd *rd;
	const char *cols[RD_TABLE_MAX_COLS];
	size_t ncols;
	size_t width[RD_TABLE_MAX_COLS];
	json_object *held;
	unsigned long printed;
	bool flushed;
};

void rd_table_init(struct rd_table *t, struct rd *rd,
		   const struct rd_field *fields);
void rd_table_add(struct rd_table *t, json_object *row);
void rd_table_discard(struct rd_table *t);
void rd_table_end(struct rd_table *t);
void rd_table_free(struct rd_table *t);
int rd_show_rows(struct rd *rd,
		 struct nlmsghdr *(*build)(struct rd *rd, void *arg), void *arg,
		 json_object *(*to_json)(const struct nlmsghdr *nlh),
		 const struct rd_field *fields);
int rd_collect_rows(struct rd *rd,
		    struct nlmsghdr *(*build)(struct rd *rd, void *arg),
		    void *arg,
		    json_object *(*to_json)(const struct nlmsghdr *nlh),
		    json_object **rows);
void rd_underscored(char *buf, size_t len, const char *word);
json_object *rd_json_keys(json_object *v);
void rd_print_object(struct rd *rd, json_object *obj);
void rd_print_keys(struct rd *rd, json_object *o);
int rd_get(struct rd *rd, uint8_t cmd, mnl_cb_t cb, json_object *o);
int rd_show(struct rd *rd, uint8_t cmd, mnl_cb_t cb);
int rd_split(char *line, char **words, int max);

/* Objects */
int cmd_qp(struct rd *rd);
int cmd_stats(struct rd *rd);
int cmd_config(struct rd *rd);
int cmd_monitor(struct rd *rd);
int cmd_top(struct rd *rd);
int cmd_policy(struct rd *rd);

/* Shared by qp and monitor */
json_object *qp_to_json(const struct nlmsghdr *nlh);
int qp_dump_managed(struct rd *rd, json_object **rows);
int config_collect(struct rd *rd, json_object *o);
int stats_collect(struct rd *rd, json_object *o);
const char *stats_counter_key(uint32_t attr);
int policy_dump(struct rd *rd, json_object **rows);
int policy_rule_line(json_object *row, char *buf, size_t len);
json_object *policy_rule_json(const struct nlmsghdr *nlh);
json_object *policy_refused_json(const struct nlmsghdr *nlh);
int cmd_metrics(struct rd *rd);
int metrics_down(struct rd *rd);
int cmd_restore(struct rd *rd);
int rd_run_words(struct rd *rd, int argc, char **argv);
int cmd_save(struct rd *rd);
extern const struct rd_field qp_fields[];
extern const char *const qp_states[];
int cmd_conn(struct rd *rd);

#endif /* _ROCECT_TOOL_H */
