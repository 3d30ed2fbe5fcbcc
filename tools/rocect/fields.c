// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink attributes to JSON and arguments to attributes, driven by each
 * object's const table of fields (as iproute2's rdma tool does): one set
 * of helpers for QP entries, events, connections and settings.
 */
#include <stdio.h>
#include <string.h>

#include "rocect.h"

/* "tcp:7471" for an RDMA CM service ID, else the ID in hex. */
static json_object *service_json(uint64_t sid)
{
	static const struct {
		uint8_t ps;
		const char *name;
	} spaces[] = { { 0x02, "ipoib" }, { 0x06, "tcp" }, { 0x11, "udp" },
		       { 0x3f, "ib" } };
	char s[32];
	unsigned int i;

	snprintf(s, sizeof(s), "0x%llx", (unsigned long long)sid);
	if (sid >> 24 == 0x01)
		for (i = 0; i < ARRAY_SIZE(spaces); i++)
			if (((sid >> 16) & 0xff) == spaces[i].ps)
				snprintf(s, sizeof(s), "%s:%u", spaces[i].name,
					 (unsigned int)(sid & 0xffff));
	return json_object_new_string(s);
}

static json_object *field_json(const struct rd_field *f,
			       const struct nlattr *const *tb)
{
	const struct nlattr *a = tb[f->attr];
	unsigned int v;

	if (f->kind == RD_ADDR)
		return rd_addr_json(a, tb[f->attr6]);
	if (!a)
		return NULL;
	switch (f->kind) {
	case RD_U8:
		return json_object_new_int64(mnl_attr_get_u8(a));
	case RD_SPORT:
		v = mnl_attr_get_u32(a);
		return v == ROCECT_CNP_SPORT_COPY ? json_object_new_string("copy") :
						    json_object_new_int64(v);
	case RD_U16:
		return json_object_new_int64(mnl_attr_get_u16(a));
	case RD_U32:
		return json_object_new_int64(mnl_attr_get_u32(a));
	case RD_U64:
		return json_object_new_uint64(mnl_attr_get_u64(a));
	case RD_BOOL:
		return json_object_new_boolean(mnl_attr_get_u8(a));
	case RD_NAME:
		v = mnl_attr_get_u8(a);
		/* A newer kernel's value is shown as a number. */
		return v < f->n_names && f->names[v] ?
		       json_object_new_string(f->names[v]) :
		       json_object_new_int(v);
	case RD_SERVICE:
		return service_json(mnl_attr_get_u64(a));
	default:
		return NULL;
	}
}

/**
 * rd_fields_json() - add a message's attributes to a JSON object
 * @o: the object
 * @tb: the message's attributes, by type
 * @fields: what to add, in order, up to an entry without a key
 */
void rd_fields_json(json_object *o, const struct nlattr *const *tb,
		    const struct rd_field *fields)
{
	const struct rd_field *f;
	json_object *v;

	for (f = fields; f->key; f++) {
		v = field_json(f, tb);
		if (v)
			json_object_object_add(o, f->key, v);
	}
}

/**
 * rd_field_find() - the field a user's word names
 * @fields: the object's fields, up to an entry without a key
 * @key: the word
 *
 * Return: the field, or NULL.
 */
const struct rd_field *rd_field_find(const struct rd_field *fields,
				     const char *key)
{
	for (; fields->key; fields++)
		if (!strcmp(fields->key, key))
			return fields;
	return NULL;
}

/* "a, b or c": the names a value may take. */
static void names_list(const struct rd_field *f, char *buf, size_t len)
{
	unsigned int i, n = 0, left = 0;
	size_t at = 0;

	for (i = 0; i < f->n_names; i++)
		left += !!f->names[i];
	buf[0] = '\0';
	for (i = 0; i < f->n_names && at < len; i++) {
		if (!f->names[i])
			continue;
		at += snprintf(buf + at, len - at, "%s%s",
			       !n ? "" : n + 1 == left ? " or " : ", ",
			       f->names[i]);
		n++;
	}
}

/**
 * rd_field_put() - a value as a user writes it into the field's attribute
 * @nlh: the request
 * @f: the field (%RD_U8, %RD_U16, %RD_U32, %RD_NAME or %RD_SPORT)
 * @val: the user's word
 *
 * The kernel checks the ranges of its own settings; this checks what the
 * attribute's type can carry.
 *
 * Return: 0, or -1 after saying what is wrong.
 */
int rd_field_put(struct nlmsghdr *nlh, const struct rd_field *f,
		 const char *val)
{
	static const uint32_t max[] = {
		[RD_U8] = UINT8_MAX, [RD_U16] = UINT16_MAX,
		[RD_U32] = UINT32_MAX, [RD_SPORT] = UINT16_MAX,
	};
	char names[160];
	uint32_t v;

	if (f->kind == RD_SPORT && !strcmp(val, "copy")) {
		mnl_attr_put_u32(nlh, f->attr, ROCECT_CNP_SPORT_COPY);
		return 0;
	}
	switch (f->kind) {
	case RD_NAME:
		for (v = 0; v < f->n_names; v++)
			if (f->names[v] && !strcmp(val, f->names[v]))
				break;
		if (v == f->n_names) {
			names_list(f, names, sizeof(names));
			pr_err("invalid %s '%s' (use %s)", f->key, val, names);
			return -1;
		}
		mnl_attr_put_u8(nlh, f->attr, v);
		return 0;
	case RD_SPORT:
	case RD_U8:
	case RD_U16:
	case RD_U32:
		if (rd_u32(val, max[f->kind], &v)) {
			pr_err("invalid %s '%s' (%s0 to %u)", f->key, val,
			       f->kind == RD_SPORT ? "copy or " : "",
			       max[f->kind]);
			return -1;
		}
		if (f->kind == RD_U8)
			mnl_attr_put_u8(nlh, f->attr, v);
		else if (f->kind == RD_U16)
			mnl_attr_put_u16(nlh, f->attr, v);
		else
			mnl_attr_put_u32(nlh, f->attr, v);
		return 0;
	default:
		pr_err("%s cannot be set", f->key);
		return -1;
	}
}
