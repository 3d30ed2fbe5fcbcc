// SPDX-License-Identifier: GPL-2.0
/*
 * Argument parsing and output shared by every object: words, numbers in
 * decimal or 0x hex, addresses, and text tables or JSON built from the same
 * json-c rows.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocect.h"

void pr_err(const char *fmt, ...)
{
	va_list ap;

	fputs("rocect: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool rd_no_arg(struct rd *rd)
{
	return rd->argc <= 0;
}

const char *rd_arg(struct rd *rd)
{
	return rd_no_arg(rd) ? NULL : rd->argv[0];
}

/* The current argument, consumed. */
const char *rd_next(struct rd *rd)
{
	const char *a = rd_arg(rd);

	if (a) {
		rd->argc--;
		rd->argv++;
	}
	return a;
}

/* Is the current argument @word? Consumes it if so. */
bool rd_is(struct rd *rd, const char *word)
{
	if (rd_no_arg(rd) || strcmp(rd_arg(rd), word))
		return false;
	rd_next(rd);
	return true;
}

/**
 * rd_u32() - a number in decimal or with a 0x prefix in hex
 * @s: the text
 * @max: largest value allowed
 * @v: the value
 *
 * A leading 0 does not mean octal: "010" is ten.
 *
 * Return: 0 or -1.
 */
int rd_u32(const char *s, uint32_t max, uint32_t *v)
{
	unsigned long long n;
	int base = 10;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -1;
	}
	errno = 0;
	n = strtoull(s, &end, base);
	if (errno || *end || n > max)
		return -1;
	*v = n;
	return 0;
}

int rd_qpn(const char *s, uint32_t *v)
{
	return rd_u32(s, ROCECT_QPN_MAX, v);
}

/**
 * rd_addr() - an IPv4 or IPv6 address
 * @s: the text
 * @family: set to 4 or 6
 * @addr: 16 bytes; IPv4 in the first four
 *
 * Return: 0 or -1.
 */
int rd_addr(const char *s, uint8_t *family, void *addr)
{
	memset(addr, 0, 16);
	if (s && inet_pton(AF_INET, s, addr) == 1) {
		*family = 4;
		return 0;
	}
	if (s && inet_pton(AF_INET6, s, addr) == 1) {
		*family = 6;
		return 0;
	}
	return -1;
}

/**
 * rd_addr_json() - an IPv4 or IPv6 address attribute as a JSON string
 * @a4: the IPv4 attribute, or NULL
 * @a6: the IPv6 attribute, or NULL
 *
 * Return: a new JSON string, or NULL if neither attribute is usable.
 */
json_object *rd_addr_json(const struct nlattr *a4, const struct nlattr *a6)
{
	char s[INET6_ADDRSTRLEN];

	if (a4 && mnl_attr_get_payload_len(a4) == 4)
		inet_ntop(AF_INET, mnl_attr_get_payload(a4), s, sizeof(s));
	else if (a6 && mnl_attr_get_payload_len(a6) == 16)
		inet_ntop(AF_INET6, mnl_attr_get_payload(a6), s, sizeof(s));
	else
		return NULL;
	return json_object_new_string(s);
}

static const char *cell(json_object *row, const char *col, char *buf,
			size_t len)
{
	json_object *v;

	if (!json_object_object_get_ex(row, col, &v) || json_object_is_type(v, json_type_null))
		return "-";
	snprintf(buf, len, "%s", json_object_get_string(v));
	return buf;
}

/**
 * rd_print_table() - print rows as JSON, or as a table with aligned columns
 * @rd: the invocation (-j, -p)
 * @rows: a JSON array of objects
 * @cols: NULL-terminated list of the keys to show as columns in text
 *
 * Text and JSON use the same keys; the column headers are the keys in
 * upper case.
 */
void rd_print_table(struct rd *rd, json_object *rows, const char *const *cols)
{
	size_t n = json_object_array_length(rows), i, c, ncols = 0;
	size_t width[32] = { 0 };
	char buf[128], head[64];

	if (rd->json) {
		rd_print_object(rd, rows);
		return;
	}
	while (cols[ncols] && ncols < 32)
		ncols++;
	for (c = 0; c < ncols; c++)
		width[c] = strlen(cols[c]);
	for (i = 0; i < n; i++)
		for (c = 0; c < ncols; c++) {
			size_t w = strlen(cell(json_object_array_get_idx(rows, i),
					       cols[c], buf, sizeof(buf)));
			if (w > width[c])
				width[c] = w;
		}
	for (c = 0; c < ncols; c++) {
		for (i = 0; cols[c][i] && i < sizeof(head) - 1; i++)
			head[i] = cols[c][i] >= 'a' && cols[c][i] <= 'z' ?
				  cols[c][i] - 'a' + 'A' : cols[c][i];
		head[i] = 0;
		printf("%-*s%s", c + 1 < ncols ? (int)width[c] : 0, head,
		       c + 1 < ncols ? "  " : "\n");
	}
	for (i = 0; i < n; i++)
		for (c = 0; c < ncols; c++)
			printf("%-*s%s", c + 1 < ncols ? (int)width[c] : 0,
			       cell(json_object_array_get_idx(rows, i), cols[c],
				    buf, sizeof(buf)),
			       c + 1 < ncols ? "  " : "\n");
}

/**
 * rd_print_object() - print one JSON value, with -p indented
 * @rd: the invocation
 * @obj: the value
 */
void rd_print_object(struct rd *rd, json_object *obj)
{
	int flags = rd->pretty ? JSON_C_TO_STRING_PRETTY |
				 JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN;

	puts(json_object_to_json_string_ext(obj, flags | JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* Text: "key value" lines; a nested object's keys as "group.key value". */
static void print_text(json_object *o, const char *prefix)
{
	json_object_object_foreach(o, key, val) {
		if (json_object_is_type(val, json_type_object)) {
			print_text(val, key);
			continue;
		}
		if (prefix)
			printf("%s.%s %s\n", prefix, key, json_object_get_string(val));
		else
			printf("%s %s\n", key, json_object_get_string(val));
	}
}

/**
 * rd_get() - fetch one object (stats, config) into a JSON object
 * @rd: the invocation
 * @cmd: the ROCECT_CMD_*_GET command
 * @cb: turns the reply into keys of @o
 * @o: the object
 *
 * Return: 0, or 1 after saying what went wrong.
 */
int rd_get(struct rd *rd, uint8_t cmd, mnl_cb_t cb, json_object *o)
{
	if (rd_talk(rd, rd_msg(rd, cmd, 0), cb, o)) {
		rd_perror();
		return 1;
	}
	return 0;
}

/**
 * rd_split() - split a command line into words, in place
 * @line: the line; its separators become NULs
 * @words: where the words go
 * @max: room in @words
 *
 * Return: the number of words, or -1 if there are more than @max.
 */
int rd_split(char *line, char **words, int max)
{
	char *save, *w;
	int n = 0;

	for (w = strtok_r(line, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == max)
			return -1;
		words[n++] = w;
	}
	return n;
}

/**
 * rd_show() - fetch one object (stats, config) and print it
 * @rd: the invocation
 * @cmd: the ROCECT_CMD_*_GET command
 * @cb: turns the reply into keys of the JSON object passed as data
 *
 * Return: the exit status.
 */
int rd_show(struct rd *rd, uint8_t cmd, mnl_cb_t cb)
{
	json_object *o = json_object_new_object();
	int ret = rd_get(rd, cmd, cb, o);

	if (!ret && rd->json)
		rd_print_object(rd, o);
	else if (!ret)
		print_text(o, NULL);
	json_object_put(o);
	return ret;
}
