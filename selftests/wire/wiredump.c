// SPDX-License-Identifier: GPL-2.0
/*
 * roce-wiredump: print what the RoCEv2 wire library makes of packets, so
 * that independent decoders (scapy, tshark) can be compared with it.
 *
 * Input on stdin: one packet per line in hex, starting at the IP header.
 * Bytes may be separated by blanks; blank lines and lines starting with '#'
 * are skipped. Output: one line per packet of space-separated key=value
 * fields, only those that apply to the packet:
 *
 *   class malformed [family]                       always / when known
 *   tos ttl [flow] src dst len sport dport         well-formed packets
 *   opcode se migreq padcnt tver pkey fecn becn dqpn ackreq psn
 *   [deth_qkey deth_sqpn] payload_off payload_len
 *   icrc_ok icrc [icrc_calc]                       icrc: the stored ICRC
 *   [cm_attr cm_kind method status tid local_comm_id ...]   CM MADs
 *
 * ICRC values are printed as the library handles them: the wire bytes read
 * little-endian, as roce_icrc_calc() returns the ICRC.
 *
 * Exit status: 0 on success, 1 on malformed input (the packets before the
 * bad line are still printed), 2 on a usage or I/O error.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wire.h"

enum wiredump_limits {
	/* The longest IP packet: 65535 bytes of IPv6 payload and its header. */
	MAX_PKT_LEN	= 65535 + 40,
	/* Two digits per byte and a generous allowance for separators. */
	MAX_LINE_LEN	= 4 * MAX_PKT_LEN,
};

enum wiredump_exit {
	EXIT_OK		= 0,
	EXIT_BAD_INPUT	= 1,
	EXIT_USAGE	= 2,
};

static bool print_calc;

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/**
 * parse_hex() - decode one input line into packet bytes
 * @line: the line, @n characters (it may hold NUL bytes)
 * @n: its length
 * @buf: output, MAX_PKT_LEN bytes
 * @len: set to the number of bytes decoded
 * @lineno: for error messages
 *
 * Every blank-separated group must have an even number of hex digits, so a
 * lost digit is reported instead of shifting every byte after it.
 *
 * Return: true on success; false after printing why to stderr.
 */
static bool parse_hex(const char *line, size_t n, u8 *buf, u32 *len,
		      unsigned long lineno)
{
	size_t i = 0, group;
	u32 out = 0;
	int hi, lo;

	while (i < n) {
		if (is_blank(line[i])) {
			i++;
			continue;
		}
		for (group = i; i < n && !is_blank(line[i]); i++) {
			if (hex_digit(line[i]) < 0) {
				fprintf(stderr,
					"roce-wiredump: line %lu: column %zu: not a hex digit (0x%02x)\n",
					lineno, i + 1, (u8)line[i]);
				return false;
			}
		}
		if ((i - group) % 2) {
			fprintf(stderr,
				"roce-wiredump: line %lu: column %zu: odd number of hex digits\n",
				lineno, group + 1);
			return false;
		}
		for (; group < i; group += 2) {
			if (out == MAX_PKT_LEN) {
				fprintf(stderr,
					"roce-wiredump: line %lu: packet longer than %d bytes\n",
					lineno, MAX_PKT_LEN);
				return false;
			}
			hi = hex_digit(line[group]);
			lo = hex_digit(line[group + 1]);
			buf[out++] = (u8)(hi << 4 | lo);
		}
	}
	*len = out;
	return true;
}

/* An address in text form: IPv4 in the first four of the 16 bytes. */
static const char *addr_str(int family, const u8 *addr, char *s, size_t size)
{
	if (!inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, s, size))
		snprintf(s, size, "?");
	return s;
}

static void print_cma(const struct roce_cma_hdr *cma)
{
	char s[INET6_ADDRSTRLEN];

	printf(" cma_valid=%d", cma->valid);
	if (!cma->valid)
		return;
	printf(" cma_ipver=%u", cma->ip_version);
	printf(" cma_src=%s", addr_str(cma->ip_version, cma->src, s, sizeof(s)));
	printf(" cma_dst=%s", addr_str(cma->ip_version, cma->dst, s, sizeof(s)));
	printf(" cma_sport=%u", cma->src_port);
}

/* The CM fields that apply to the message's attribute. */
static void print_cm(const struct roce_cm *cm)
{
	char s[INET6_ADDRSTRLEN];

	printf(" cm_attr=0x%04x cm_kind=%s method=0x%02x status=0x%04x",
	       cm->attr_id, roce_cm_kind_name(cm->kind), cm->method,
	       cm->status);
	printf(" tid=0x%016llx local_comm_id=0x%08x",
	       (unsigned long long)cm->tid, cm->local_comm_id);

	switch (cm->kind) {
	case ROCE_CM_KIND_REQ:
		printf(" service_id=0x%016llx qkey=0x%08x qpn=0x%06x",
		       (unsigned long long)cm->service_id, cm->qkey, cm->qpn);
		printf(" starting_psn=0x%06x pkey_cm=0x%04x transport=%u",
		       cm->starting_psn, cm->pkey, cm->transport);
		printf(" local_gid=%s", addr_str(6, cm->local_gid, s, sizeof(s)));
		printf(" remote_gid=%s",
		       addr_str(6, cm->remote_gid, s, sizeof(s)));
		print_cma(&cm->cma);
		break;
	case ROCE_CM_KIND_SIDR_REQ:
		printf(" pkey_cm=0x%04x service_id=0x%016llx", cm->pkey,
		       (unsigned long long)cm->service_id);
		print_cma(&cm->cma);
		break;
	case ROCE_CM_KIND_SIDR_REP:
		printf(" sidr_status=%u qpn=0x%06x service_id=0x%016llx qkey=0x%08x",
		       cm->sidr_status, cm->qpn,
		       (unsigned long long)cm->service_id, cm->qkey);
		break;
	case ROCE_CM_KIND_REP:
		printf(" remote_comm_id=0x%08x qkey=0x%08x qpn=0x%06x starting_psn=0x%06x",
		       cm->remote_comm_id, cm->qkey, cm->qpn,
		       cm->starting_psn);
		break;
	case ROCE_CM_KIND_REJ:
		printf(" remote_comm_id=0x%08x msg_target=%u reject_reason=%u",
		       cm->remote_comm_id, cm->msg_target, cm->reject_reason);
		break;
	case ROCE_CM_KIND_MRA:
		printf(" remote_comm_id=0x%08x msg_target=%u",
		       cm->remote_comm_id, cm->msg_target);
		break;
	case ROCE_CM_KIND_DREQ:
	case ROCE_CM_KIND_LAP:
		printf(" remote_comm_id=0x%08x qpn=0x%06x",
		       cm->remote_comm_id, cm->qpn);
		break;
	case ROCE_CM_KIND_APR:
		printf(" remote_comm_id=0x%08x ap_status=%u",
		       cm->remote_comm_id, cm->ap_status);
		break;
	default:	/* RTU, DREP and unknown attributes */
		printf(" remote_comm_id=0x%08x", cm->remote_comm_id);
		break;
	}
}

static void dump(const u8 *buf, u32 len)
{
	const struct roce_bth *bth;
	struct roce_pkt pkt;
	char s[INET6_ADDRSTRLEN];

	roce_parse(buf, len, len, &pkt);
	printf("class=%s malformed=%s", roce_class_name(pkt.class),
	       roce_malformed_name(pkt.class == ROCE_CLASS_MALFORMED ?
				   pkt.malformed : ROCE_MAL_NONE));
	if (pkt.family == 4 || pkt.family == 6)
		printf(" family=%u", pkt.family);
	if (pkt.class == ROCE_CLASS_MALFORMED) {
		putchar('\n');
		return;
	}

	printf(" tos=0x%02x ttl=%u", roce_pkt_tos(&pkt), roce_pkt_ttl(&pkt));
	if (pkt.family == 6)
		printf(" flow=0x%05x", roce_pkt_flow_label(&pkt));
	printf(" src=%s", addr_str(pkt.family, roce_pkt_saddr(&pkt), s, sizeof(s)));
	printf(" dst=%s", addr_str(pkt.family, roce_pkt_daddr(&pkt), s, sizeof(s)));
	printf(" len=%u sport=%u dport=%u", pkt.len, roce_pkt_sport(&pkt),
	       roce_pkt_dport(&pkt));

	bth = &pkt.bth;
	printf(" opcode=0x%02x se=%d migreq=%d padcnt=%u tver=%u pkey=0x%04x",
	       bth->opcode, roce_bth_solicited(bth), roce_bth_mig_req(bth),
	       roce_bth_pad_count(bth), roce_bth_tver(bth), roce_bth_pkey(bth));
	printf(" fecn=%d becn=%d dqpn=0x%06x ackreq=%d psn=0x%06x",
	       roce_bth_fecn(bth), roce_bth_becn(bth), roce_bth_dest_qp(bth),
	       roce_bth_ack_req(bth), roce_bth_psn(bth));
	if (pkt.has_deth)
		printf(" deth_qkey=0x%08x deth_sqpn=0x%06x", pkt.deth_qkey,
		       pkt.deth_src_qp);
	printf(" payload_off=%u payload_len=%u", pkt.payload_off,
	       pkt.payload_len);

	printf(" icrc_ok=%d icrc=0x%08x",
	       roce_icrc_verify(buf, pkt.l4_off, pkt.len),
	       get_unaligned_le32(buf + pkt.len - ROCE_ICRC_LEN));
	if (print_calc)
		printf(" icrc_calc=0x%08x",
		       roce_icrc_calc(buf, pkt.l4_off, pkt.len));

	if (pkt.class == ROCE_CLASS_CM)
		print_cm(&pkt.cm);
	putchar('\n');
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: roce-wiredump [-c]\n"
		"Read packets as hex lines (from the IP header) on stdin and print\n"
		"the RoCEv2 wire library's view of each as key=value fields.\n"
		"  -c  also print the computed ICRC (icrc_calc=)\n"
		"  -h  this help\n");
}

/**
 * read_line() - read one line, without its newline, into a bounded buffer
 * @f: the stream
 * @line: MAX_LINE_LEN bytes
 * @n: set to the number of bytes read (NUL bytes included)
 *
 * Return: 1 for a line, 0 at the end of the input, -1 for a line longer
 * than MAX_LINE_LEN.
 */
static int read_line(FILE *f, char *line, size_t *n)
{
	size_t len = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (len == MAX_LINE_LEN)
			return -1;
		line[len++] = (char)c;
	}
	*n = len;
	return c == EOF && len == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	static char line[MAX_LINE_LEN];
	static u8 buf[MAX_PKT_LEN];
	unsigned long lineno = 0;
	int ret = EXIT_OK, opt, r;
	size_t n, i;
	u32 len;

	while ((opt = getopt(argc, argv, "ch")) != -1) {
		switch (opt) {
		case 'c':
			print_calc = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return EXIT_USAGE;
	}

	while ((r = read_line(stdin, line, &n)) != 0) {
		lineno++;
		if (r < 0) {
			fprintf(stderr,
				"roce-wiredump: line %lu: longer than %d characters\n",
				lineno, MAX_LINE_LEN);
			ret = EXIT_BAD_INPUT;
			break;
		}
		for (i = 0; i < n && is_blank(line[i]); i++)
			;
		if (i == n || line[i] == '#')
			continue;
		if (!parse_hex(line, n, buf, &len, lineno)) {
			ret = EXIT_BAD_INPUT;
			break;
		}
		dump(buf, len);
	}
	if (ferror(stdin)) {
		fprintf(stderr, "roce-wiredump: error reading stdin\n");
		ret = EXIT_USAGE;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "roce-wiredump: error writing stdout\n");
		ret = EXIT_USAGE;
	}
	return ret;
}
