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
 * rd_find_cmd() - the command a word names
 * @cmds: the commands, ended by an empty one
 * @word: the word
 *
 * Return: its entry, or NULL.
 */
const struct rd_cmd *rd_find_cmd(const struct rd_cmd *cmds, const char *word)
{
	for (; cmds->name; cmds++)
		if (!strcmp(cmds->name, word))
			return cmds;
	return NULL;
}

/**
 * rd_exec_cmd() - run the command an object's next word names
 * @rd: the invocation, positioned after the object
 * @object: the object's name, for the error message
 * @cmds: its commands, ended by an empty one; the first runs when no word
 *	is left
 *
 * Return: the command's exit status, 1 for a word no command has.
 */
int rd_exec_cmd(struct rd *rd, const char *object, const struct rd_cmd *cmds)
{
	const struct rd_cmd *c;

	if (rd_no_arg(rd))
		return cmds[0].func(rd);
	c = rd_find_cmd(cmds, rd_arg(rd));
	if (c) {
		rd_next(rd);
		return c->func(rd);
	}
	pr_err("unknown %s command '%s'; try 'rocect %s help'", object,
	       rd_arg(rd), object);
	return 1;
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

/* Text: the column headers, each key in upper case. */
static void print_header(const struct rd_table *t)
{
	char head[64];
	size_t c, i;

	for (c = 0; c < t->ncols; c++) {
		for (i = 0; t->cols[c][i] && i < sizeof(head) - 1; i++)
			head[i] = t->cols[c][i] >= 'a' && t->cols[c][i] <= 'z' ?
				  t->cols[c][i] - 'a' + 'A' : t->cols[c][i];
		head[i] = 0;
		printf("%-*s%s", c + 1 < t->ncols ? (int)t->width[c] : 0, head,
		       c + 1 < t->ncols ? "  " : "\n");
	}
}

/**
 * rd_underscored() - a CLI word with underscores for its dashes
 * @buf: where it goes, cut to fit
 * @len: room in @buf
 * @word: the word ("cnp-sent" becomes "cnp_sent")
 *
 * JSON keys and Prometheus metric names take no dashes.
 */
void rd_underscored(char *buf, size_t len, const char *word)
{
	size_t i;

	for (i = 0; word[i] && i + 1 < len; i++)
		buf[i] = word[i] == '-' ? '_' : word[i];
	buf[i] = 0;
}

/**
 * rd_json_keys() - a JSON value as -j prints it: object keys with
 *	underscores where the CLI's words have dashes
 * @v: the value, keys as the CLI names them ("idle-ms")
 *
 * jq reads "idle_ms" as a plain path (.idle_ms) but "idle-ms" only quoted,
 * so JSON output takes underscores, as iproute2's does, while the text
 * output and the arguments keep the words of the man page.
 *
 * Return: a new reference: a copy with its keys renamed, or @v itself.
 */
json_object *rd_json_keys(json_object *v)
{
	char key[64];
	json_object *o;
	size_t i, n;

	if (json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		o = json_object_new_array_ext(n);
		for (i = 0; i < n; i++)
			json_object_array_add(o, rd_json_keys(json_object_array_get_idx(v, i)));
		return o;
	}
	if (!json_object_is_type(v, json_type_object))
		return json_object_get(v);
	o = json_object_new_object();
	json_object_object_foreach(v, k, val) {
		rd_underscored(key, sizeof(key), k);
		json_object_object_add(o, key, rd_json_keys(val));
	}
	return o;
}

/* JSON: one object of the array, after a comma if not the first. */
static void print_json_row(struct rd_table *t, json_object *row_as_named)
{
	json_object *row = rd_json_keys(row_as_named);
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *s;

	if (!t->rd->pretty) {
		fputs(t->printed ? "," : "[", stdout);
		fputs(json_object_to_json_string_ext(row, flags), stdout);
		json_object_put(row);
		return;
	}
	/* Indented one level, as json-c indents an array's elements. */
	fputs(t->printed ? ",\n  " : "[\n  ", stdout);
	s = json_object_to_json_string_ext(row, flags | JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED);
	for (; *s; s++) {
		putchar(*s);
		if (*s == '\n')
			fputs("  ", stdout);
	}
	json_object_put(row);
}

static void print_row(struct rd_table *t, json_object *row)
{
	char buf[128];
	size_t c;

	if (t->rd->json) {
		print_json_row(t, row);
	} else {
		for (c = 0; c < t->ncols; c++)
			printf("%-*s%s", c + 1 < t->ncols ? (int)t->width[c] : 0,
			       cell(row, t->cols[c], buf, sizeof(buf)),
			       c + 1 < t->ncols ? "  " : "\n");
	}
	t->printed++;
}

/* Size the columns by the rows held, print them, and hold no more. */
static void flush_held(struct rd_table *t)
{
	size_t n = json_object_array_length(t->held), i, c;
	char buf[128];

	for (c = 0; c < t->ncols; c++)
		t->width[c] = strlen(t->cols[c]);
	for (i = 0; i < n; i++)
		for (c = 0; c < t->ncols; c++) {
			size_t w = strlen(cell(json_object_array_get_idx(t->held, i),
					       t->cols[c], buf, sizeof(buf)));
			if (w > t->width[c])
				t->width[c] = w;
		}
	if (!t->rd->json)
		print_header(t);
	for (i = 0; i < n; i++)
		print_row(t, json_object_array_get_idx(t->held, i));
	json_object_put(t->held);
	t->held = NULL;
	t->flushed = true;
}

/**
 * rd_table_init() - start a table printed row by row
 * @t: the table
 * @rd: the invocation (-j, -p)
 * @fields: the rows' fields; those marked RD_COLUMN are the text columns
 *
 * The first %RD_TABLE_HOLD rows are held: they size the text columns (a
 * later, wider cell pushes the rest of its row right) and, until they are
 * printed, rd_table_discard() can take them back. Memory stays bounded
 * however many rows follow.
 */
void rd_table_init(struct rd_table *t, struct rd *rd,
		   const struct rd_field *fields)
{
	const struct rd_field *f;

	memset(t, 0, sizeof(*t));
	t->rd = rd;
	for (f = fields; f->key && t->ncols < RD_TABLE_MAX_COLS; f++)
		if (f->column)
			t->cols[t->ncols++] = f->key;
	t->held = json_object_new_array();
}

/**
 * rd_table_add() - add a row, printed now or once the held rows are
 * @t: the table
 * @row: a JSON object, whose reference the table takes
 */
void rd_table_add(struct rd_table *t, json_object *row)
{
	if (t->flushed) {
		print_row(t, row);
		json_object_put(row);
		return;
	}
	json_object_array_add(t->held, row);
	if (json_object_array_length(t->held) >= RD_TABLE_HOLD)
		flush_held(t);
}

/**
 * rd_table_discard() - drop the rows held and not printed
 * @t: the table, whose rows are all held (!@t->flushed)
 */
void rd_table_discard(struct rd_table *t)
{
	json_object_put(t->held);
	t->held = json_object_new_array();
}

/**
 * rd_table_end() - print the rows still held and close the table
 * @t: the table; it holds no memory afterwards
 */
void rd_table_end(struct rd_table *t)
{
	if (!t->flushed)
		flush_held(t);
	if (t->rd->json)
		puts(!t->printed ? "[]" : t->rd->pretty ? "\n]" : "]");
}

/**
 * rd_table_free() - forget a table without printing what it holds
 * @t: the table
 */
void rd_table_free(struct rd_table *t)
{
	json_object_put(t->held);
	t->held = NULL;
}

/**
 * rd_print_object() - print one JSON value, with -p indented, its keys
 *	as rd_json_keys() makes them
 * @rd: the invocation
 * @obj: the value
 */
void rd_print_object(struct rd *rd, json_object *obj)
{
	int flags = rd->pretty ? JSON_C_TO_STRING_PRETTY |
				 JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN;
	json_object *out = rd_json_keys(obj);

	puts(json_object_to_json_string_ext(out, flags | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(out);
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
 * rd_print_keys() - print an object: with -j as JSON, else as "key value"
 *	lines (a nested object's keys as "group.key value")
 * @rd: the invocation
 * @o: the object
 */
void rd_print_keys(struct rd *rd, json_object *o)
{
	if (rd->json)
		rd_print_object(rd, o);
	else
		print_text(o, NULL);
}
