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
 * @family: the rocect family's ID
 * @mcgrp_events: the events multicast group's ID
 * @seq: sequence number of the last request
 * @buf: message buffer
 */
struct rd {
	int argc;
	char **argv;
	bool json;
	bool pretty;
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t mcgrp_events;
	uint32_t seq;
	char *buf;
};

/* Arguments */
bool rd_no_arg(struct rd *rd);
const char *rd_arg(struct rd *rd);
const char *rd_next(struct rd *rd);
bool rd_is(struct rd *rd, const char *word);
int rd_u32(const char *s, uint32_t max, uint32_t *v);
int rd_qpn(const char *s, uint32_t *v);
int rd_addr(const char *s, uint8_t *family, void *addr);
json_object *rd_addr_json(const struct nlattr *a4, const struct nlattr *a6);

/* Errors */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Netlink */
int rd_nl_open(struct rd *rd);
void rd_nl_close(struct rd *rd);
struct nlmsghdr *rd_msg(struct rd *rd, uint8_t cmd, uint16_t flags);
int rd_talk(struct rd *rd, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);
int rd_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb, int max);
void rd_perror(void);

/* Output */
void rd_print_table(struct rd *rd, json_object *rows, const char *const *cols);
void rd_print_object(struct rd *rd, json_object *obj);
int rd_show(struct rd *rd, uint8_t cmd, mnl_cb_t cb);

/* Objects */
int cmd_qp(struct rd *rd);
int cmd_stats(struct rd *rd);
int cmd_config(struct rd *rd);
int cmd_monitor(struct rd *rd);

/* Shared by qp and monitor */
json_object *qp_to_json(const struct nlmsghdr *nlh);
extern const char *const qp_columns[];
extern const char *const qp_states[];
int cmd_conn(struct rd *rd);

#endif /* _ROCECT_TOOL_H */
