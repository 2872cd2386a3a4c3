/* The text of a data validation error (reference §12.1): VDbench's one-line console form (op,
 * lun, lba, xfer, errno 60003; the op is always a read: every check reads) and the block report of errorlog.html: where the key block is,
 * which sector went bad first, the class of the error, and expected against found bytes as
 * 32-bit words ('.' for what cannot be known beforehand: the write time and its checksum). */
#include "vdbtext.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void rep_dv_error_line(char *buf, size_t len, const struct rep_exec *x,
		       const struct rep_dv_error *e)
{
	char tod[REP_TOD_LEN];

	rep_fmt_tod(tod, e->tod_ns);
	snprintf(buf, len,
		 "%s-0: %s op: %-6s lun: %-30s lba: %12llu 0x%08llX xfer: %8llu errno: %d: 'A Data "
		 "Validation error was discovered' ",
		 x->host ? x->host : "localhost", tod, "read", e->lun ? e->lun : "",
		 (unsigned long long)e->lba_bytes, (unsigned long long)e->lba_bytes,
		 (unsigned long long)e->size_bytes, DV_ERRNO);
}

/* The SD name as found, without the blank padding; '?' for what is not printable. */
static void found_name(char out[DV_NAME_BYTES + 1], const char in[DV_NAME_BYTES])
{
	int n = DV_NAME_BYTES;

	while (n > 0 && in[n - 1] == ' ')
		n--;
	for (int i = 0; i < n; i++)
		out[i] = in[i] >= 0x21 && in[i] < 0x7f ? in[i] : '?';
	out[n] = '\0';
}

void rep_dv_error_summary(char *buf, size_t len, const struct rep_dv_error *e)
{
	const struct dv_mismatch *m = e->m;
	char name[DV_NAME_BYTES + 1], what[160];

	found_name(name, m->found_name);
	switch (m->cls) {
	case DV_CLASS_KEY:
		snprintf(what, sizeof(what), "expected key %u, found key %u%s", m->expected_key,
			 m->found_key, m->found_key ? "" : " (never written)");
		break;
	case DV_CLASS_OFFSET:
		snprintf(what, sizeof(what), "found the data of lba 0x%08" PRIX64,
			 m->found_offset_bytes - (uint64_t)m->sector_idx * DV_SECTOR_BYTES);
		break;
	case DV_CLASS_SD:
		snprintf(what, sizeof(what), "found the data of sd=%s", name);
		break;
	default:
		snprintf(what, sizeof(what), "%u bit%s in sector %u", m->nr_bits,
			 m->nr_bits == 1 ? " differs" : "s differ", m->sector_idx);
		break;
	}
	snprintf(buf, len,
		 "Data Validation error for sd=%s,lun=%s: key block lba 0x%08" PRIX64
		 " (%u bytes): %s (%s): %s; %u of %u sectors bad",
		 e->sd, e->lun ? e->lun : "", m->block_offset_bytes, m->block_bytes,
		 dv_class_name(m->cls), dv_class_meaning(m->cls), what, m->nr_bad_sectors,
		 m->nr_sectors);
}

/* One 32-bit word as VDbench prints it (the native word, most significant byte first), with
 * '.' for the bytes of expected that cannot be known. */
static void word_text(char out[9], const uint8_t *b, unsigned int at, bool is_expected)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < 4; i++) {
		unsigned int idx = at + 3 - (unsigned int)i;
		bool is_known = !is_expected || dv_header_byte_is_known(idx);

		out[2 * i] = is_known ? hex[b[3 - i] >> 4] : '.';
		out[2 * i + 1] = is_known ? hex[b[3 - i] & 15] : '.';
	}
	out[8] = '\0';
}

/* "0x010   w w w w   w w w w": 16 bytes expected, then found; mark '*' for a line of the
 * body (VDbench marks the lines that differ). */
static void dump_line(rep_emit_fn *emit, void *ctx, unsigned int off, const uint8_t *want,
		      const uint8_t *got, bool is_header, char mark)
{
	char line[128], w[8][9];

	for (int i = 0; i < 4; i++) {
		word_text(w[i], want + 4 * i, off + 4u * (unsigned int)i, is_header);
		word_text(w[4 + i], got + 4 * i, off + 4u * (unsigned int)i, false);
	}
	snprintf(line, sizeof(line), "0x%03x%c  %s %s %s %s   %s %s %s %s", off, mark, w[0], w[1],
		 w[2], w[3], w[4], w[5], w[6], w[7]);
	emit(ctx, line);
}

static void tod_text(char *buf, size_t len, uint64_t tod_ms)
{
	time_t secs = (time_t)(tod_ms / 1000);
	struct tm tm;

	if (!gmtime_r(&secs, &tm) || !tod_ms || tod_ms > 32503680000000ull) {
		snprintf(buf, len, "(not a time: %" PRIu64 ")", tod_ms);
		return;
	}
	strftime(buf, len, "%a %b %d %Y %H:%M:%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), ".%03u UTC", (unsigned int)(tod_ms % 1000));
}

void rep_dv_error_detail(const struct rep_dv_error *e, rep_emit_fn *emit, void *ctx)
{
	const struct dv_mismatch *m = e->m;
	char line[512], name[DV_NAME_BYTES + 1], tod[64];
	uint64_t sector = m->block_offset_bytes + (uint64_t)m->sector_idx * DV_SECTOR_BYTES;

	found_name(name, m->found_name);
	rep_dv_error_summary(line, sizeof(line), e);
	emit(ctx, line);
	snprintf(line, sizeof(line),
		 "        Block lba: 0x%08" PRIX64 "; sector lba: 0x%08" PRIX64
		 "; Key block size: %u; relative sector in key block: 0x%02x (%2u)",
		 m->block_offset_bytes, sector, m->block_bytes, m->sector_idx, m->sector_idx);
	emit(ctx, line);
	snprintf(line, sizeof(line), "        ===> %s (%s)", dv_class_name(m->cls),
		 dv_class_meaning(m->cls));
	emit(ctx, line);
	snprintf(line, sizeof(line),
		 "        Expected key: %u; found key: %u; found lba: 0x%08" PRIX64
		 "; found sd: %s; found owner id: %u",
		 m->expected_key, m->found_key, m->found_offset_bytes, name, m->found_owner);
	emit(ctx, line);
	tod_text(tod, sizeof(tod), m->found_tod_ms);
	snprintf(line, sizeof(line), "        Timestamp found in sector: %s", tod);
	emit(ctx, line);
	if (e->has_good_time) { /* -vt: the guide's "this timestamp will be reported" */
		if (e->good_tod_ms)
			tod_text(tod, sizeof(tod), e->good_tod_ms);
		snprintf(line, sizeof(line), "        Last good read or write of the key block: %s",
			 e->good_tod_ms ? tod : "none in this execution");
		emit(ctx, line);
	}
	dump_line(emit, ctx, 0x00, m->expected, m->found, true, ' ');
	dump_line(emit, ctx, 0x10, m->expected + 16, m->found + 16, true, ' ');
	if (m->line_offset)
		dump_line(emit, ctx, m->line_offset, m->expected_line, m->found_line, false, '*');
}
