// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink attributes to JSON, driven by each object's const table of
 * fields (as iproute2's rdma tool does): one set of helpers for QP
 * entries, events and connections.
 */
#include <stdio.h>

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
