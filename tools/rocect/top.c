// SPDX-License-Identifier: GPL-2.0
/*
 * rocect top: the busy and congested QPs, refreshed every interval.
 *
 * Each refresh dumps only the entries seen lately (seen-within, filtered
 * in the kernel): the kernel still walks a million idle entries, but
 * sends, and top parses, only the busy ones. Rates are the difference of two refreshes. An entry
 * that goes idle drops out of the dump with its counters unchanged: top
 * remembers them as the base of its rates when it wakes. Only an entry
 * first seen by this refresh has no rate yet ("-", null in JSON).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "rocect.h"

/* The rate columns, as JSON keys; their totals come from the counters. */
enum top_rate { R_PACKETS, R_BYTES, R_CE, R_CNPS, R_MAX };

static const char *const rate_of[R_MAX] = {
	[R_PACKETS] = "packets", [R_BYTES] = "bytes", [R_CE] = "ce",
	[R_CNPS] = "cnps",
};

static const char *const rate_key[R_MAX] = {
	[R_PACKETS] = "packets-per-s", [R_BYTES] = "bytes-per-s",
	[R_CE] = "ce-per-s", [R_CNPS] = "cnps-per-s",
};

/*
 * The columns: the name "sort" takes (and the header shows), JSON key,
 * heading, width, the key that sorts by it on the screen, and whether it
 * is a number (sorted biggest first).
 */
static const struct top_col {
	const char *name;
	const char *key;
	const char *head;
	int width;
	char sort_key;
	bool number;
} cols[] = {
	{ "zone", "zone", "ZONE", 5, 'Z', true },
	{ "src", "src", "SRC", 16, 'S', false },
	{ "dst", "dst", "DST", 16, 'D', false },
	{ "dqpn", "dqpn", "DQPN", 8, 'Q', true },
	{ "sqpn", "sqpn", "SQPN", 8, 'U', true },
	{ "origin", "origin", "ORIGIN", 9, 'O', false },
	{ "state", "state", "STATE", 11, 'T', false },
	{ "packets", "packets-per-s", "PKTS/S", 10, 'P', true },
	{ "bytes", "bytes-per-s", "BYTES/S", 12, 'B', true },
	{ "ce", "ce-per-s", "CE/S", 8, 'E', true },
	{ "ce-percent", "ce-percent", "CE%", 6, '%', true },
	{ "cnps", "cnps-per-s", "CNPS/S", 8, 'N', true },
};

#define NSEC_PER_SEC		1000000000L

/* Idle entries remembered as the base of their rates when they wake. */
#define TOP_REMEMBERED_MAX	100000

/* The counters that count a packet dropped (or, in accept mode, let by). */
static const char *const drop_counters[] = {
	"unknown-qp-dropped", "drop-malformed", "drop-unknown-opcode",
	"drop-icrc", "drop-spoofed", "drop-gso", "wrong-iface", "wrong-sport",
	"wrong-psn", "wrong-qkey", "cnp-forged", "policy-dropped",
	"policy-rejected",
};

/**
 * struct top - one rocect top
 * @rd: the invocation
 * @interval_ms: between refreshes
 * @count: refreshes to print, or 0 for no end
 * @batch: -b, print each refresh as lines (or JSON with -j)
 * @per_conn: a row per connection (both directions) instead of per entry
 * @sort: the column sorted by
 * @reverse: the other way round
 * @zone: show only this zone, or -1
 * @addr: show only entries with this source or destination, or ""
 * @origin: show only this origin, or ""
 * @rows: the last refresh's entries, with their rates
 * @totals: the last refresh's totals
 * @interval: seconds between the last two refreshes, 0 after the first
 * @prev: the last refresh's entries, by key: the next one's base
 * @prev_stats: the last refresh's counters
 * @prev_t: its time
 * @wall: its wall-clock time, in seconds since the epoch
 */
struct top {
	struct rd *rd;
	unsigned int interval_ms;
	unsigned long count;
	bool batch;
	bool per_conn;
	int sort;
	bool reverse;
	long zone;
	char addr[64];
	char origin[64];
	json_object *rows;
	json_object *totals;
	double interval;
	json_object *prev;
	json_object *prev_stats;
	struct timespec prev_t;
	double wall;
};

static int top_help(void)
{
	fprintf(stderr,
		"Usage: rocect [-j [-p]] top [ -b ] [ -n COUNT ] [ -d SECONDS ]\n"
		"                           [ sort COLUMN ] [ reverse ] [ conn ]\n"
		"                           [ zone Z ] [ addr ADDR ] [ origin ORIGIN ]\n"
		"The QP entries with traffic, busiest first, refreshed every -d seconds\n"
		"(default 1). -b prints each refresh (JSON with -j), -n COUNT refreshes.\n"
		"conn: one row per connection, its two directions added up.\n"
		"COLUMN := { zone | src | dst | dqpn | sqpn | origin | state | packets |\n"
		"            bytes | ce | ce-percent | cnps }\n"
		"Keys on the screen: a column's letter sorts by it (Z S D Q U O T P B E %% N),\n"
		"r reverses, c toggles connections, f sets a filter (an address,\n"
		"\"zone Z\" or \"origin NAME\"; empty clears it), q quits.\n");
	return 0;
}

static double now_of(const struct timespec *t)
{
	return t->tv_sec + t->tv_nsec / 1e9;
}

static int64_t int_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) :
						       0;
}

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ?
	       json_object_get_string(v) : "";
}

/* An entry's key: zone, addresses, destination QP. */
static void entry_key(json_object *row, char *buf, size_t len)
{
	snprintf(buf, len, "%lld|%s|%s|%lld", (long long)int_of(row, "zone"),
		 str_of(row, "src"), str_of(row, "dst"),
		 (long long)int_of(row, "dqpn"));
}

/* A connection's key: its two ends (address, QP) in one order. */
static void conn_key(json_object *row, char *buf, size_t len)
{
	char a[80], b[80];

	snprintf(a, sizeof(a), "%s/%lld", str_of(row, "src"),
		 (long long)int_of(row, "sqpn"));
	snprintf(b, sizeof(b), "%s/%lld", str_of(row, "dst"),
		 (long long)int_of(row, "dqpn"));
	snprintf(buf, len, "%lld|%s|%s", (long long)int_of(row, "zone"),
		 strcmp(a, b) < 0 ? a : b, strcmp(a, b) < 0 ? b : a);
}

static bool top_wants(const struct top *t, json_object *row)
{
	if (t->zone >= 0 && int_of(row, "zone") != t->zone)
		return false;
	if (*t->origin && strcmp(str_of(row, "origin"), t->origin))
		return false;
	return !*t->addr || !strcmp(str_of(row, "src"), t->addr) ||
	       !strcmp(str_of(row, "dst"), t->addr);
}

/*
 * The entries seen since a little before the previous refresh, however
 * late this one is (a filter typed, a slow dump): one that went idle
 * before it has its counters remembered, one that did not is here.
 */
static struct nlmsghdr *active_build(struct rd *rd, void *arg)
{
	const struct top *t = arg;
	struct nlmsghdr *nlh = rd_msg(rd, ROCECT_CMD_QP_GET, NLM_F_DUMP);
	double within = t->interval_ms + 1000.0;
	struct timespec now;

	if (t->prev) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		within += (now_of(&now) - now_of(&t->prev_t)) * 1000;
	} else {
		within += t->interval_ms;
	}
	mnl_attr_put_u32(nlh, ROCECT_A_QP_SEEN_WITHIN,
			 within > ROCECT_SEEN_WITHIN_MAX ?
			 ROCECT_SEEN_WITHIN_MAX : (uint32_t)within);
	return nlh;
}

/* @row's rates against @old, the same entry one refresh ago, or nulls. */
static void put_rates(json_object *row, json_object *old, double dt)
{
	int64_t d[R_MAX];
	int i;

	for (i = 0; i < R_MAX; i++) {
		d[i] = int_of(row, rate_of[i]) - int_of(old, rate_of[i]);
		json_object_object_add(row, rate_key[i], old && d[i] >= 0 ?
				       json_object_new_double(d[i] / dt) : NULL);
	}
	json_object_object_add(row, "ce-percent", old && d[R_PACKETS] > 0 &&
			       d[R_CE] >= 0 ?
			       json_object_new_double(100.0 * d[R_CE] /
						      d[R_PACKETS]) : NULL);
}

/* Add @row's rates into @sum, a connection's row (nulls stay nulls). */
static void add_rates(json_object *sum, json_object *row)
{
	json_object *a, *b;
	int i;

	for (i = 0; i < R_MAX; i++) {
		json_object_object_get_ex(sum, rate_key[i], &a);
		json_object_object_get_ex(row, rate_key[i], &b);
		json_object_object_add(sum, rate_key[i], a && b ?
				       json_object_new_double(json_object_get_double(a) +
							      json_object_get_double(b)) :
				       NULL);
	}
	json_object_object_get_ex(sum, "ce-per-s", &a);
	json_object_object_get_ex(sum, "packets-per-s", &b);
	json_object_object_add(sum, "ce-percent", a && b &&
			       json_object_get_double(b) > 0 ?
			       json_object_new_double(100 * json_object_get_double(a) /
						      json_object_get_double(b)) :
			       NULL);
	json_object_object_add(sum, "directions",
			       json_object_new_int(int_of(sum, "directions") + 1));
}

static int sort_col;
static bool sort_reverse;

/* Numbers biggest first, text in order; no rate yet goes last. */
static int row_cmp(const void *pa, const void *pb)
{
	json_object *a = *(json_object *const *)pa, *b = *(json_object *const *)pb;
	const struct top_col *c = &cols[sort_col];
	json_object *va = NULL, *vb = NULL;
	int r;

	json_object_object_get_ex(a, c->key, &va);
	json_object_object_get_ex(b, c->key, &vb);
	if (!va || !vb)
		return !va - !vb;
	if (c->number) {
		double x = json_object_get_double(va),
		       y = json_object_get_double(vb);

		r = x < y ? 1 : x > y ? -1 : 0;
	} else {
		r = strcmp(json_object_get_string(va), json_object_get_string(vb));
	}
	return sort_reverse ? -r : r;
}

/* A counter's rate since the previous refresh; none after a reset. */
static json_object *counter_rate(const struct top *t, json_object *stats,
				 const char *key, double dt)
{
	int64_t d = int_of(stats, key) - int_of(t->prev_stats, key);

	return d >= 0 ? json_object_new_double(d / dt) : NULL;
}

/* The namespace's totals and their rates since the previous refresh. */
static json_object *top_totals(struct top *t, json_object *stats, double dt,
			       size_t active)
{
	json_object *o = json_object_new_object(), *drops;
	unsigned int i;

	json_object_object_add(o, "qp-count",
			       json_object_new_int64(int_of(stats, "qp-count")));
	json_object_object_add(o, "conn-count",
			       json_object_new_int64(int_of(stats, "conn-count")));
	json_object_object_add(o, "active", json_object_new_int64(active));
	if (!t->prev_stats)
		return o;
	json_object_object_add(o, "packets-per-s",
			       counter_rate(t, stats, "packets", dt));
	json_object_object_add(o, "cnp-sent-per-s",
			       counter_rate(t, stats, "cnp-sent", dt));
	drops = json_object_new_object();
	for (i = 0; i < ARRAY_SIZE(drop_counters); i++) {
		int64_t d = int_of(stats, drop_counters[i]) -
			    int_of(t->prev_stats, drop_counters[i]);

		if (d > 0)
			json_object_object_add(drops, drop_counters[i],
					       json_object_new_double(d / dt));
	}
	json_object_object_add(o, "drops-per-s", drops);
	return o;
}

static int64_t ns_of(const struct timespec *t)
{
	return (int64_t)t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

static void set_ns(struct timespec *t, int64_t ns)
{
	t->tv_sec = ns / NSEC_PER_SEC;
	t->tv_nsec = ns % NSEC_PER_SEC;
}

/*
 * The rates are the rows' counters over the time of their dump: the
 * kernel's, which a reader that the scheduler delays between the dump
 * and its clock does not move. @now (CLOCK_MONOTONIC) and @wall, read
 * after the dump, become the last row's snapshot time (a module without
 * it leaves them).
 */
static void dump_time(json_object *rows, struct timespec *now,
		      struct timespec *wall)
{
	size_t i, n = json_object_array_length(rows);
	int64_t snap = 0, late;

	for (i = 0; i < n; i++) {
		int64_t ns = int_of(json_object_array_get_idx(rows, i),
				    "snapshot-ns");

		if (ns > snap)
			snap = ns;
	}
	late = ns_of(now) - snap;
	if (!snap || late < 0)
		return;
	set_ns(now, snap);
	set_ns(wall, ns_of(wall) - late);
}

/*
 * One refresh: the active entries with their rates against the previous
 * refresh (in @t->rows), and the totals (in @t->totals).
 * Return: 0, or 1 after saying what went wrong.
 */
static int top_sample(struct top *t)
{
	json_object *rows, *stats = json_object_new_object(), *cur;
	struct timespec now, wall;
	double dt;
	size_t i, n;
	char key[256];

	if (rd_collect_rows(t->rd, active_build, t, qp_to_json, &rows))
		rows = NULL;
	clock_gettime(CLOCK_MONOTONIC, &now);
	clock_gettime(CLOCK_REALTIME, &wall);
	if (!rows || stats_collect(t->rd, stats)) {
		json_object_put(rows);
		json_object_put(stats);
		return 1;
	}
	dump_time(rows, &now, &wall);
	dt = t->prev ? now_of(&now) - now_of(&t->prev_t) : 0;
	if (dt <= 0)
		dt = 1.0 / NSEC_PER_SEC;
	cur = json_object_new_object();
	n = json_object_array_length(rows);
	for (i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(rows, i), *old = NULL;

		entry_key(row, key, sizeof(key));
		json_object_object_add(cur, key, json_object_get(row));
		if (t->prev)
			json_object_object_get_ex(t->prev, key, &old);
		put_rates(row, old, dt);
	}
	/*
	 * An entry leaves the dump only by going idle, so its counters stay
	 * as last seen: remember them (a bounded number), to be the base of
	 * its rates when it comes back.
	 */
	if (t->prev) {
		size_t kept = n;

		json_object_object_foreach(t->prev, k, old) {
			if (kept >= TOP_REMEMBERED_MAX)
				break;
			if (!json_object_object_get_ex(cur, k, NULL)) {
				json_object_object_add(cur, k, json_object_get(old));
				kept++;
			}
		}
	}
	json_object_put(t->totals);
	t->totals = top_totals(t, stats, dt, n);
	t->interval = t->prev ? dt : 0;
	json_object_put(t->rows);
	json_object_put(t->prev);
	json_object_put(t->prev_stats);
	t->rows = rows;
	t->prev = cur;
	t->prev_stats = stats;
	t->prev_t = now;
	t->wall = now_of(&wall);
	return 0;
}

/*
 * What to show of the last refresh: its rows filtered, added up per
 * connection if asked, and sorted. Return: a new object { time,
 * interval-s, totals, qps or conns }.
 */
static json_object *top_view(const struct top *t)
{
	json_object *list = json_object_new_array(), *groups = NULL, *out;
	size_t i, n = json_object_array_length(t->rows);
	char key[256];

	if (t->per_conn)
		groups = json_object_new_object();
	for (i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(t->rows, i), *sum;

		if (!top_wants(t, row))
			continue;
		if (groups) {
			conn_key(row, key, sizeof(key));
			if (json_object_object_get_ex(groups, key, &sum)) {
				add_rates(sum, row);
				continue;
			}
			/* A copy: the sum must not change the entry's row. */
			json_object_deep_copy(row, &sum, NULL);
			json_object_object_add(sum, "directions",
					       json_object_new_int(1));
			json_object_object_add(groups, key, sum);
			json_object_array_add(list, json_object_get(sum));
			continue;
		}
		json_object_array_add(list, json_object_get(row));
	}
	json_object_put(groups);
	sort_col = t->sort;
	sort_reverse = t->reverse;
	json_object_array_sort(list, row_cmp);

	out = json_object_new_object();
	json_object_object_add(out, "time", json_object_new_double(t->wall));
	json_object_object_add(out, "interval-s", t->interval ?
			       json_object_new_double(t->interval) : NULL);
	json_object_object_add(out, "totals", json_object_get(t->totals));
	json_object_object_add(out, t->per_conn ? "conns" : "qps", list);
	return out;
}

/* A number as top shows it: k, M, G beyond four digits; "-" for none. */
static void human(char *buf, size_t len, json_object *v)
{
	static const char unit[] = " kMGT";
	double x;
	int u = 0;

	if (!v) {
		snprintf(buf, len, "-");
		return;
	}
	x = json_object_get_double(v);
	while (x >= 10000 && u < 4) {
		x /= 1000;
		u++;
	}
	if (u)
		snprintf(buf, len, "%.1f%c", x, unit[u]);
	else if (x == (long long)x)
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%.1f", x);
}

/* Append to @buf at *@o, never past its @len bytes (it stays a string). */
static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o = *o + n < len - 1 ? *o + n : len - 1;
}

/* The header: two lines of totals, then the columns' headings. */
static void top_header(const struct top *t, json_object *s, char *buf,
		       size_t len)
{
	json_object *tot, *drops = NULL, *v = NULL;
	char pk[16], cnp[16];
	size_t o = 0;
	time_t now = (time_t)t->wall;
	struct tm tm;
	size_t i;

	json_object_object_get_ex(s, "totals", &tot);
	json_object_object_get_ex(tot, "packets-per-s", &v);
	human(pk, sizeof(pk), v);
	v = NULL;
	json_object_object_get_ex(tot, "cnp-sent-per-s", &v);
	human(cnp, sizeof(cnp), v);
	localtime_r(&now, &tm);
	append(buf, len, &o,
	       "rocect top - %02d:%02d:%02d  every %.1f s  sorted by %s%s%s%s\n",
	       tm.tm_hour, tm.tm_min, tm.tm_sec, t->interval_ms / 1000.0,
	       cols[t->sort].name, t->reverse ? " (reversed)" : "",
	       t->per_conn ? "  per connection" : "",
	       *t->addr || t->zone >= 0 || *t->origin ? "  filtered" : "");
	append(buf, len, &o,
	       "QPs %lld, %lld active  connections %lld  packets/s %s  CNPs sent/s %s\n",
	       (long long)int_of(tot, "qp-count"),
	       (long long)int_of(tot, "active"),
	       (long long)int_of(tot, "conn-count"), pk, cnp);
	append(buf, len, &o, "drops/s:");
	json_object_object_get_ex(tot, "drops-per-s", &drops);
	if (drops && json_object_object_length(drops)) {
		json_object_object_foreach(drops, k, d) {
			char r[16];

			human(r, sizeof(r), d);
			append(buf, len, &o, " %s %s", k, r);
		}
	} else {
		append(buf, len, &o, " none");
	}
	append(buf, len, &o, "\n\n");
	for (i = 0; i < ARRAY_SIZE(cols); i++)
		append(buf, len, &o, "%-*s ", cols[i].width, cols[i].head);
	append(buf, len, &o, "\n");
}

/* One row, each column in its width. */
static void top_row(json_object *row, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(cols); i++) {
		json_object *v = NULL;
		char val[64];

		json_object_object_get_ex(row, cols[i].key, &v);
		if (i >= 7)
			human(val, sizeof(val), v);
		else
			snprintf(val, sizeof(val), "%s",
				 v ? json_object_get_string(v) : "-");
		append(buf, len, &o, "%-*s ", cols[i].width, val);
	}
}

static void print_batch(struct top *t, json_object *s)
{
	static char buf[4096];
	json_object *list;
	size_t i;

	if (t->rd->json) {
		rd_print_object(t->rd, s);
		fflush(stdout);
		return;
	}
	top_header(t, s, buf, sizeof(buf));
	fputs(buf, stdout);
	json_object_object_get_ex(s, t->per_conn ? "conns" : "qps", &list);
	for (i = 0; i < json_object_array_length(list); i++) {
		top_row(json_object_array_get_idx(list, i), buf, sizeof(buf));
		printf("%s\n", buf);
	}
	printf("\n");
	fflush(stdout);
}

static struct termios saved_tio;
static const char screen_restore[] = "\033[?25h\033[?1049l";

/* Back to the terminal as it was: main screen, cursor, cooked mode. */
static void screen_leave(void)
{
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	fputs(screen_restore, stdout);
	fflush(stdout);
}

/* Killed on the screen: leave the terminal usable (async-signal-safe). */
static void on_signal(int sig)
{
	ssize_t n;

	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	n = write(STDOUT_FILENO, screen_restore, sizeof(screen_restore) - 1);
	_exit(n < 0 ? 1 : 128 + sig);
}

static int screen_enter(void)
{
	struct termios tio;

	if (tcgetattr(STDIN_FILENO, &saved_tio)) {
		pr_err("top: stdin is not a terminal (use -b)");
		return -1;
	}
	tio = saved_tio;
	/* Keys one by one, unechoed; ^C arrives as a key that quits. */
	tio.c_lflag &= ~(ICANON | ECHO | ISIG);
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	/* TCSANOW: keys typed while top started are kept. */
	tcsetattr(STDIN_FILENO, TCSANOW, &tio);
	/* The alternate screen, as top's, and no cursor. */
	fputs("\033[?1049h\033[?25l", stdout);
	return 0;
}

/*
 * Draw a refresh over the last one, line by line from the top left, each
 * line cleared to its end: no blank frame, so no flicker.
 */
static void screen_draw(struct top *t, json_object *s, const char *prompt)
{
	static char buf[8192], line[512];
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	json_object *list;
	int rows, o, i, n;
	char *p, *nl;

	ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws);
	if (!ws.ws_row || !ws.ws_col) {
		ws.ws_row = 24;
		ws.ws_col = 80;
	}
	fputs("\033[H", stdout);
	top_header(t, s, buf, sizeof(buf));
	rows = 0;
	for (p = buf; *p && rows < ws.ws_row - 1; p = nl + 1, rows++) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		o = nl - p < ws.ws_col ? nl - p : ws.ws_col;
		printf("%.*s\033[K\n", o, p);
	}
	json_object_object_get_ex(s, t->per_conn ? "conns" : "qps", &list);
	n = json_object_array_length(list);
	for (i = 0; i < n && rows < ws.ws_row - 1; i++, rows++) {
		top_row(json_object_array_get_idx(list, i), line, sizeof(line));
		printf("%.*s\033[K\n", ws.ws_col, line);
	}
	printf("\033[J%s", prompt ? prompt : "");
	fflush(stdout);
}

static int col_by_key(char c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cols); i++)
		if (cols[i].sort_key == c)
			return i;
	return -1;
}

/* @text as rocect prints an address (fd00:2:0::1 is fd00:2::1); 0 if one. */
static int addr_norm(const char *text, char *out, size_t len)
{
	uint8_t fam, a[16];

	if (rd_addr(text, &fam, a) ||
	    !inet_ntop(fam == 4 ? AF_INET : AF_INET6, a, out, len))
		return -1;
	return 0;
}

/* "zone Z", "origin NAME", an address, or nothing: the screen's filter. */
static void set_filter(struct top *t, const char *text)
{
	char word[16], val[64];

	t->zone = -1;
	t->addr[0] = 0;
	t->origin[0] = 0;
	if (sscanf(text, "%15s %63s", word, val) == 2) {
		if (!strcmp(word, "zone"))
			t->zone = strtol(val, NULL, 0);
		else if (!strcmp(word, "origin"))
			snprintf(t->origin, sizeof(t->origin), "%s", val);
		return;
	}
	if (sscanf(text, "%63s", val) == 1 &&
	    addr_norm(val, t->addr, sizeof(t->addr)))
		snprintf(t->addr, sizeof(t->addr), "%s", val);
}

/* Read a line for the filter, echoing it on the last line. */
static void read_filter(struct top *t, json_object *s)
{
	char text[80] = "", prompt[128];
	size_t n = 0;
	char c;

	for (;;) {
		snprintf(prompt, sizeof(prompt), "filter: %s", text);
		screen_draw(t, s, prompt);
		if (read(STDIN_FILENO, &c, 1) != 1 || c == '\n' || c == '\r')
			break;
		if (c == 27) {
			return;
		} else if (c == 127 || c == 8) {
			if (n)
				text[--n] = 0;
		} else if (n < sizeof(text) - 1 && c >= ' ') {
			text[n++] = c;
			text[n] = 0;
		}
	}
	set_filter(t, text);
}

/* Read what follows an escape (an arrow key's "[B"): none of it is a key. */
static void skip_escape(void)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	char c;
	int n = 0;

	while (n++ < 16 && poll(&pfd, 1, 20) > 0 &&
	       read(STDIN_FILENO, &c, 1) == 1) {
		/* A CSI or SS3 sequence ends at its final byte. */
		if (n > 1 && c >= 0x40 && c <= 0x7e)
			break;
		if (n == 1 && c != '[' && c != 'O')
			break;
	}
}

/* Handle a key; return 1 to quit, 0 to redraw now, -1 to ignore it. */
static int screen_key(struct top *t, json_object *s, char c)
{
	int col = col_by_key(c);

	if (c == 'q' || c == 3)
		return 1;
	if (c == 27) {
		skip_escape();
		return -1;
	}
	if (col >= 0) {
		t->sort = col;
		return 0;
	}
	switch (c) {
	case 'r':
		t->reverse = !t->reverse;
		return 0;
	case 'c':
		t->per_conn = !t->per_conn;
		return 0;
	case 'f':
		read_filter(t, s);
		return 0;
	}
	return -1;
}

/*
 * Refresh; a dump the table kept changing under (rd_collect_rows() tried
 * five times) is skipped: the next refresh measures from the last one.
 * Return: 0, -1 for a refresh skipped, 1 on failure.
 */
static int top_refresh(struct top *t)
{
	if (!top_sample(t))
		return 0;
	return errno == EAGAIN ? -1 : 1;
}

static int top_screen(struct top *t)
{
	unsigned long shown = 0;
	struct timespec next, now;
	json_object *s = NULL;
	int ret, err = 0;

	/* The first refresh is the base of the rates; its errors show. */
	if (top_sample(t))
		return 1;
	if (screen_enter())
		return 1;
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	s = top_view(t);
	screen_draw(t, s, NULL);
	clock_gettime(CLOCK_MONOTONIC, &now);
	next = now;
	for (;;) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		long wait_ms;
		char c;

		if (now_of(&now) >= now_of(&next)) {
			next.tv_sec = now.tv_sec + t->interval_ms / 1000;
			next.tv_nsec = now.tv_nsec +
				       (t->interval_ms % 1000) * 1000000L;
			if (next.tv_nsec >= NSEC_PER_SEC) {
				next.tv_sec++;
				next.tv_nsec -= NSEC_PER_SEC;
			}
			if (shown) {
				ret = top_refresh(t);
				if (ret > 0) {
					err = errno;
					break;
				}
				if (!ret) {
					json_object_put(s);
					s = top_view(t);
					screen_draw(t, s, NULL);
				}
			}
			if (t->count && shown++ >= t->count)
				break;
			if (!t->count)
				shown = 1;
		}
		wait_ms = (now_of(&next) - now_of(&now)) * 1000 + 1;
		if (poll(&pfd, 1, wait_ms) > 0) {
			if (read(STDIN_FILENO, &c, 1) != 1)
				break;
			ret = screen_key(t, s, c);
			if (ret == 1)
				break;
			if (ret == 0) {
				/* The same refresh, shown the new way. */
				json_object_put(s);
				s = top_view(t);
				screen_draw(t, s, NULL);
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	}
	json_object_put(s);
	screen_leave();
	if (err)
		pr_err("top: a refresh failed: %s", strerror(err));
	return !!err;
}

static int top_batch(struct top *t)
{
	unsigned long shown = 0;
	json_object *s;
	int ret;

	/* The first refresh is the base of the rates: wait one interval. */
	if (top_sample(t))
		return 1;
	while (!t->count || shown < t->count) {
		usleep(t->interval_ms * 1000);
		ret = top_refresh(t);
		if (ret > 0)
			return 1;
		if (ret < 0)
			continue;
		s = top_view(t);
		print_batch(t, s);
		json_object_put(s);
		shown++;
	}
	return 0;
}

static int sort_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cols); i++)
		if (!strcmp(name, cols[i].name))
			return i;
	return -1;
}

static int top_args(struct rd *rd, struct top *t)
{
	const char *w, *v;
	uint32_t u;
	double d;
	char *end;

	while ((w = rd_next(rd))) {
		if (!strcmp(w, "-b") || !strcmp(w, "reverse") ||
		    !strcmp(w, "conn")) {
			t->batch |= w[0] == '-';
			t->reverse |= w[0] == 'r';
			t->per_conn |= w[0] == 'c';
			continue;
		}
		if (!strcmp(w, "help") || !strcmp(w, "-h"))
			return top_help() + 2;
		v = rd_next(rd);
		if (!v) {
			pr_err("top: '%s' needs a value", w);
			return 1;
		}
		if (!strcmp(w, "-n")) {
			if (rd_u32(v, UINT32_MAX, &u) || !u) {
				pr_err("top: invalid count '%s' (1 or more)", v);
				return 1;
			}
			t->count = u;
		} else if (!strcmp(w, "-d")) {
			d = strtod(v, &end);
			if (*end || !(d >= 0.1 && d <= 3600)) {
				pr_err("top: invalid interval '%s' (0.1 to 3600 s)", v);
				return 1;
			}
			t->interval_ms = d * 1000 + 0.5;
		} else if (!strcmp(w, "sort")) {
			t->sort = sort_by_name(v);
			if (t->sort < 0) {
				pr_err("top: unknown column '%s'", v);
				return 1;
			}
		} else if (!strcmp(w, "zone")) {
			if (rd_u32(v, UINT16_MAX, &u)) {
				pr_err("top: invalid zone '%s'", v);
				return 1;
			}
			t->zone = u;
		} else if (!strcmp(w, "addr")) {
			if (addr_norm(v, t->addr, sizeof(t->addr))) {
				pr_err("top: invalid address '%s'", v);
				return 1;
			}
		} else if (!strcmp(w, "origin")) {
			if (strcmp(v, "learned") && strcmp(v, "managed") &&
			    strcmp(v, "inferred") && strcmp(v, "recovered")) {
				pr_err("top: unknown origin '%s'", v);
				return 1;
			}
			snprintf(t->origin, sizeof(t->origin), "%s", v);
		} else {
			pr_err("top: unknown argument '%s'", w);
			return 1;
		}
	}
	return 0;
}

/**
 * cmd_top() - "top": the busy and congested QPs
 * @rd: the invocation, positioned after "top"
 *
 * Return: the exit status.
 */
int cmd_top(struct rd *rd)
{
	struct top t = {
		.rd = rd, .interval_ms = 1000, .sort = 7, .zone = -1,
	};
	int ret;

	ret = top_args(rd, &t);
	if (ret)
		return ret == 2 ? 0 : ret;
	if (rd_need_family(rd)) {
		rd_perror();
		return 1;
	}
	if (rd->json && !t.batch) {
		pr_err("top: -j prints batches: add -b");
		return 1;
	}
	ret = t.batch ? top_batch(&t) : top_screen(&t);
	json_object_put(t.rows);
	json_object_put(t.totals);
	json_object_put(t.prev);
	json_object_put(t.prev_stats);
	return ret;
}
