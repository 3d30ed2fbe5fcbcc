// SPDX-License-Identifier: GPL-2.0
/*
 * wire_bench: nanoseconds per packet of the wire library on a fixed trace:
 * roce_parse() (parse and classify) and roce_icrc_verify(). The trace is
 * built here, deterministically: RC writes and sends of several sizes, UD
 * sends, CNPs and CM MADs, IPv4 and IPv6. Prints JSON: median and spread
 * (min, max) over repeated runs, and the CPU model.
 *
 *   wire_bench [RUNS]    (default 7)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "wire.h"

#define TRACE_LEN	4096
#define PKT_MAX		4200

static u8 trace[TRACE_LEN][PKT_MAX];
static u32 trace_len[TRACE_LEN], trace_l4[TRACE_LEN];

/* One packet of the trace: opcode, payload size and family vary with @i. */
static u32 make_packet(u8 *buf, unsigned int i, u32 *l4)
{
	static const u8 ops[] = { 0x0a, 0x04, 0x06, 0x11, 0x64, 0x81, 0x24 };
	static const u32 sizes[] = { 0, 64, 256, 1024, 4096 };
	u8 op = ops[i % sizeof(ops)], family = i % 5 == 4 ? 6 : 4;
	u32 ext = op == 0x0a || op == 0x06 ? 16 : op == 0x11 ? 4 :
		  op == 0x64 ? 8 : 0;
	u32 payload = op == 0x81 ? 16 : op == 0x11 ? 0 :
		      sizes[(i / 7) % ARRAY_SIZE(sizes)];
	u32 hl = family == 4 ? 20 : 40;
	u32 len = hl + 8 + ROCE_BTH_LEN + ext + payload + ROCE_ICRC_LEN;
	u8 *b = buf + hl;
	struct roce_ip_udp h = {
		.family = family, .tos = ROCE_ECN_ECT0, .ttl = 64,
		.sport = 0xc000 + i % 1000,
	};

	if (family == 4) {
		put_unaligned_be32(0x0a000001 + i % 251, h.saddr);
		put_unaligned_be32(0x0a010001, h.daddr);
	} else {
		h.saddr[0] = 0xfd;
		h.saddr[15] = i % 251;
		h.daddr[0] = 0xfd;
		h.daddr[15] = 1;
	}
	memset(buf, 0, len);
	roce_put_ip_udp(buf, len, &h);
	b += 8;
	b[0] = op;
	put_unaligned_be16(0xffff, b + 2);
	put_unaligned_be32(0x100 + i % 1000, b + 4);
	put_unaligned_be32(i, b + 8);
	*l4 = hl;
	put_unaligned_le32(roce_icrc_calc(buf, hl, len), buf + len - 4);
	return len;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[128];

	snprintf(buf, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10)) {
			char *v = strchr(line, ':');

			snprintf(buf, len, "%s", v ? v + 2 : line);
			buf[strcspn(buf, "\n\"")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 7, r, rep, reps = 200;
	double parse[64], icrc[64], t0, bytes = 0;
	unsigned int i, classes[ROCE_CLASS_MAX] = { 0 };
	struct roce_pkt pkt;
	u32 sink = 0;	/* printed: keeps the loops from being optimised away */
	char cpu[160];

	if (runs < 1 || runs > 64) {
		fprintf(stderr, "usage: %s [RUNS 1-64]\n", argv[0]);
		return 2;
	}
	for (i = 0; i < TRACE_LEN; i++) {
		trace_len[i] = make_packet(trace[i], i, &trace_l4[i]);
		bytes += trace_len[i];
		classes[roce_parse(trace[i], trace_len[i], trace_len[i], &pkt)]++;
	}
	if (classes[ROCE_CLASS_MALFORMED]) {
		fprintf(stderr, "wire_bench: %u malformed packets in the trace\n",
			classes[ROCE_CLASS_MALFORMED]);
		return 1;
	}
	for (r = 0; r < runs; r++) {
		t0 = now_ns();
		for (rep = 0; rep < reps; rep++)
			for (i = 0; i < TRACE_LEN; i++)
				sink += roce_parse(trace[i], trace_len[i],
						   trace_len[i], &pkt);
		parse[r] = (now_ns() - t0) / reps / TRACE_LEN;
		t0 = now_ns();
		for (rep = 0; rep < reps / 10; rep++)
			for (i = 0; i < TRACE_LEN; i++)
				sink += roce_icrc_verify(trace[i], trace_l4[i],
							 trace_len[i]);
		icrc[r] = (now_ns() - t0) / (reps / 10) / TRACE_LEN;
	}
	qsort(parse, runs, sizeof(double), cmp_double);
	qsort(icrc, runs, sizeof(double), cmp_double);
	cpu_model(cpu, sizeof(cpu));
	printf("{\"cpu\": \"%s\", \"packets\": %d, ", cpu, TRACE_LEN);
	printf("\"mean_bytes\": %.0f, \"runs\": %d, ", bytes / TRACE_LEN, runs);
	printf("\"parse_ns\": {\"median\": %.1f, \"min\": %.1f, \"max\": %.1f}, ",
	       parse[runs / 2], parse[0], parse[runs - 1]);
	printf("\"icrc_ns\": {\"median\": %.1f, \"min\": %.1f, \"max\": %.1f}, ",
	       icrc[runs / 2], icrc[0], icrc[runs - 1]);
	printf("\"sink\": %u}\n", sink);
	return 0;
}
